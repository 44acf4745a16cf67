import { checkedAmount } from '../../payments/ledger.js'
import type { CheckoutCaptureRequest, CheckoutCaptureResponse1 } from '../../../generated/types.js'
import { jsonResponse } from '../../engine/http.js'
import type { Payment } from '../../engine/model.js'
import { declareRoute } from '../../engine/pipeline.js'
import { DECLINE_REASONS } from '../../payments/connector.js'
import { capturePayment } from '../../payments/follow-ups.js'
import { paymentPipeline, now } from './common.js'

/**
 * POST /api/v1/payment/capture: DMS capture of a held authorization. One capture of up to the
 * authorized amount; a partial capture settles that amount and releases the rest. A declined
 * capture leaves the authorization held (PENDING), so the merchant can still release it.
 */
export const capture = declareRoute<CheckoutCaptureRequest, Payment>({
  method: 'POST',
  path: '/api/v1/payment/capture',
  api: 'checkout',
  pipeline: paymentPipeline('checkout/capture-request', 'with amount'),
  handler: ({ input: request, loaded: payment, ctx }) => {
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
  },
})
