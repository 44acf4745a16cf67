import type { CheckoutVoidRequest, CheckoutVoidResponse1 } from '../../../generated/types.js'
import { jsonResponse } from '../../engine/http.js'
import type { Payment } from '../../engine/model.js'
import { declareRoute } from '../../engine/pipeline.js'
import { voidPayment as applyVoid } from '../../payments/follow-ups.js'
import { paymentPipeline, now, orderRecord } from './common.js'

/**
 * POST /api/v1/payment/void: cancels a SETTLED payment on its financial day. A refused void is
 * the error envelope (the interface's Errors row "Void is not allowed."), not a FAIL answer.
 */
export const voidPayment = declareRoute<CheckoutVoidRequest, Payment>({
  method: 'POST',
  path: '/api/v1/payment/void',
  api: 'checkout',
  pipeline: paymentPipeline('checkout/void-request', 'payment_id only'),
  handler: ({ input: request, loaded: payment, ctx }) => {
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
  },
})
