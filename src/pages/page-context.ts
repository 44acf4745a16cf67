import { pageSession } from '../core/sessions/session-access.js'
import { paymentOf, sessionStatus } from '../core/sessions/session-lifecycle.js'
import type { EngineContext, SandboxMerchant } from '../core/engine/context.js'
import type { GatewayRequest } from '../core/engine/http.js'
import type { Session } from '../core/engine/model.js'
import { type Lang, listedLanguage, pageLanguage, type Translate, translator } from './i18n.js'

/** Everything a page handler needs to know about who is looking and in which language. */
export interface PageContext {
  ctx: EngineContext
  /** The path prefix of the sandbox's base URL (`''` at the root): links stay on the payer's own host. */
  base: string
  lang: Lang
  /** The language the payer picked on the page, carried along so it survives redirects. */
  chosen?: Lang
  t: Translate
  merchant?: SandboxMerchant
}

export function basePath(ctx: EngineContext): string {
  try {
    return new URL(ctx.baseUrl).pathname.replace(/\/+$/, '')
  } catch {
    return ''
  }
}

const billingLanguage = (session: Session | undefined): unknown =>
  (session?.request.billing_address as { language?: unknown } | undefined)?.language

export function pageContext(
  ctx: EngineContext,
  request: GatewayRequest,
  session?: Session,
  body: Record<string, unknown> = {},
): PageContext {
  const merchant = session ? ctx.merchant(session.merchant_key) : undefined
  const chosen = listedLanguage(body.lang ?? request.query.lang)
  const lang = pageLanguage({
    chosen,
    requested: billingLanguage(session),
    mappingDefault: merchant?.protocol_mapping?.default_language,
    acceptLanguage: request.headers['accept-language'],
  })
  return {
    ctx,
    base: basePath(ctx),
    lang,
    t: translator(lang),
    ...(merchant ? { merchant } : {}),
    ...(chosen ? { chosen } : {}),
  }
}

/** A page path with the payer's chosen language kept on it. */
export function pagePath(
  page: PageContext,
  path: string,
  query: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries({ ...query, lang: page.chosen })) if (v) params.set(k, v)
  const search = params.toString()
  return `${page.base}${path}${search ? `?${search}` : ''}`
}

/** The session a page token names (`/auth/<page token>`), or undefined: pages answer an unknown token with their own page. */
export const sessionByToken = pageSession

/**
 * The Hosted Payment Fields page is opened with the session token the merchant got from
 * `/api/v1/session/token` (docs/rules.md#hosted-payment-fields: the fields' frames carry it), never with a page token.
 */
export const hpfSessionByToken = (ctx: EngineContext, token: string): Session | undefined => {
  const session = token.length <= 200 ? ctx.store.findBy('sessions', 'token', token)[0] : undefined
  return session?.hosted_fields ? session : undefined
}

export { paymentOf }

/**
 * Where a session stands, from the payer's point of view: the session table's state
 * (session-lifecycle.ts), with `paying` told apart as a step to take or a payment being made,
 * and `open` after a decline shown as declined.
 */
export type SessionState = 'open' | 'declined' | 'step' | 'paid' | 'cancelled' | 'expired'

export function sessionState(ctx: EngineContext, session: Session): SessionState {
  const payment = paymentOf(ctx, session)
  const status = sessionStatus(ctx, session, payment)
  if (status === 'paying') return payment && payment.status !== 'prepare' ? 'step' : 'paid'
  if (status === 'open') return payment?.status === 'decline' ? 'declined' : 'open'
  return status
}

/** The merchant's display name, as the hosted page shows it. */
export const merchantName = (page: PageContext): string => page.merchant?.name ?? page.merchant?.key ?? ''
