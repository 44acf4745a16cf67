import { checkedAmount } from '../../payments/ledger.js'
import type { CheckoutCaptureRequest, CheckoutCaptureResponse1 } from '../../../generated/types.js'
import { authenticate, requireHash } from '../../engine/auth.js'
import { jsonResponse } from '../../engine/http.js'
import type { OperationHandler } from '../../engine/modules.js'
import { validated } from '../../engine/request-validation.js'
import { DECLINE_REASONS } from '../../payments/connector.js'
import { capturePayment } from '../../payments/follow-ups.js'
import { checkoutSignatures } from '../../signatures/index.js'
import { loadPayment, now } from './common.js'

/**
 * POST /api/v1/payment/capture: DMS capture of a held authorization. One capture of up to the
 * authorized amount; a partial capture settles that amount and releases the rest. A declined
 * capture leaves the authorization held (PENDING), so the merchant can still release it.
 */
export const capture: OperationHandler = ({ body, ctx }) => {
  const request = validated<CheckoutCaptureRequest>('checkout/capture-request', body)
  const merchant = authenticate(ctx, request.merchant_key)
  requireHash(
    request.hash,
    checkoutSignatures.amountOperation(request.payment_id, request.amount, merchant.password),
  )
  const payment = loadPayment(ctx, merchant, request.payment_id, 'CHECKOUT_PAYMENT_NOT_FOUND')
  checkedAmount(request.amount, payment.order.currency, 'amount', 'CHECKOUT_OPERATION_ZERO_AMOUNT')
  const transaction = capturePayment(ctx, payment, {
    api: 'checkout',
    ...(request.amount !== undefined ? { amount: request.amount } : {}),
    ...(request.parameters ? { parameters: request.parameters } : {}),
  })
  const declined = transaction.status === 'fail'

  const answer: CheckoutCaptureResponse1 = {
    payment_id: payment.id,
    status: payment.status,
    trans_status: declined ? 'FAIL' : 'SUCCESS',
    date: now(ctx),
    ...(declined ? { reason: DECLINE_REASONS.capture } : {}),
  }
  return jsonResponse(200, answer)
}
