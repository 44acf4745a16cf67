import type { EngineContext } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import type { GatewayRequest } from '../engine/http.js'
import type { Session } from '../engine/model.js'
import type { SessionRequest } from './session-rules.js'

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
 * table's to say (session-lifecycle.ts).
 */
export function apiSession(ctx: EngineContext, token: string): Session {
  const session = token.length <= 200 ? ctx.store.findBy('sessions', 'token', token)[0] : undefined
  if (!session?.hosted_fields) throw fail('TOKEN_INVALID')
  return session
}

/** The session a payer's page token names, or undefined: pages answer an unknown token with their own page. */
export const pageSession = (ctx: EngineContext, pageToken: string): Session | undefined =>
  pageToken.length <= 200 ? ctx.store.findBy('sessions', 'page_token', pageToken)[0] : undefined

export const sessionRequest = (session: Session): SessionRequest => session.request as SessionRequest

/**
 * The session a payer acts on: the page token of a hosted page, or for Hosted Payment Fields the
 * session token their frames carry. Used by the in-process payer (library, conformance kit); an
 * unknown token answers TOKEN_INVALID.
 */
export function payerSession(ctx: EngineContext, token: string): Session {
  const session = pageSession(ctx, token)
  if (session) return session
  return apiSession(ctx, token)
}
