import { cancelSession, recordExpiry } from '../../core/sessions/session-lifecycle.js'
import type { GatewayResponse } from '../../core/engine/http.js'
import type { Session } from '../../core/engine/model.js'
import type { OperationHandler } from '../../core/engine/modules.js'
import { CheckoutPage } from '../CheckoutPage.js'
import { checkoutView } from '../checkout-view.js'
import type { PageError } from '../ErrorSummary.js'
import { handoff, stepPath } from '../handoff.js'
import { type PageContext, pageContext, paymentOf, sessionByToken, sessionState } from '../page-context.js'
import { formRefusal } from '../form-input.js'
import { pageResponse, seeOther } from '../render.js'
import { StatusPage } from '../StatusPage.js'

/** GET /auth/:token: whatever the session's state, the payer lands where it says. */
export const showCheckout: OperationHandler = ({ ctx, request, params }) => {
  const session = sessionByToken(ctx, params.token ?? '')
  if (!session) return missingSession(pageContext(ctx, request), params.token ?? '')
  return dispatch(pageContext(ctx, request, session), session, request.query.method)
}

/**
 * The hosted page for a session: the form while it can be paid; once paid, cancelled or expired,
 * the merchant's URL for that outcome ("session expiry sends the payer to expiry_url"); during
 * 3DS or a redirect, the step's page.
 */
export function dispatch(
  page: PageContext,
  session: Session,
  method?: string,
  form: { errors: PageError[]; values: Record<string, string>; status: number } = {
    errors: [],
    values: {},
    status: 200,
  },
): GatewayResponse {
  const payment = paymentOf(page.ctx, session)
  switch (sessionState(page.ctx, session)) {
    case 'step': {
      const step = payment && stepPath(page, payment)
      if (step) return seeOther(step)
      break
    }
    case 'paid':
      return handoff(page, session, 'success', payment)
    case 'cancelled':
      return handoff(page, session, 'cancel', payment)
    case 'expired':
      recordExpiry(page.ctx, session)
      return handoff(page, session, 'expiry', payment)
    default:
      break
  }
  if (session.operation === 'credit') return statusPage(page, 'payout', 200)
  return pageResponse(
    form.status,
    <CheckoutPage
      t={page.t}
      lang={page.lang}
      base={page.base}
      {...(page.chosen ? { chosen: page.chosen } : {})}
      view={checkoutView(page, session, method)}
      errors={form.errors}
      values={form.values}
      testYear={String((new Date(page.ctx.clock.now()).getUTCFullYear() + 4) % 100).padStart(2, '0')}
    />,
    form.status >= 400 ? formRefusal(form.errors) : undefined,
  )
}

/** POST /auth/:token/cancel: the payer gives up; the merchant's cancel_url receives them. */
export const cancelCheckout: OperationHandler = ({ ctx, request, params, body }) => {
  const session = sessionByToken(ctx, params.token ?? '')
  if (!session) return missingSession(pageContext(ctx, request), params.token ?? '')
  const page = pageContext(ctx, request, session, body)
  const state = sessionState(ctx, session)
  if (state !== 'open' && state !== 'declined') return dispatch(page, session)
  const cancelled = cancelSession(ctx, session)
  return handoff(page, cancelled, 'cancel', paymentOf(ctx, cancelled))
}

export const notFound = (page: PageContext): GatewayResponse => statusPage(page, 'notFound', 404)

/**
 * A page token the store does not hold: the expired-session page when a memory store with
 * `--retain` forgot its session (issue 22; docs/sandbox-choices.md), else not found.
 */
export const missingSession = (page: PageContext, token: string): GatewayResponse =>
  page.ctx.store.retention?.forgotSession(token) ? statusPage(page, 'expired', 200) : notFound(page)

export function statusPage(
  page: PageContext,
  kind: 'notFound' | 'payout' | 'expired',
  status: number,
): GatewayResponse {
  return pageResponse(
    status,
    <StatusPage t={page.t} lang={page.lang} base={page.base} kind={kind} />,
    // A page the sandbox does not hold (docs/rules.md#page-token).
    kind === 'notFound' ? { rule: 'page-token' } : undefined,
  )
}
