import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { APM_OUTCOMES, type ApmOutcome, type ApmPayment, isApmPayment } from '../../core/apm/index.js'
import { applyApmOutcome, loadApmPayment } from '../../core/apm/outcomes.js'
import { payerStep } from '../../core/apm/payer-step.js'
import { fail, GatewayError } from '../../core/engine/errors.js'
import { type GatewayResponse, jsonResponse } from '../../core/engine/http.js'
import type { Session } from '../../core/engine/model.js'
import type { Refusal } from '../../core/engine/refusal.js'
import type { OperationHandler } from '../../core/engine/modules.js'
import { formatAmount } from '../amount.js'
import { afterPayment } from '../handoff.js'
import { notFound } from '../handlers/checkout.js'
import { merchantName, type PageContext, pageContext, pagePath } from '../page-context.js'
import { pagesDir } from '../pages-dir.js'
import { pageResponse, seeOther } from '../render.js'
import { StatusPage } from '../StatusPage.js'
import { ApmPage } from './ApmPage.js'
import { askedFields, type Entered, groupView, otpMatches } from './group-view.js'
import { ticketPdf } from './ticket-pdf.js'

interface Loaded {
  payment?: ApmPayment
  session?: Session
  page: PageContext
}

function load({ ctx, request, params, body }: Parameters<OperationHandler>[0]): Loaded {
  const found = params.paymentId ? ctx.store.get('payments', params.paymentId) : undefined
  const payment = isApmPayment(found) ? found : undefined
  const session = payment?.session_id ? ctx.store.get('sessions', payment.session_id) : undefined
  return { payment, session, page: pageContext(ctx, request, session, body) }
}

/**
 * The payment no longer waits on its simulator page: a Checkout payer goes back to the merchant
 * (success URL, error URL) through the framework; an S2S payer to the request's return URL;
 * otherwise the outcome is shown here.
 */
function leave(page: PageContext, payment: ApmPayment, session?: Session): GatewayResponse {
  if (session) return afterPayment(page, session, payment)
  const back = payment.apm.return_url ?? payment.return_url
  if (back) return seeOther(back)
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

const selfPath = (payment: ApmPayment) => `/apm/${encodeURIComponent(payment.id)}`

function render(
  input: Parameters<OperationHandler>[0],
  { payment, page }: Loaded & { payment: ApmPayment },
  status = 200,
  entered: Entered = {},
  error?: string,
): GatewayResponse {
  const step = payerStep(page.ctx, payment)
  const group = groupView(page, payment, step, input.request.headers['user-agent'], entered)
  return pageResponse(
    status,
    <ApmPage
      t={page.t}
      lang={page.lang}
      base={page.base}
      {...(page.chosen ? { chosen: page.chosen } : {})}
      step={step}
      merchant={merchantName(page) || page.ctx.merchant(payment.merchant_key)?.name || payment.merchant_key}
      amount={formatAmount(payment.order.amount, payment.order.currency, page.lang)}
      action={`${page.base}${selfPath(payment)}/outcome`}
      stateUrl={`${page.base}${selfPath(payment)}/state`}
      {...(group.approveLabel ? { approveLabel: group.approveLabel } : {})}
      {...(error ? { error } : {})}
    >
      {group.node}
    </ApmPage>,
    status >= 400 ? apmRefusal(entered) : undefined,
  )
}

/** GET /apm/:paymentId: the method's simulator page while the payment waits on it. */
export const showApm: OperationHandler = (input) => {
  const loaded = load(input)
  const { payment, session, page } = loaded
  if (!payment) return notFound(page)
  if (payment.status !== 'redirect') return leave(page, payment, session)
  return render(input, { ...loaded, payment })
}

const MAX_FIELD = 200

/**
 * docs/rules.md#rule-book: the simulator page's refusal: the fields the payer left out or got
 * wrong, or an outcome the step does not offer (`outcome`).
 */
function apmRefusal(entered: Entered): Refusal {
  const fields = Object.keys(entered.errors ?? {})
  return fields.length ? { rule: 'required-fields', fields } : { rule: 'field-formats', fields: ['outcome'] }
}

/**
 * The page's own fields before an approval: the required ones filled (fairpay's number by billing
 * country), beeline's code the one sent. Answers the errors by field, or writes the values into
 * the payment as if the merchant had sent them (parameters, or the payer's billing details).
 */
function acceptFields(
  loaded: Loaded & { payment: ApmPayment },
  body: Record<string, unknown>,
): Entered | undefined {
  const { payment, page } = loaded
  const posted = body.field && typeof body.field === 'object' ? (body.field as Record<string, unknown>) : {}
  const values: Record<string, string> = {}
  const errors: Record<string, string> = {}
  const step = payerStep(page.ctx, payment)
  for (const field of askedFields(page, payment, step)) {
    const raw = posted[field.name]
    const value = typeof raw === 'string' ? raw.trim() : ''
    if (value.length > MAX_FIELD) errors[field.name] = `${field.label}: ${page.t('errorTooLong')}`
    else if (!value && field.required) errors[field.name] = `${field.label}: ${page.t('errorRequired')}`
    if (value) values[field.name] = value
  }
  if (payment.method === 'beeline' && !otpMatches(payment, body.otp_code)) {
    errors.otp_code = `${page.t('field_otp')}: ${page.t('errorOtp')}`
  }
  if (Object.keys(errors).length) return { values, errors }
  if (!Object.keys(values).length) return undefined
  const parameters: Record<string, unknown> = { ...(payment.apm.parameters ?? {}) }
  const payer = { ...(payment.payer ?? {}) }
  for (const [name, value] of Object.entries(values)) {
    if (name.startsWith('billing_address.')) payer[`payer_${name.slice(16)}`] = value
    else parameters[name] = value
  }
  page.ctx.store.put('payments', { ...payment, payer, apm: { ...payment.apm, parameters } })
  return undefined
}

/** POST /apm/:paymentId/outcome `outcome=approve|decline|pending|expire`: the payer's choice, then back to the merchant. */
export const chooseOutcome: OperationHandler = (input) => {
  const loaded = load(input)
  const { payment, session, page } = loaded
  if (!payment) return notFound(page)
  if (payment.status !== 'redirect') return leave(page, payment, session)
  const outcome = input.body.outcome
  const step = payerStep(page.ctx, payment)
  if (typeof outcome !== 'string' || !(APM_OUTCOMES as readonly string[]).includes(outcome)) {
    return render(input, { ...loaded, payment }, 422, {}, page.t('apmErrorOutcome'))
  }
  if (!step.outcomes.includes(outcome as ApmOutcome)) {
    return render(input, { ...loaded, payment }, 422, {}, page.t('apmErrorOutcome'))
  }
  if (outcome === 'approve') {
    const rejected = acceptFields({ ...loaded, payment }, input.body)
    if (rejected) return render(input, { ...loaded, payment }, 422, rejected, page.t('apmErrorFields'))
  }
  let done: ApmPayment
  try {
    done = applyApmOutcome(page.ctx, payment.id, outcome as ApmOutcome)
  } catch (error) {
    // Answered meanwhile (the control API, a second tab): where things stand now.
    if (!(error instanceof GatewayError)) throw error
    return seeOther(pagePath(page, selfPath(payment)))
  }
  return leave(page, done, session)
}

/** GET /apm/:paymentId/state: what the waiting pages poll (JSON). */
export const apmState: OperationHandler = ({ ctx, params }) => {
  const payment = loadApmPayment(ctx, params.paymentId ?? '')
  const step = payerStep(ctx, payment)
  return jsonResponse(
    200,
    {
      payment_id: payment.id,
      status: payment.status,
      waiting: payment.status === 'redirect',
      outcomes: step.outcomes,
    },
    { 'cache-control': 'no-store' },
  )
}

/** GET /apm/:paymentId/ticket.pdf: axxi-cash's ticket (2.2.2 "the payer then gets a PDF ticket"). */
export const axxiTicket: OperationHandler = ({ ctx, params }) => {
  const payment = loadApmPayment(ctx, params.paymentId ?? '')
  if (payment.method !== 'axxi-cash') throw fail('SANDBOX_PAYMENT_NOT_FOUND')
  const document = payment.apm.parameters?.id_document
  const merchant = ctx.merchant(payment.merchant_key)
  const body = ticketPdf('Payment ticket (axxi-cash, sandbox)', [
    `Merchant: ${merchant?.name ?? payment.merchant_key}`,
    `Order: ${payment.order_id}`,
    `Amount: ${payment.order.amount} ${payment.order.currency}`,
    `Reference: ${payment.id.replace(/-/g, '').slice(0, 16).toUpperCase()}`,
    ...(typeof document === 'string' ? [`ID document: ${document}`] : []),
    'Pay this amount in cash at any partner point, quoting the reference.',
  ])
  return {
    status: 200,
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': 'attachment; filename="payment-ticket.pdf"',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
    body,
  }
}

const script = readFileSync(join(pagesDir(), 'apm', 'assets', 'apm.js'), 'utf8')

export const apmScript: OperationHandler = () => ({
  status: 200,
  headers: {
    'content-type': 'text/javascript; charset=utf-8',
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  },
  body: script,
})
