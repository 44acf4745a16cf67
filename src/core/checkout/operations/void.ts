import type { CheckoutVoidRequest, CheckoutVoidResponse1 } from '../../../generated/types.js'
import { authenticate, requireHash } from '../../engine/auth.js'
import { jsonResponse } from '../../engine/http.js'
import type { OperationHandler } from '../../engine/modules.js'
import { validated } from '../../engine/request-validation.js'
import { voidPayment as applyVoid } from '../../payments/follow-ups.js'
import { checkoutSignatures } from '../../signatures/index.js'
import { loadPayment, now, orderRecord } from './common.js'

/**
 * POST /api/v1/payment/void: cancels a SETTLED payment on its financial day. A refused void is
 * the error envelope (the interface's Errors row "Void is not allowed."), not a FAIL answer.
 */
export const voidPayment: OperationHandler = ({ body, ctx }) => {
  const request = validated<CheckoutVoidRequest>('checkout/void-request', body)
  const merchant = authenticate(ctx, request.merchant_key)
  requireHash(request.hash, checkoutSignatures.paymentOperation(request.payment_id, merchant.password))
  const payment = loadPayment(ctx, merchant, request.payment_id, 'CHECKOUT_PAYMENT_NOT_FOUND')
  applyVoid(ctx, payment, {
    api: 'checkout',
    ...(request.parameters ? { parameters: request.parameters } : {}),
  })

  const answer: CheckoutVoidResponse1 = {
    status: 'SUCCESS',
    payment_status: payment.status,
    payment_id: payment.id,
    date: now(ctx),
    order: orderRecord(payment.order),
  }
  return jsonResponse(200, answer)
}
