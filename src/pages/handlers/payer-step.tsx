import { isApmPayment } from '../../core/apm/types.js'
import { GatewayError } from '../../core/engine/errors.js'
import type { GatewayResponse } from '../../core/engine/http.js'
import type { Payment, Session } from '../../core/engine/model.js'
import type { OperationHandler } from '../../core/engine/modules.js'
import { completeRedirect, completeThreeDs } from '../../core/payments/payer.js'
import { formatAmount } from '../amount.js'
import { afterPayment, sessionPagePath, stepPath } from '../handoff.js'
import { merchantName, type PageContext, pageContext, pagePath } from '../page-context.js'
import { PayerStepPage } from '../PayerStepPage.js'
import { pageResponse, seeOther } from '../render.js'
import { StatusPage } from '../StatusPage.js'
import { notFound } from './checkout.js'

type Step = 'acs' | 'redirect'
const WAITING: Record<Step, Payment['status']> = { acs: '3ds', redirect: 'redirect' }
const PATH: Record<Step, string> = { acs: '/acs', redirect: '/redirect-sim' }

interface Loaded {
  payment?: Payment
  session?: Session
  page: PageContext
}

function load(input: Parameters<OperationHandler>[0]): Loaded {
  const { ctx, request, params, body } = input
  const payment = params.paymentId ? ctx.store.get('payments', params.paymentId) : undefined
  const session = payment?.session_id ? ctx.store.get('sessions', payment.session_id) : undefined
  return { payment, session, page: pageContext(ctx, request, session, body) }
}

/** The payment is not (or no longer) waiting for this step: its own page says where things stand. */
function elsewhere({ payment, session, page }: Loaded): GatewayResponse {
  const step = payment && stepPath(page, payment)
  if (step) return seeOther(step)
  if (session) return seeOther(pagePath(page, sessionPagePath(session)))
  return payment ? finished(page, payment) : notFound(page)
}

/** GET /acs/:paymentId and /redirect-sim/:paymentId: the step's page while the payment waits for it. */
export const showStep =
  (step: Step): OperationHandler =>
  (input) => {
    const loaded = load(input)
    const { payment, page } = loaded
    if (!payment || isApmPayment(payment) || payment.status !== WAITING[step]) return elsewhere(loaded)
    return pageResponse(
      200,
      <PayerStepPage
        t={page.t}
        lang={page.lang}
        base={page.base}
        {...(page.chosen ? { chosen: page.chosen } : {})}
        kind={step}
        merchant={merchantName(page) || page.ctx.merchant(payment.merchant_key)?.name || payment.merchant_key}
        amount={formatAmount(payment.order.amount, payment.order.currency, page.lang)}
        {...(payment.card ? { card: payment.card.masked } : {})}
        action={`${page.base}${PATH[step]}/${encodeURIComponent(payment.id)}`}
      />,
    )
  }

/**
 * POST /acs/:paymentId (`result=pass|fail`: completeThreeDs) and POST /redirect-sim/:paymentId
 * (completeRedirect), then on to the merchant's URLs with the redirect parameters. A post without
 * a result (an S2S merchant's auto-submitted PaReq/MD/TermUrl form) shows the challenge.
 */
export const completeStep =
  (step: Step): OperationHandler =>
  (input) => {
    const loaded = load(input)
    const { payment, session, page } = loaded
    if (!payment || isApmPayment(payment) || payment.status !== WAITING[step]) return elsewhere(loaded)
    const result = input.body.result
    if (step === 'acs' && result !== 'pass' && result !== 'fail') {
      return seeOther(pagePath(page, `${PATH[step]}/${encodeURIComponent(payment.id)}`))
    }
    let done: Payment
    try {
      done =
        step === 'acs'
          ? completeThreeDs(page.ctx, payment.id, result === 'pass' ? 'pass' : 'fail')
          : completeRedirect(page.ctx, payment.id)
    } catch (error) {
      // Answered meanwhile (a second tab): the payment's own page tells the outcome.
      if (error instanceof GatewayError) return elsewhere(loaded)
      throw error
    }
    return session ? afterPayment(page, session, done) : finished(page, done)
  }

/**
 * An S2S CARD payment (no session) after its step: the payer goes back to the merchant's
 * `term_url_3ds` (sandbox: a plain GET to it, no parameters; the merchant reads the outcome from
 * the callback or a status request). Without one, the outcome is shown here.
 */
function finished(page: PageContext, payment: Payment): GatewayResponse {
  if (payment.return_url) return seeOther(payment.return_url)
  return pageResponse(
    200,
    <StatusPage
      t={page.t}
      lang={page.lang}
      base={page.base}
      kind={payment.status === 'decline' ? 'declined' : 'success'}
      {...(payment.decline_reason
        ? { detail: page.t('declineReason', { reason: payment.decline_reason }) }
        : {})}
    />,
  )
}
