import type { CheckoutSessionResponse, CheckoutSessionTokenResponse } from '../../generated/types.js'
import { CHECKOUT_FORMULAS } from '../signatures/formulas.js'
import type { EngineContext } from '../engine/context.js'
import { jsonResponse } from '../engine/http.js'
import type { Session } from '../engine/model.js'
import type { RouteDefinition } from '../engine/modules.js'
import { declareRoute } from '../engine/pipeline.js'
import { MINUTE } from '../ports/clock.js'
import { findMethod, resolveMethodId } from '../payments/methods.js'
import { checkSessionRules, type SessionRequest } from './session-rules.js'

/** docs/rules.md#session-expiry: minutes, default 60 (configurable as sessions.default_expiry_minutes). */
const expiryMinutes = (ctx: EngineContext, request: SessionRequest): number =>
  request.session_expiry ?? ctx.config.sessions?.default_expiry_minutes ?? 60

/** An IPv4 peer seen through an IPv6 socket (`::ffff:203.0.113.7`) is recorded in its IPv4 form. */
const plainIp = (ip: string | undefined): string | undefined => ip?.replace(/^::ffff:(?=\d+\.)/, '')

/**
 * POST /api/v1/session and POST /api/v1/session/token: validate, authenticate (merchant_key and
 * the session hash, docs/rules.md#signatures), check the session rules, store the session. No payment
 * exists yet; the payer pays on the hosted page or through Hosted Payment Fields.
 */
export function sessionRoute(hostedFields: boolean): RouteDefinition {
  return declareRoute<SessionRequest>({
    method: 'POST',
    path: hostedFields ? '/api/v1/session/token' : '/api/v1/session',
    api: 'checkout',
    pipeline: {
      schema: hostedFields ? 'checkout/session-token-request' : 'checkout/session-request',
      credential: 'merchant_key',
      formula: CHECKOUT_FORMULAS.session,
    },
    handler: ({ input: request, merchant, ctx, request: http }) => {
      checkSessionRules(ctx, merchant, request)
      const now = ctx.clock.now()
      const { hash: _signature, ...kept } = request
      // customer.ip belongs to the session-token request only (2.1.2); the caller's address stands in for it.
      const customerIp = hostedFields
        ? (request.customer?.ip ?? plainIp(http.remoteAddress))
        : request.payer_ip
      const session: Session = {
        id: ctx.ids.uuid(),
        token: ctx.ids.token(),
        // docs/rules.md#page-token: the page token is not the session token.
        page_token: ctx.ids.token(),
        merchant_key: merchant.key,
        operation: request.operation,
        // A merchant's own alias (`method_aliases`) is kept as the catalogue identifier it names,
        // so every later reader (pages, routing, callbacks) knows the method; catalogue aliases stay as sent.
        methods: (request.methods ?? []).map((id) =>
          findMethod(id) ? id : resolveMethodId(id, merchant.method_aliases),
        ),
        request: kept,
        hosted_fields: hostedFields,
        ...(customerIp ? { customer_ip: customerIp } : {}),
        created_at: now,
        expires_at: now + expiryMinutes(ctx, request) * MINUTE,
        status: 'open',
      }
      ctx.store.put('sessions', session)
      if (hostedFields)
        return jsonResponse(200, { token: session.token } satisfies CheckoutSessionTokenResponse)
      return jsonResponse(200, {
        redirect_url: `${ctx.baseUrl}/auth/${session.page_token}`,
      } satisfies CheckoutSessionResponse)
    },
  })
}
