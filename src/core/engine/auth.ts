import type { OriginalPayment, SigningFormula } from '../signatures/formulas.js'
import { sameSignature } from '../signatures/index.js'
import type { EngineContext, SandboxMerchant } from './context.js'
import { fail } from './errors.js'
import type { GatewayRequest } from './http.js'
import type { Session } from './model.js'

/**
 * The merchant named by `merchant_key` (Checkout) or `client_key` (S2S). An unknown key and a
 * wrong hash answer alike in shape, and neither changes any state.
 */
export function authenticate(ctx: EngineContext, key: unknown): SandboxMerchant {
  const merchant = ctx.merchant(key)
  if (!merchant) throw fail('AUTH_MERCHANT_UNKNOWN')
  return merchant
}

/**
 * Checks a request's `hash` against its declared formula computed with the merchant's password.
 * A wrong hash names the formula and the inputs it was computed over (docs/rules.md#rule-book),
 * never their values or the password.
 */
export function requireHash(
  given: unknown,
  formula: SigningFormula,
  fields: Record<string, unknown>,
  merchant: SandboxMerchant,
  original?: OriginalPayment,
): void {
  if (sameSignature(formula.sign(fields, merchant, original), given)) return
  throw fail('AUTH_HASH_INVALID', {
    rule: formula.rule,
    fields: ['hash'],
    formula: formula.id,
    inputs: formula.inputs(fields, original),
  })
}

/** Authentication 2: the header `Token` carries the session token (also on Hosted Payment Fields payments). */
export function tokenHeader(request: GatewayRequest): string {
  const token = request.headers.token?.trim()
  if (!token) throw fail('TOKEN_MISSING')
  return token
}

/**
 * The session an API token names: only a token issued by `/api/v1/session/token` authorizes an
 * API call (docs/rules.md#sessions). The page token of a hosted page, or any unknown value, answers
 * TOKEN_INVALID alike, so tokens cannot be probed. What the session may still do is the session
 * table's to say (sessions/session-lifecycle.ts).
 */
export function apiSession(ctx: EngineContext, token: string): Session {
  const session = token.length <= 200 ? ctx.store.findBy('sessions', 'token', token)[0] : undefined
  if (!session?.hosted_fields) throw fail('TOKEN_INVALID')
  return session
}
