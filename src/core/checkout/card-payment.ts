import type { CheckoutHpfCardPaymentResponse } from '../../generated/types.js'
import { jsonResponse } from '../engine/http.js'
import type { RouteDefinition } from '../engine/modules.js'
import { declareTokenRoute } from '../engine/pipeline.js'
import { payWithCard } from '../payments/payer.js'

/**
 * POST /api/v1/processing/{purchase,debit}/card (Endpoints; body per decisions.md 6): the Hosted
 * Payment Fields card payment, authorized by the session token from `/api/v1/session/token`. The
 * answer carries the payment id and status, the 3DS or redirect page when the payer has a step
 * to take, and the reason of a decline.
 */
export function cardPaymentRoute(operation: 'purchase' | 'debit'): RouteDefinition {
  return declareTokenRoute({
    method: 'POST',
    path: `/api/v1/processing/${operation}/card`,
    api: 'checkout',
    pipeline: { token: 'session' },
    handler: ({ input: body, session, ctx }) => {
      const { payment, redirect_url } = payWithCard(ctx, session, body, { operation })
      const answer: CheckoutHpfCardPaymentResponse = {
        payment_id: payment.id,
        status: payment.status,
        ...(redirect_url ? { redirect_url } : {}),
        ...(payment.decline_reason ? { reason: payment.decline_reason } : {}),
      }
      return jsonResponse(200, answer)
    },
  })
}
