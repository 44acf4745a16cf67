import type { EngineContext, SandboxMerchant, SandboxMid } from '../engine/context.js'
import type { Payment, Session } from '../engine/model.js'
import { canonicalMethodId } from '../payments/methods.js'
import { sessionRequest } from '../sessions/session-access.js'
import { routeSession } from '../payments/routing.js'
import { checkoutSignatures } from '../signatures/index.js'
import { brandOf } from './attributes.js'
import { str } from './facts.js'

export type RedirectOutcome = 'success' | 'cancel' | 'error' | 'expiry'
export type UrlTarget = '_blank' | '_self' | '_parent' | '_top'

const URL_FIELD: Record<RedirectOutcome, string> = {
  success: 'success_url',
  cancel: 'cancel_url',
  error: 'error_url',
  expiry: 'expiry_url',
}
const TARGETS = new Set<string>(['_blank', '_self', '_parent', '_top'])

export interface Redirect {
  /** The merchant's URL with the redirect parameters appended. */
  url: string
  /** Where the page opens it; undefined when neither the MID nor the session chose (the page's default). */
  target?: UrlTarget
  /** The parameters appended (schemas/callbacks/redirect-query.schema.json). */
  params: Record<string, string>
}

/**
 * "`success_url` and `cancel_url` always receive `payment_id`, `trans_id`, `order_id`, `hash` as
 * query parameters, for 3DS and non-3DS payments alike" (Events); the error and expiry URLs get
 * the same (sandbox). `trans_id` is the payment's latest transaction unless one is named. Return
 * additional parameters (`payment_method`, `brand`) follow the merchant's Protocol Mapping.
 * Undefined when the session gave no URL for this outcome.
 */
export function redirectFor(
  ctx: EngineContext,
  payment: Payment,
  outcome: RedirectOutcome,
  options: { transactionId?: string } = {},
): Redirect | undefined {
  const merchant = ctx.merchant(payment.merchant_key)
  const session = payment.session_id ? ctx.store.get('sessions', payment.session_id) : undefined
  if (!merchant || !session) return undefined
  const base = str(session.request[urlField(session, outcome)])
  if (!base) return undefined
  const params = redirectParams(payment, merchant, options.transactionId ?? latestTransactionId(ctx, payment))
  const mid = merchant.mids.find((m) => m.id === payment.mid_id)
  const target = effectiveUrlTarget(mid, session)
  return { url: appendQuery(base, params), params, ...(target ? { target } : {}) }
}

/**
 * docs/rules.md#hosted-payment-fields: a Hosted Payment Fields session names `return_url` (required there) for the
 * payer's way back after 3DS or a redirect, whatever the outcome; success_url and error_url are
 * optional on it and serve only when return_url is absent.
 */
function urlField(session: Session, outcome: RedirectOutcome): string {
  const back = session.hosted_fields && (outcome === 'success' || outcome === 'error')
  return back && str(session.request.return_url) ? 'return_url' : URL_FIELD[outcome]
}

export function redirectParams(
  payment: Payment,
  merchant: SandboxMerchant,
  transactionId: string,
): Record<string, string> {
  const params: Record<string, string> = {
    payment_id: payment.id,
    trans_id: transactionId,
    order_id: payment.order.number,
    // docs/rules.md#checkout-signatures: "callback and redirect `hash` | payment_id + order.number + order.amount + order.currency + order.description + password"
    hash: checkoutSignatures.notification(payment.id, payment.order, merchant.password),
  }
  const extra = new Set(merchant.protocol_mapping?.return_additional_parameters ?? [])
  if (extra.has('payment_method')) params.payment_method = payment.method
  const brand = brandOf(payment)
  if (extra.has('brand') && brand) params.brand = brand
  return params
}

function latestTransactionId(ctx: EngineContext, payment: Payment): string {
  const transactions = ctx.store.findBy('transactions', 'payment_id', payment.id)
  return transactions[transactions.length - 1]?.id ?? payment.id
}

/**
 * 2.1 `url_target`: "An administrator-set MID attribute Override Link Target (same four values)
 * wins over the merchant value; when it is unset the merchant value is used."
 */
export function effectiveUrlTarget(
  mid: Pick<SandboxMid, 'override_link_target'> | undefined,
  session: Pick<Session, 'request'> | undefined,
): UrlTarget | undefined {
  const override = mid?.override_link_target
  if (override && TARGETS.has(override)) return override
  const requested = str(session?.request.url_target)
  return requested && TARGETS.has(requested) ? (requested as UrlTarget) : undefined
}

/**
 * Appends parameters to a URL that may already have a query string or a fragment, leaving the
 * merchant's own text as it was (no re-encoding of what the merchant wrote).
 */
export function appendQuery(url: string, params: Record<string, string>): string {
  const hashAt = url.indexOf('#')
  const base = hashAt < 0 ? url : url.slice(0, hashAt)
  const fragment = hashAt < 0 ? '' : url.slice(hashAt)
  const query = new URLSearchParams(params).toString()
  if (!query) return url
  const joiner = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&'
  return `${base}${joiner}${query}${fragment}`
}

/**
 * The merchant URL for an outcome reached before any payment exists (a payer who cancels or lets
 * the page expire without paying): there is no payment to name, so the URL gets `order_id` alone
 * (sandbox), and the MID the session would route to (payments/routing through the session's
 * rules) gives the link target. Pages call this; MID routing stays in the engine.
 */
export function redirectBeforePayment(
  ctx: EngineContext,
  session: Session,
  outcome: RedirectOutcome,
): Redirect | undefined {
  const url = session.request[URL_FIELD[outcome]]
  if (typeof url !== 'string' || !url) return undefined
  const params = { order_id: sessionRequest(session).order.number }
  const target = effectiveUrlTarget(sessionMid(ctx, session), session)
  return { url: appendQuery(url, params), params, ...(target ? { target } : {}) }
}

/** The MID a session would route to, or undefined when none would take it (no target then). */
function sessionMid(ctx: EngineContext, session: Session): SandboxMid | undefined {
  const merchant = ctx.merchant(session.merchant_key)
  if (!merchant) return undefined
  try {
    return routeSession(merchant, sessionRequest(session), session.methods.map(canonicalMethodId))
  } catch {
    return undefined
  }
}
