import type { EngineContext } from '../engine/context.js'
import { apiSession } from '../engine/auth.js'
import type { Session } from '../engine/model.js'
import type { SessionRequest } from '../checkout/session-rules.js'

// Authentication 2 (the `Token` header and the session it names) is the engine's: pipeline.ts runs it.
export { apiSession, tokenHeader } from '../engine/auth.js'

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
