import type { CheckoutSessionResponse, CheckoutSessionTokenResponse } from '../../generated/types.js'
import { authenticate, requireHash } from '../engine/auth.js'
import type { EngineContext } from '../engine/context.js'
import { jsonResponse } from '../engine/http.js'
import type { Session } from '../engine/model.js'
import type { OperationHandler } from '../engine/modules.js'
import { validated } from '../engine/request-validation.js'
import { MINUTE } from '../ports/clock.js'
import { checkoutSignatures } from '../signatures/index.js'
import { checkSessionRules, type SessionRequest } from './session-rules.js'

/** decisions.md 5: minutes, default 60 (configurable as sessions.default_expiry_minutes). */
const expiryMinutes = (ctx: EngineContext, request: SessionRequest): number =>
  request.session_expiry ?? ctx.config.sessions?.default_expiry_minutes ?? 60

/** An IPv4 peer seen through an IPv6 socket (`::ffff:203.0.113.7`) is recorded in its IPv4 form. */
const plainIp = (ip: string | undefined): string | undefined => ip?.replace(/^::ffff:(?=\d+\.)/, '')

/**
 * POST /api/v1/session and POST /api/v1/session/token: validate, authenticate (merchant_key and
 * the session hash, decisions.md 1), check the session rules, store the session. No payment
 * exists yet; the payer pays on the hosted page or through Hosted Payment Fields.
 */
export function createSessionHandler(hostedFields: boolean): OperationHandler {
  const schema = hostedFields ? 'checkout/session-token-request' : 'checkout/session-request'
  return ({ body, ctx, request: http }) => {
    const request = validated<SessionRequest>(schema, body)
    const merchant = authenticate(ctx, request.merchant_key)
    requireHash(request.hash, checkoutSignatures.session(request.order, merchant.password))
    checkSessionRules(ctx, merchant, request)

    const now = ctx.clock.now()
    const { hash: _signature, ...kept } = request
    // customer.ip belongs to the session-token request only (2.1.2); the caller's address stands in for it.
    const customerIp = hostedFields ? (request.customer?.ip ?? plainIp(http.remoteAddress)) : request.payer_ip
    const session: Session = {
      id: ctx.ids.uuid(),
      token: ctx.ids.token(),
      merchant_key: merchant.key,
      operation: request.operation,
      methods: request.methods ?? [],
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
      redirect_url: `${ctx.baseUrl}/auth/${session.token}`,
    } satisfies CheckoutSessionResponse)
  }
}
