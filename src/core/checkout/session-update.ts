import type { CheckoutSessionUpdateRequest, CheckoutSessionUpdateResponse } from '../../generated/types.js'
import { fail, GatewayError } from '../engine/errors.js'
import { jsonResponse } from '../engine/http.js'
import type { RouteDefinition } from '../engine/modules.js'
import { declareTokenRoute } from '../engine/pipeline.js'
import { validated } from '../engine/request-validation.js'
import { sessionRequest } from '../sessions/session-access.js'
import { requireMove } from '../sessions/session-lifecycle.js'
import { releaseOf } from '../validation/releases.js'
import { checkSessionRules, type SessionRequest } from './session-rules.js'

const SCHEMA = 'checkout/session-update-request'

/**
 * PUT /api/v1/session/update (Endpoints): the body holds only the changed fields; allowed until a
 * payment exists; token, expiry and entered card data stay. The header is checked before the body,
 * as header authentication comes first on every Token route. The merged session must pass the same
 * rules as a new one (amount decimals against the currency, zero amount, routing).
 */
const route = declareTokenRoute<CheckoutSessionUpdateRequest>({
  method: 'PUT',
  path: '/api/v1/session/update',
  api: 'checkout',
  pipeline: { token: 'session', schema: SCHEMA },
  handler: ({ input: change, session, merchant, ctx }) => {
    // docs/rules.md#releases: session update is a 6.7.0 addition.
    if (releaseOf(merchant) === '6.6.5') throw fail('ROUTE_NOT_FOUND')
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
    try {
      checkSessionRules(ctx, merchant, after)
    } catch (error) {
      // docs/rules.md#session-update: a new amount or currency re-selects methods, "else error Not found acceptable methods."
      const repriced = change.order_amount !== undefined || change.order_currency !== undefined
      if (repriced && error instanceof GatewayError && error.row?.id === 'ROUTING_NO_MID')
        throw fail('SESSION_UPDATE_NO_METHODS')
      throw error
    }
    ctx.store.put('sessions', { ...session, request: after })
    return jsonResponse(200, {
      result: 'accepted',
      token: session.token,
    } satisfies CheckoutSessionUpdateResponse)
  },
})

/** Token refusals of this route, answered as the platform does: 403 and an HTML page (docs/rules.md#sessions). */
const TOKEN_REFUSALS = new Set(['TOKEN_MISSING', 'TOKEN_INVALID', 'SESSION_EXPIRED'])

export const updateSession: RouteDefinition = {
  ...route,
  handler: (input) => {
    try {
      return route.handler(input)
    } catch (error) {
      if (error instanceof GatewayError && TOKEN_REFUSALS.has(error.entry.id))
        throw fail('SESSION_UPDATE_TOKEN_INVALID')
      throw error
    }
  },
}
