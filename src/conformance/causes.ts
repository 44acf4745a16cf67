import { callbackFinding } from './callback-causes.js'
import type { ScenarioContext } from './context.js'
import { intentFindings } from './intent.js'
import { listPayments, orderPayments, sessionByToken } from './ledger.js'
import { actionOf, maskCards, requestFinding, requestName, warningFinding } from './refusal-causes.js'
import type { ObservedRequest } from './sandbox-host.js'
import type { Finding } from './types.js'
import { doneUnanswered, faultAnswer, faultOutcome, unanswered, wasDone } from './fault-outcomes.js'
import { moneyActionFindings } from './resent-actions.js'
import { unappliedCallbackFindings } from './unapplied-callbacks.js'

export { gatewayWords, maskCards, requestName } from './refusal-causes.js'
export { probeRefusedCallback } from './callback-causes.js'

/**
 * Cause first (docs/conformance.md, Read a failure): what the merchant did that the gateway
 * refused or warned about, and the callbacks it did not acknowledge, each a finding of its own
 * with the request as sent, the gateway's answer, the rule it broke and the fix. The headline of
 * a failure is derived from these observations (the first refused request, else the first
 * unacknowledged callback), never from a text fixed per scenario; a refusal is judged from the
 * rule the gateway gave with it (refusal-causes.ts), never from its message.
 */

/** A request the gateway refused: an HTTP error, or an S2S `result: ERROR`. Injected faults and expected refusals are not the merchant's. */
export function isRefused(r: ObservedRequest): boolean {
  if (r.fault || r.expectedRefusal || notFoundLookup(r)) return false
  const json = r.answer.json as Record<string, unknown> | undefined
  return r.answer.status >= 400 || (!!json && typeof json === 'object' && json.result === 'ERROR')
}

const LOOKUPS = new Set(['GET_TRANS_STATUS', 'GET_TRANS_STATUS_BY_ORDER', 'GET_TRANS_DETAILS'])

/** A status lookup answered "not found" (docs/rules.md#not-found) is information (nothing was done), not a refusal. */
function notFoundLookup(r: ObservedRequest): boolean {
  const lookup = r.path === '/api/v1/payment/status' || LOOKUPS.has(String(r.body?.action ?? ''))
  const json = (r.answer.json ?? {}) as Record<string, unknown>
  return lookup && (r.answer.refusal?.rule === 'not-found' || json.error_code === 101000)
}

const CHARGES = new Set(['SALE', 'DEBIT'])

/** A payment the gateway did: its answer says so, or it was done and its answer lost (sandbox fault `lost`). */
function charged(r: ObservedRequest): boolean {
  if (unanswered(r)) return doneUnanswered(r)
  const json = (r.answer.json ?? {}) as Record<string, unknown>
  return r.answer.status === 200 && /^(settled|pending)$/i.test(String(json.status ?? ''))
}

/**
 * Two charges for one order: payments (S2S CARD SALE or DEBIT by order_id, Hosted Payment Fields
 * by session token) the gateway did twice. The answer of the first was lost or came late; the
 * merchant sent it again.
 */
function doubleChargeFinding(
  r: ObservedRequest,
  requests: ObservedRequest[],
  ctx: ScenarioContext,
): Finding | undefined {
  const key = paymentKey(r, ctx)
  if (!key || !charged(r)) return undefined
  const earlier = requests.find((o) => o.seq < r.seq && paymentKey(o, ctx)?.label === key.label && charged(o))
  if (!earlier) return undefined
  const lookups = orderLookups(requests, key.order, earlier.seq, r.seq)
  const json = (r.answer.json ?? {}) as Record<string, unknown>
  const id = json.trans_id ?? json.payment_id
  const earlierWas = unanswered(earlier)
    ? wasDone(earlier)
    : `was done (HTTP ${earlier.answer.status} ${String((earlier.answer.json as { status?: unknown })?.status ?? '')})`
  // The order's payments in the order the gateway made them (the ledger), not as the kit saw the answers.
  const charges = key.order ? listPayments(orderPayments(ctx, key.order)) : ''
  const cause = `the merchant sent ${requestName(r)} again for ${key.label} ${lookups.length ? `after ${lookups.map(requestName).join(', ')}` : 'without looking the order up first'}, where its earlier ${requestName(earlier)} ${earlierWas} (${UNKNOWN_OUTCOME})`
  return {
    kind: 'double-charge',
    cause,
    headline: `${cause}: the gateway did the second too (HTTP ${r.answer.status} ${String(json.status ?? '')}${id ? `, ${json.trans_id ? 'trans_id' : 'payment_id'} ${String(id)}` : ''}), and the payer is charged twice for ${key.label}${charges ? ` (its payments, as the gateway made them: ${charges})` : ''}`,
    request: `${requestName(r)} ${maskCards(r.text).slice(0, 400)}`,
    answer: `HTTP ${r.answer.status} ${r.answer.text.slice(0, 300)}`,
    rule: UNKNOWN_OUTCOME_RULE,
    fix: `before sending a payment again, ${lookupFix(r)}; refund the second charge`,
    section: 'Events; Gateway faults',
  }
}

/** A payment request the merchant sent, and the order (or Hosted Payment Fields session, by its token) it pays. */
function paymentKey(o: ObservedRequest, ctx: ScenarioContext): { label: string; order?: string } | undefined {
  const action = actionOf(o)
  if (action && CHARGES.has(action) && o.body?.order_id !== undefined)
    return { label: `order ${String(o.body.order_id)}`, order: String(o.body.order_id) }
  const token = o.headers.token
  if (!/^\/api\/v1\/processing\/\w+\/card$/.test(o.path) || !token) return undefined
  const number = (sessionByToken(ctx, token)?.request.order as { number?: unknown } | undefined)?.number
  return number !== undefined
    ? { label: `order ${String(number)}`, order: String(number) }
    : { label: `session ${token}` }
}

/** The merchant's status lookups of an order between two requests (by trans_id or payment_id names a payment it already knows). */
const orderLookups = (
  requests: ObservedRequest[],
  order: string | undefined,
  after: number,
  before: number,
) =>
  requests.filter(
    (o) =>
      o.seq > after &&
      o.seq < before &&
      ((o.path === '/api/v1/payment/status' &&
        o.body?.order_id !== undefined &&
        String(o.body.order_id) === order) ||
        (actionOf(o) === 'GET_TRANS_STATUS_BY_ORDER' && String(o.body?.order_id) === order)),
  )

const UNKNOWN_OUTCOME = 'one order, one charge: docs/conformance.md, Gateway faults'

const UNKNOWN_OUTCOME_RULE =
  'one order, one charge: a payment request whose answer never came may have been done; the status lookup of the order says what became of it (Events; docs/conformance.md, Gateway faults; docs/rules.md#status-lookups)'

const lookupFix = (r: ObservedRequest) =>
  `look the order up (${r.path === '/post' ? 'GET_TRANS_STATUS_BY_ORDER' : 'POST /api/v1/payment/status by order_id'}) and send the payment again only when the gateway has none for it (101000 "Order does not exist."); book what the lookup says`

/**
 * A payment request whose answer never came (an injected time-out, dropped connection, 5xx page or
 * lost answer) that the merchant never looked up by its order: it sent it again blindly (once
 * charged, the double charge says so), or booked the unknown outcome as it pleased.
 */
function unansweredFinding(
  r: ObservedRequest,
  requests: ObservedRequest[],
  ctx: ScenarioContext,
): Finding | undefined {
  const key = unanswered(r) ? paymentKey(r, ctx) : undefined
  if (!key) return undefined
  if (orderLookups(requests, key.order, r.seq, Number.POSITIVE_INFINITY).length) return undefined
  const again = requests.find((o) => o.seq > r.seq && paymentKey(o, ctx)?.label === key.label)
  if (again && charged(r) && charged(again)) return undefined
  const done = faultOutcome(r)
  const cause = again
    ? `the merchant sent ${requestName(again)} again for ${key.label} without looking the order up first, after its ${requestName(r)} got ${faultAnswer(r)} (${UNKNOWN_OUTCOME})`
    : `the merchant never looked ${key.label} up after its ${requestName(r)} got ${faultAnswer(r)}`
  return {
    kind: 'unknown-outcome',
    cause,
    headline: again
      ? `${cause}: ${done}; an answer that never came may mean the payment was done, and a second one charges the payer twice`
      : `${cause}: ${done}; an answer that never came is an unknown outcome, which only the status lookup of the order settles`,
    request: `${requestName(r)} ${maskCards(r.text).slice(0, 400)}`,
    answer: `HTTP ${r.answer.status} ${r.answer.text.slice(0, 300)}`,
    rule: UNKNOWN_OUTCOME_RULE,
    fix: lookupFix(r),
    section: 'Events; Gateway faults',
  }
}

/** Every cause the kit saw so far in the scenario, in the order the merchant made them. */
export function causesOf(ctx: ScenarioContext): Finding[] {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return []
  const requests = ctx.hosted.requests
  const found: Finding[] = []
  for (const r of requests) {
    found.push(...moneyActionFindings(r, requests, ctx))
    if (!r.fault && !r.expectedRefusal) found.push(...intentFindings(r, ctx))
    if (isRefused(r)) found.push(requestFinding(r, ctx, requests))
    else if (r.answer.warnings?.length && !r.fault) found.push(warningFinding(r))
    const twice = doubleChargeFinding(r, requests, ctx) ?? unansweredFinding(r, requests, ctx)
    if (twice) found.push(twice)
  }
  found.push(...unappliedCallbackFindings(ctx))
  const callback = callbackFinding(ctx)
  if (callback) found.push(callback)
  return found
}

/** Refused requests the merchant sent since `seq` (a step fails on them, as on warnings). */
export const refusedSince = (ctx: ScenarioContext, seq: number): ObservedRequest[] =>
  ctx.mode === 'merchant' && ctx.hosted ? ctx.hosted.requests.filter((r) => r.seq >= seq && isRefused(r)) : []

/** One finding as report lines. */
export function findingLines(f: Finding): string[] {
  return [
    f.headline,
    ...(f.request
      ? [`  ${f.kind === 'unacknowledged-callback' ? 'callback as sent' : 'request as sent'}: ${f.request}`]
      : []),
    ...(f.answer
      ? [
          `  ${f.kind === 'unacknowledged-callback' ? "the merchant's answers" : "the gateway's answer"}: ${f.answer}`,
        ]
      : []),
    ...(f.rule ? [`  rule: ${f.rule}`] : []),
    ...(f.fix ? [`  fix: ${f.fix}`] : []),
  ]
}
