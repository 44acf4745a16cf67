import type { CheckoutRetryRequest, CheckoutRetryResponse } from '../../../generated/types.js'
import { fail } from '../../engine/errors.js'
import { jsonResponse } from '../../engine/http.js'
import type { Payment } from '../../engine/model.js'
import { declareRoute } from '../../engine/pipeline.js'
import { applyCharge } from './charge.js'
import { chargeOutcome } from './charge-outcome.js'
import { paymentPipeline } from './common.js'

/**
 * POST /api/v1/payment/retry: charges a declined secondary recurring payment again on the same
 * stored card, with the same rules (an expired card stays declined). Only that kind of payment
 * can be retried without the payer; anything else is "Retry is not allowed.". The answer is
 * `accepted`; the outcome is the payment's new status and its callback.
 */
export const retry = declareRoute<CheckoutRetryRequest, Payment>({
  method: 'POST',
  path: '/api/v1/payment/retry',
  api: 'checkout',
  pipeline: paymentPipeline('checkout/retry-request', 'payment_id only'),
  handler: ({ loaded: payment, ctx }) => {
    if (!payment.card) throw fail('RETRY_NOT_ALLOWED')
    // A soft decline (docs/rules.md#recurring-test-amounts) is retried on the card, without a new one.
    delete payment.scenario
    applyCharge(ctx, payment, 'RETRY', 'recurring', chargeOutcome(payment.card, ctx.clock.now()), false)

    const answer: CheckoutRetryResponse = { payment_id: payment.id, result: 'accepted' }
    return jsonResponse(200, answer)
  },
})
