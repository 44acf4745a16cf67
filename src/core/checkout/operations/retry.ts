import type { CheckoutRetryRequest, CheckoutRetryResponse } from '../../../generated/types.js'
import { authenticate, requireHash } from '../../engine/auth.js'
import { fail } from '../../engine/errors.js'
import { jsonResponse } from '../../engine/http.js'
import type { OperationHandler } from '../../engine/modules.js'
import { validated } from '../../engine/request-validation.js'
import { checkoutSignatures } from '../../signatures/index.js'
import { applyCharge } from './charge.js'
import { chargeOutcome } from './charge-outcome.js'
import { loadPayment } from './common.js'

/**
 * POST /api/v1/payment/retry: charges a declined secondary recurring payment again on the same
 * stored card, with the same rules (an expired card stays declined). Only that kind of payment
 * can be retried without the payer; anything else is "Retry is not allowed.". The answer is
 * `accepted`; the outcome is the payment's new status and its callback.
 */
export const retry: OperationHandler = ({ body, ctx }) => {
  const request = validated<CheckoutRetryRequest>('checkout/retry-request', body)
  const merchant = authenticate(ctx, request.merchant_key)
  requireHash(request.hash, checkoutSignatures.paymentOperation(request.payment_id, merchant.password))
  const payment = loadPayment(ctx, merchant, request.payment_id, 'CHECKOUT_PAYMENT_NOT_FOUND')
  if (!payment.card) throw fail('RETRY_NOT_ALLOWED')
  applyCharge(ctx, payment, 'RETRY', 'recurring', chargeOutcome(payment.card, ctx.clock.now()), false)

  const answer: CheckoutRetryResponse = { payment_id: payment.id, result: 'accepted' }
  return jsonResponse(200, answer)
}
