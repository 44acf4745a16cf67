import type { CheckoutSessionUpdateRequest, CheckoutSessionUpdateResponse } from '../../generated/types.js'
import { jsonResponse } from '../engine/http.js'
import { declareTokenRoute } from '../engine/pipeline.js'
import { validated } from '../engine/request-validation.js'
import { sessionRequest } from './session-access.js'
import { requireMove } from './session-lifecycle.js'
import { checkSessionRules, type SessionRequest } from './session-rules.js'

const SCHEMA = 'checkout/session-update-request'

/**
 * PUT /api/v1/session/update (Endpoints): the body holds only the changed fields; allowed until a
 * payment exists; token, expiry and entered card data stay. The header is checked before the body,
 * as header authentication comes first on every Token route. The merged session must pass the same
 * rules as a new one (amount decimals against the currency, zero amount, routing).
 */
export const updateSession = declareTokenRoute<CheckoutSessionUpdateRequest>({
  method: 'PUT',
  path: '/api/v1/session/update',
  api: 'checkout',
  pipeline: { token: 'session', schema: SCHEMA },
  handler: ({ input: change, session, merchant, ctx }) => {
    requireMove(ctx, session, 'update', 'merchant')

    const before = sessionRequest(session)
    const order = {
      ...before.order,
      amount: change.order_amount ?? before.order.amount,
      currency: change.order_currency ?? before.order.currency,
    }
    // The amount and the currency are checked as a pair even when only one changed, with the request's own messages.
    validated(SCHEMA, { order_amount: order.amount, order_currency: order.currency })

    const after: SessionRequest = {
      ...before,
      order,
      ...(change.recurring_init !== undefined ? { recurring_init: change.recurring_init } : {}),
      ...(change.req_token !== undefined ? { req_token: change.req_token } : {}),
      ...(change.schedule_id !== undefined ? { schedule_id: change.schedule_id } : {}),
      ...(change.custom_data !== undefined ? { custom_data: change.custom_data } : {}),
      // Parameters change per method: a method sent replaces that method's object, the others stay.
      ...(change.parameters !== undefined
        ? { parameters: { ...before.parameters, ...change.parameters } }
        : {}),
    }
    checkSessionRules(ctx, merchant, after)
    ctx.store.put('sessions', { ...session, request: after })
    return jsonResponse(200, {
      result: 'accepted',
      token: session.token,
    } satisfies CheckoutSessionUpdateResponse)
  },
})
