import { script } from './static.js'
import { sessionRoute } from '../../core/checkout/session.js'
import { sessionRequest } from '../../core/sessions/session-access.js'
import { GatewayError } from '../../core/engine/errors.js'
import { type GatewayResponse, jsonResponse } from '../../core/engine/http.js'
import type { Session } from '../../core/engine/model.js'
import type { OperationHandler } from '../../core/engine/modules.js'
import { DEMO_MERCHANT, DEMO_ORDER_PREFIX } from '../../core/engine/retention.js'
import { isMotoType } from '../../core/payments/card.js'
import { collectHostedFields } from '../../core/payments/hosted-fields.js'
import { payWithCard } from '../../core/payments/payer.js'
import { checkoutSignatures } from '../../core/signatures/index.js'
import { formatAmount } from '../amount.js'
import { readCardForm } from '../card-form.js'
import type { PageError } from '../ErrorSummary.js'
import { engineErrors, formRefusal } from '../form-input.js'
import { handoff, stepPath } from '../handoff.js'
import { fieldCss, HOSTED_FIELD_KINDS, HostedFieldFrame } from '../HostedFieldFrame.js'
import { HpfDemoPage } from '../HpfDemoPage.js'
import { HpfPage } from '../HpfPage.js'
import { hpfSessionByToken, type PageContext, pageContext, paymentOf, sessionState } from '../page-context.js'
import { pageResponse, seeOther } from '../render.js'
import { StatusPage } from '../StatusPage.js'
import { missingSession, notFound, statusPage } from './checkout.js'

/** The fields for a session, or the page its state calls for. */
function hpf(
  page: PageContext,
  session: Session,
  form: { errors: PageError[]; values: Record<string, string>; status: number } = {
    errors: [],
    values: {},
    status: 200,
  },
): GatewayResponse {
  const payment = paymentOf(page.ctx, session)
  switch (sessionState(page.ctx, session)) {
    case 'step':
      return seeOther(payment ? (stepPath(page, payment) ?? page.base) : page.base)
    case 'paid':
      return resultPage(page, session)
    case 'cancelled':
      return handoff(page, session, 'cancel', payment)
    case 'expired':
      return handoff(page, session, 'expiry', payment)
    default:
      break
  }
  if (session.operation === 'credit') return statusPage(page, 'payout', 200)
  const request = sessionRequest(session)
  return pageResponse(
    form.status,
    <HpfPage
      t={page.t}
      lang={page.lang}
      base={page.base}
      {...(page.chosen ? { chosen: page.chosen } : {})}
      token={session.token}
      operation={session.operation}
      amountText={formatAmount(request.order.amount, request.order.currency, page.lang)}
      cvvOptional={isMotoType(request.moto_type)}
      errors={form.errors}
      values={form.values}
      {...(payment?.status === 'decline' ? { declineReason: payment.decline_reason ?? '' } : {})}
    />,
    form.status >= 400 ? formRefusal(form.errors) : undefined,
  )
}

/** The paid session's outcome, also told to the merchant's page around the iframe (postMessage). */
function resultPage(page: PageContext, session: Session): GatewayResponse {
  const payment = paymentOf(page.ctx, session)
  return pageResponse(
    200,
    <StatusPage
      t={page.t}
      lang={page.lang}
      base={page.base}
      kind="success"
      data={{ hpfResult: { type: 'result', payment_id: payment?.id, status: payment?.status } }}
    />,
  )
}

/** GET /hpf/:token */
export const showHpf: OperationHandler = ({ ctx, request, params }) => {
  const session = hpfSessionByToken(ctx, params.token ?? '')
  if (!session) return missingSession(pageContext(ctx, request), params.token ?? '')
  return hpf(pageContext(ctx, request, session), session)
}

/** POST /hpf/:token/pay: the fields posted without script (the script posts JSON to the processing endpoint). */
export const payHpf: OperationHandler = ({ ctx, request, params, body }) => {
  const session = hpfSessionByToken(ctx, params.token ?? '')
  if (!session) return missingSession(pageContext(ctx, request), params.token ?? '')
  const page = pageContext(ctx, request, session, body)
  const state = sessionState(ctx, session)
  if ((state !== 'open' && state !== 'declined') || session.operation === 'credit') return hpf(page, session)
  const form = readCardForm(
    page.t,
    { cvvOptional: isMotoType(sessionRequest(session).moto_type) },
    body,
    request,
    {
      billing: false,
    },
  )
  if (form.errors.length) return hpf(page, session, { errors: form.errors, values: form.values, status: 422 })
  try {
    const { payment } = payWithCard(ctx, session, form.card, { operation: session.operation })
    const step = stepPath(page, payment)
    if (step) return seeOther(step)
    return hpf(page, session)
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error
    return hpf(page, session, { errors: engineErrors(page.t, error), values: form.values, status: 422 })
  }
}

/** GET /hpf/demo: with `?token=` the fields live; with `?payment_id=` the payer back from 3DS at return_url. */
export const showHpfDemo: OperationHandler = ({ ctx, request }) => {
  const page = pageContext(ctx, request)
  const token = request.query.token?.slice(0, 200)
  const paymentId = request.query.payment_id?.slice(0, 100)
  // Reading only: the demo shows what the merchant's return_url receives and the payment's status,
  // the demo merchant's own payments only (docs/rules.md#page-guard): another merchant's payment
  // reads as one that does not exist.
  const found = paymentId ? ctx.store.get('payments', paymentId) : undefined
  const payment = found?.merchant_key === DEMO_MERCHANT ? found : undefined
  const returned =
    paymentId !== undefined
      ? {
          payment_id: paymentId,
          status: payment?.status ?? 'unknown',
          ...(payment?.decline_reason ? { reason: payment.decline_reason } : {}),
        }
      : undefined
  return pageResponse(
    200,
    <HpfDemoPage
      base={page.base}
      {...(token ? { token } : {})}
      {...(returned ? { returned } : {})}
      canCreate={ctx.merchant(DEMO_MERCHANT) !== undefined}
    />,
  )
}

/**
 * The address the browser used (`Host`), so the demo works at localhost and 127.0.0.1 alike: the
 * return_url of its session brings the payer back to the host they started on. A Host that is not
 * a plain host[:port] falls back to the configured base_url.
 */
function requestOrigin(
  ctx: Parameters<OperationHandler>[0]['ctx'],
  host: string | undefined,
  base: string,
): string {
  if (host && /^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?$/.test(host)) {
    const scheme = new URL(ctx.baseUrl).protocol
    return `${scheme}//${host}${base}`
  }
  return ctx.baseUrl
}

/**
 * POST /hpf/demo: the demo merchant's server side: a session token for the built-in demo merchant
 * (docs/rules.md#beyond-the-interface), made through the session-token endpoint's own handler, so the demo shows
 * exactly what a merchant gets. `return_url` (required, docs/rules.md#sessions) brings the payer back
 * after 3DS.
 */
export const createHpfDemo: OperationHandler = ({ ctx, request }) => {
  const page = pageContext(ctx, request)
  const merchant = ctx.merchant(DEMO_MERCHANT)
  if (!merchant) return notFound(page)
  const order = {
    // docs/rules.md#retention: the prefix puts the demo's sessions in their own small bound.
    number: `${DEMO_ORDER_PREFIX}${ctx.ids.token(4)}`,
    amount: '10.00',
    currency: 'EUR',
    description: 'Hosted Payment Fields demo',
  }
  const created = sessionRoute(true).handler({
    ctx,
    request,
    params: {},
    body: {
      merchant_key: merchant.key,
      operation: 'purchase',
      methods: ['card'],
      order,
      return_url: `${requestOrigin(ctx, request.headers.host, page.base)}/hpf/demo`,
      hash: checkoutSignatures.session(order, merchant.password),
    },
  })
  const token = (JSON.parse(created.body) as { token?: string }).token
  if (created.status !== 200 || !token) return notFound(page)
  return seeOther(`${page.base}/hpf/demo?token=${encodeURIComponent(token)}`)
}

/** GET /sdk/hosted-fields.js: the `HostedFields` API for the merchant's page (docs/rules.md#sessions). */
export const hostedFieldsSdk = script('hosted-fields.js', { crossOrigin: true })
/** GET /assets/hosted-field.js: the script inside each field's frame. */
export const hostedFieldScript = script('hosted-field.js', { crossOrigin: true })
/** GET /assets/hpf-demo.js: the demo merchant's own page script, built only on the SDK. */
export const hpfDemoScript = script('hpf-demo.js', { crossOrigin: true })

/** GET /sdk/hosted-fields/:token/:field: one field's frame (card, expiry or cvv). */
export const showHostedField: OperationHandler = ({ ctx, request, params }) => {
  const kind = HOSTED_FIELD_KINDS.find((k) => k === params.field)
  const token = params.token ?? ''
  const page = pageContext(ctx, request)
  if (!kind || !hpfSessionByToken(ctx, token)) return notFound(page)
  return pageResponse(
    200,
    <HostedFieldFrame kind={kind} token={token} base={page.base} css={fieldCss(request.query.style)} />,
  )
}

/**
 * POST /sdk/hosted-fields/:token/collect: the card frame sends the three fields' values into the
 * session (docs/rules.md#sessions). Answers `{"result":"success"}`; field problems in the Checkout envelope.
 */
export const collectHostedFieldsRoute: OperationHandler = ({ ctx, params, body }) => {
  collectHostedFields(ctx, params.token ?? '', body)
  return jsonResponse(200, { result: 'success' })
}
