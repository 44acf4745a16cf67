import { checkedAmount } from '../../payments/ledger.js'
import type { CheckoutRefundRequest, CheckoutRefundResponse } from '../../../generated/types.js'
import { jsonResponse } from '../../engine/http.js'
import type { Payment } from '../../engine/model.js'
import { declareRoute } from '../../engine/pipeline.js'
import { refundPayment } from '../../payments/follow-ups.js'
import { paymentPipeline } from './common.js'

/**
 * POST /api/v1/payment/refund: a refund of a settled payment (full or partial, each its own
 * transaction, whose id is the callback's `creditvoid_id`), or the release of a held
 * authorization in full (a reversal), or the reversal of a debit.
 *
 * Everything from loading the payment to storing it is synchronous: concurrent refunds run one
 * after the other, so their sum never passes what was captured.
 */
export const refund = declareRoute<CheckoutRefundRequest, Payment>({
  method: 'POST',
  path: '/api/v1/payment/refund',
  api: 'checkout',
  pipeline: paymentPipeline('checkout/refund-request', 'with amount'),
  handler: ({ input: request, loaded: payment, ctx }) => {
    checkedAmount(request.amount, payment.order.currency, 'amount', 'CHECKOUT_OPERATION_ZERO_AMOUNT')
    refundPayment(ctx, payment, {
      api: 'checkout',
      ...(request.amount !== undefined ? { amount: request.amount } : {}),
      ...(request.parameters ? { parameters: request.parameters } : {}),
    })

    const answer: CheckoutRefundResponse = { payment_id: payment.id, result: 'accepted' }
    return jsonResponse(200, answer)
  },
})
