import type {
  ScenarioCallbacksFailStep,
  ScenarioClockAdvanceStep,
  ScenarioExpectCallbackAcknowledgedStep,
  ScenarioExpectMerchantOrderStep,
  ScenarioExpectMerchantRequestStep,
  ScenarioGatewayFaultStep,
  ScenarioMerchantActionStep,
  ScenarioMerchantStartStep,
  ScenarioPayer3DsStep,
  ScenarioPayerApmStep,
  ScenarioPayerCardStep,
  ScenarioPayerRedirectStep,
} from '../../generated/types.js'
import { formatDateTime } from '../engine/format.js'
import type { Payment, Session } from '../engine/model.js'
import { ruleHeader } from '../engine/refusal.js'
import type { RequestRecord } from '../request-log/types.js'
import { outcomeOfExpiry } from './cards.js'
import { accepted, type Role } from './classify.js'

/** The steps an exported scenario is made of (the scenario schema's own kinds). */
export type Step =
  | ScenarioMerchantStartStep
  | ScenarioMerchantActionStep
  | ScenarioPayerCardStep
  | ScenarioPayer3DsStep
  | ScenarioPayerRedirectStep
  | ScenarioPayerApmStep
  | ScenarioClockAdvanceStep
  | ScenarioGatewayFaultStep
  | ScenarioCallbacksFailStep
  | ScenarioExpectMerchantRequestStep
  | ScenarioExpectCallbackAcknowledgedStep
  | ScenarioExpectMerchantOrderStep

type Json = Record<string, unknown>
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {})
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)
const yes = (v: unknown) => v === true || v === 'Y' || v === 'y' || v === 'true' || v === 1
const bodyOf = (r: RequestRecord) => obj(r.request.body)

/** `HTTP 400 error_code 0 "Request data is invalid."; refused by docs/rules.md#…; warned: …`. */
export function recordedAnswer(r: RequestRecord): string {
  const parts = [r.response.status === 0 ? 'no answer (connection dropped)' : `HTTP ${r.response.status}`]
  try {
    const json = obj(JSON.parse(r.response.body ?? ''))
    if (json.error_message !== undefined) parts.push(`error_code ${json.error_code} "${json.error_message}"`)
    else if (str(json.result)) parts.push(`result ${json.result}${str(json.status) ? ` ${json.status}` : ''}`)
  } catch {
    // Not JSON: the status says enough.
  }
  const out = [parts.join(' ')]
  if (r.refusal) out.push(`refused by ${ruleHeader(r.refusal)}`)
  if (r.warnings.length) out.push(`Sandbox-Warning: ${r.warnings.join(' | ')}`)
  if (r.fault) out.push(`answered by the sandbox fault "${r.fault}"`)
  return out.join('; ')
}

const when = (r: RequestRecord) => formatDateTime(r.at)

/** The order as merchant.start hands it to the merchant (amount, currency, description as recorded). */
function orderOf(body: Json, role: Extract<Role, { kind: 'start' }>) {
  if (role.api === 'checkout' && role.operation !== 'credit') {
    const order = obj(body.order)
    return {
      amount: str(order.amount) ?? '',
      currency: str(order.currency) ?? '',
      description: order.description,
    }
  }
  return {
    amount: str(body.order_amount) ?? str(body.amount) ?? '',
    currency: str(body.order_currency) ?? str(body.currency) ?? '',
    description: body.order_description,
  }
}

/** merchant.start for the request that began the order, with the payment it led to (its card's outcome). */
export function startStep(
  r: RequestRecord,
  role: Extract<Role, { kind: 'start' }>,
  payment: Payment | undefined,
): ScenarioMerchantStartStep {
  const body = bodyOf(r)
  const order = orderOf(body, role)
  const step: ScenarioMerchantStartStep = {
    step: 'merchant.start',
    api: role.api,
    ...(role.hostedFields ? { hosted_fields: true } : {}),
    order: {
      amount: order.amount,
      currency: order.currency,
      ...(typeof order.description === 'string' ? { description: order.description } : {}),
    },
  }
  const operation = role.operation ?? str(body.operation)
  if (operation && operation !== (role.api === 'checkout' ? 'purchase' : 'SALE')) step.operation = operation
  const methods = Array.isArray(body.methods) ? body.methods.filter((m) => typeof m === 'string') : []
  if (role.api === 'checkout' && methods.length && !(methods.length === 1 && methods[0] === 'card'))
    step.methods = methods as [string, ...string[]]
  const fields: Json = {}
  for (const flag of ['auth', 'recurring_init', 'req_token'])
    if (yes(body[flag])) fields[flag] = role.api === 'checkout' ? true : 'Y'
  if (Object.keys(fields).length) step.fields = fields
  const notes: string[] = []
  const expiry = cardExpiry(body, payment)
  if (expiry && (role.api === 's2s-card' || role.hostedFields || role.operation === 'credit')) {
    const { outcome, note } = outcomeOfExpiry(expiry.month, expiry.year)
    step.outcome = outcome
    if (note) notes.push(note)
  }
  if (role.api === 's2s-apm') {
    if (str(body.brand)) step.brand = str(body.brand)
    if (str(body.identifier)) step.identifier = str(body.identifier)
  }
  step.description = [
    `The merchant began the order (${when(r)}): ${r.method} ${r.path}${r.action ? ` ${r.action}` : ''}`,
    ...notes,
  ].join('; ')
  return step
}

function cardExpiry(body: Json, payment: Payment | undefined): { month: string; year: string } | undefined {
  if (payment?.card) return { month: payment.card.exp_month, year: payment.card.exp_year }
  const month = str(body.card_exp_month)
  const year = str(body.card_exp_year)
  return month && year ? { month, year } : undefined
}

/** merchant.start rebuilt from the store when the log no longer holds the request (a session, an S2S payment). */
export function startFromStore(
  session: Session | undefined,
  payment: Payment | undefined,
): ScenarioMerchantStartStep | undefined {
  const request = session ? obj(session.request) : undefined
  if (request) {
    const role: Extract<Role, { kind: 'start' }> = {
      kind: 'start',
      api: 'checkout',
      ...(session?.hosted_fields ? { hostedFields: true } : {}),
    }
    const record = {
      method: 'POST',
      path: session?.hosted_fields ? '/api/v1/session/token' : '/api/v1/session',
      at: session?.created_at ?? 0,
      request: { body: request },
    } as RequestRecord
    const step = startStep(record, role, payment)
    step.description = `The merchant began the order with a session (${formatDateTime(session?.created_at ?? 0)}; the request log no longer holds the request, so it is rebuilt from the session)`
    return step
  }
  if (!payment || payment.api === 'checkout') return undefined
  const step: ScenarioMerchantStartStep = {
    step: 'merchant.start',
    api: payment.api,
    order: {
      amount: payment.order.amount,
      currency: payment.order.currency,
      description: payment.order.description,
    },
    ...(payment.action && payment.action !== 'SALE' ? { operation: payment.action } : {}),
    description: `The merchant began the order (${formatDateTime(payment.created_at)}; rebuilt from the payment: the request log no longer holds the request)`,
  }
  if (payment.card) step.outcome = outcomeOfExpiry(payment.card.exp_month, payment.card.exp_year).outcome
  if (payment.apm) {
    step.brand = payment.apm.brand
    if (payment.apm.identifier) step.identifier = payment.apm.identifier
  }
  return step
}

/** The amount and currency a request carried, as JSONPaths the kit checks (the role of an amount is its value). */
function amountFields(r: RequestRecord, role: Role): Json {
  const body = bodyOf(r)
  if (role.kind === 'start') {
    if (r.api === 'checkout' && r.route !== '/api/v1/payment/card/credit') {
      const order = obj(body.order)
      return {
        ...(str(order.amount) ? { '$.order.amount': order.amount } : {}),
        ...(str(order.currency) ? { '$.order.currency': order.currency } : {}),
      }
    }
    return {
      ...(str(body.order_amount) ? { '$.order_amount': body.order_amount } : {}),
      ...(str(body.order_currency) ? { '$.order_currency': body.order_currency } : {}),
    }
  }
  return str(body.amount) ? { '$.amount': body.amount } : {}
}

/** expect.merchant_request for a recorded request: the same endpoint, signed right, accepted, the same amounts. */
export function requestExpectation(r: RequestRecord, role: Role): ScenarioExpectMerchantRequestStep {
  const api = r.api === 's2s-apm' || r.api === 's2s-card' ? (r.api as 's2s-card' | 's2s-apm') : 'checkout'
  const fields = amountFields(r, role)
  const was = recordedAnswer(r)
  const ok = accepted(r) && !r.fault
  return {
    step: 'expect.merchant_request',
    api,
    endpoint:
      api === 'checkout' || !r.action
        ? { method: r.method as 'POST' | 'PUT', path: r.route ?? r.path }
        : { action: r.action },
    signature: 'valid',
    ...(Object.keys(fields).length ? { fields } : {}),
    within_seconds: 5,
    ...(ok ? { accepted: true } : {}),
    description: `Recorded ${when(r)}: ${r.method} ${r.path}${r.action ? ` ${r.action}` : ''} → ${was}${
      ok || r.fault
        ? ''
        : '. The gateway refused it then; this step expects the request the interface accepts (signed with the formula its endpoint declares, schema-valid), so it fails until the merchant sends that'
    }.`,
  }
}

/** merchant.action for a back-office request (capture, refund, void, charge again). */
export function actionStep(
  r: RequestRecord,
  action: ScenarioMerchantActionStep['action'],
): ScenarioMerchantActionStep {
  const amount = str(bodyOf(r).amount)
  return {
    step: 'merchant.action',
    action,
    ...(amount && action !== 'recurring' ? { amount } : {}),
    description: `The merchant's back office: ${action}${amount ? ` ${amount}` : ''} (${when(r)}).`,
  }
}

/** The step a payer's recorded action becomes, with the payment it acted on. */
export function payerStep(
  r: RequestRecord,
  payer: 'card' | '3ds' | 'redirect' | 'apm',
  payment: Payment | undefined,
): Step | undefined {
  const body = bodyOf(r)
  const at = `recorded ${when(r)}: ${r.method} ${r.path}`
  if (payer === 'card') {
    if (!payment?.card) return undefined
    const { outcome, note } = outcomeOfExpiry(payment.card.exp_month, payment.card.exp_year)
    return {
      step: 'payer.card',
      outcome,
      description: `The payer paid by card ${payment.card.masked} (expiry ${payment.card.exp_month}/${payment.card.exp_year}); ${at}${note ? `; ${note}` : ''}.`,
    }
  }
  if (payer === '3ds')
    return {
      step: 'payer.3ds',
      result: body.result === 'fail' ? 'fail' : 'pass',
      description: `The payer's 3DS challenge; ${at}.`,
    }
  if (payer === 'redirect')
    return { step: 'payer.redirect', description: `The payer came back from the redirect page; ${at}.` }
  const outcome = str(body.outcome)
  if (!outcome || !['approve', 'decline', 'pending', 'expire'].includes(outcome)) return undefined
  return {
    step: 'payer.apm',
    method: payment?.method ?? 'apm',
    action: outcome as 'approve' | 'decline' | 'pending' | 'expire',
    description: `The payer on the ${payment?.method ?? 'method'} page: ${outcome}; ${at}.`,
  }
}

/** How long an exported late answer is held (docs/conformance.md, Gateway faults): the bundled scenarios' hold. */
const LATE_HOLD_SECONDS = 15

/** gateway.fault for a request a fault answered: the same mode, on the same route or action, once. */
export function faultStep(r: RequestRecord): Step | undefined {
  const mode = r.fault
  if (mode !== 'timeout' && mode !== 'error' && mode !== 'drop' && mode !== 'lost' && mode !== 'late')
    return undefined
  const seconds = Math.round((r.answered_at - r.at) / 1000)
  return {
    step: 'gateway.fault',
    mode,
    match: r.action ? { action: r.action } : { method: r.method, path: r.route ?? r.path },
    count: 1,
    ...(mode === 'timeout' && seconds >= 1 ? { seconds: Math.min(600, seconds) } : {}),
    // A late answer was held in real time, which the log does not keep: as long as the bundle's.
    ...(mode === 'late' ? { hold_seconds: LATE_HOLD_SECONDS } : {}),
    ...(r.response.status >= 500 ? { status: r.response.status } : {}),
    description: `The sandbox fault "${mode}" answered the merchant's ${r.method} ${r.path}${r.action ? ` ${r.action}` : ''} (${when(r)}).`,
  }
}
