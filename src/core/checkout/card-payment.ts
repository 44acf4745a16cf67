import type { CheckoutHpfCardPaymentResponse } from '../../generated/types.js'
import { jsonResponse } from '../engine/http.js'
import type { OperationHandler } from '../engine/modules.js'
import { payWithCard } from '../payments/payer.js'
import { tokenHeader } from './session-access.js'

/**
 * POST /api/v1/processing/{purchase,debit}/card (Endpoints; body per decisions.md 6): the Hosted
 * Payment Fields card payment. The answer carries the payment id and status, the 3DS or redirect
 * page when the payer has a step to take, and the reason of a decline.
 */
export function cardPaymentHandler(operation: 'purchase' | 'debit'): OperationHandler {
  return ({ body, ctx, request }) => {
    const { payment, redirect_url } = payWithCard(ctx, tokenHeader(request), body, { operation })
    const answer: CheckoutHpfCardPaymentResponse = {
      payment_id: payment.id,
      status: payment.status,
      ...(redirect_url ? { redirect_url } : {}),
      ...(payment.decline_reason ? { reason: payment.decline_reason } : {}),
    }
    return jsonResponse(200, answer)
  }
}
