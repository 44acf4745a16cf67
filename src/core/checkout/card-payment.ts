import { fail } from '../engine/errors.js'
import { jsonResponse } from '../engine/http.js'
import type { RouteDefinition } from '../engine/modules.js'
import { declareTokenRoute } from '../engine/pipeline.js'
import { hostedFieldsAnswer } from './hpf-answer.js'
import { payWithCard } from '../payments/payer.js'
import { releaseOf } from '../validation/releases.js'

/**
 * POST /api/v1/processing/{purchase,debit}/card (Endpoints; body per docs/rules.md#beyond-the-interface): the Hosted
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
    handler: ({ input: body, session, merchant, ctx }) => {
      // docs/rules.md#releases: Hosted Payment Fields debit is a 6.7.0 addition.
      if (operation === 'debit' && releaseOf(merchant) === '6.6.5') throw fail('ROUTE_NOT_FOUND')
      const { payment, redirect_url } = payWithCard(ctx, session, body, { operation })
      // docs/rules.md#hosted-payment-fields: `result` (success, decline, redirect, waiting, undefined) and the payer's next page.
      return jsonResponse(200, hostedFieldsAnswer(ctx, payment, redirect_url))
    },
  })
}
