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

/** decisions.md 5: a session lives `session_expiry` minutes on the sandbox clock. */
export const sessionExpired = (ctx: EngineContext, session: Session): boolean =>
  session.status === 'expired' || ctx.clock.now() >= session.expires_at

/**
 * The open session a token names. Unknown and malformed tokens answer alike (TOKEN_INVALID), so
 * tokens cannot be probed; the token alone authenticates, as the interface has no key here.
 */
export function liveSession(ctx: EngineContext, token: string): Session {
  const session = ctx.store.findBy('sessions', 'token', token)[0]
  if (!session) throw fail('TOKEN_INVALID')
  if (sessionExpired(ctx, session)) throw fail('SESSION_EXPIRED')
  return session
}

export const sessionRequest = (session: Session): SessionRequest => session.request as SessionRequest
