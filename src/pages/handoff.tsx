import {
  type Redirect,
  type RedirectOutcome,
  redirectBeforePayment,
  redirectFor,
} from '../core/callbacks/redirect.js'
import type { GatewayResponse } from '../core/engine/http.js'
import type { Payment, Session } from '../core/engine/model.js'
import { apmPageUrl } from '../core/apm/connector.js'
import { isApmPayment } from '../core/apm/types.js'
import { payerStepUrl } from '../core/payments/payer.js'
import { type PageContext, pagePath } from './page-context.js'
import { pageResponse, seeOther } from './render.js'
import { type StatusKind, StatusPage } from './StatusPage.js'

const KIND: Record<RedirectOutcome, StatusKind> = {
  success: 'success',
  error: 'declined',
  cancel: 'cancelled',
  expiry: 'expired',
}
/**
 * The merchant URL for an outcome, as the engine builds it: with a payment, `redirectFor`
 * (payment_id, trans_id, order_id, hash and the Return additional parameters); before any
 * payment exists, `redirectBeforePayment` (order_id alone, the target of the MID the session
 * would route to). The page routes nothing itself.
 */
export function merchantRedirect(
  page: PageContext,
  session: Session,
  outcome: RedirectOutcome,
  payment?: Payment,
): Redirect | undefined {
  return payment ? redirectFor(page.ctx, payment, outcome) : redirectBeforePayment(page.ctx, session, outcome)
}

/**
 * Sends the payer back to the merchant for an outcome. `_self` (or no target) is a plain 303;
 * any other target needs the browser's help, so a status page carries the link in that target
 * (2.1 url_target; the `_top`-inside-an-iframe button is the client script's). No URL for the
 * outcome: the status page is the end.
 */
export function handoff(
  page: PageContext,
  session: Session,
  outcome: RedirectOutcome,
  payment?: Payment,
): GatewayResponse {
  const next = merchantRedirect(page, session, outcome, payment)
  if (next && (!next.target || next.target === '_self')) return seeOther(next.url)
  return pageResponse(
    200,
    <StatusPage
      t={page.t}
      lang={page.lang}
      base={page.base}
      kind={KIND[outcome]}
      {...(outcome === 'error' && payment?.decline_reason
        ? { detail: page.t('declineReason', { reason: payment.decline_reason }) }
        : {})}
      {...(next ? { next } : {})}
    />,
  )
}

/**
 * Where the payer goes once the engine has answered a payment step: the ACS or redirect page, the
 * merchant's success URL, or (declined) the error URL when the merchant gave one, otherwise the
 * page again with the decline shown so another card can be tried.
 */
export function afterPayment(page: PageContext, session: Session, payment: Payment): GatewayResponse {
  const step = stepPath(page, payment)
  if (step) return seeOther(step)
  if (payment.status === 'decline') {
    // docs/rules.md#hosted-payment-fields: a Hosted Payment Fields payer goes back to return_url whatever the outcome.
    const back = session.hosted_fields && typeof session.request.return_url === 'string'
    if (back || typeof session.request.error_url === 'string') return handoff(page, session, 'error', payment)
    return seeOther(pagePath(page, sessionPagePath(session)))
  }
  return handoff(page, session, 'success', payment)
}

/** The page a session's payer pays on: the hosted page, or the Hosted Payment Fields. */
export const sessionPagePath = (session: Session): string =>
  session.hosted_fields
    ? `/hpf/${encodeURIComponent(session.token)}`
    : `/auth/${encodeURIComponent(session.page_token)}`

/**
 * The page a payment waiting for its payer shows: the ACS (3ds) or the redirect page of a card,
 * the simulator page of an alternative method. Undefined once the payment waits for nobody.
 */
export function stepPath(page: PageContext, payment: Payment): string | undefined {
  const url =
    isApmPayment(payment) && payment.status === 'redirect'
      ? apmPageUrl(page.ctx, payment.id)
      : payerStepUrl(page.ctx, payment)
  return url ? pagePath(page, new URL(url).pathname.slice(page.base.length)) : undefined
}
