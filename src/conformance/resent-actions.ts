import { formatMinor, minorOf } from '../core/payments/ledger.js'
import type { Payment, Transaction } from '../core/engine/model.js'
import { type FaultKind, kindOf } from '../core/faults/index.js'
import type { ScenarioContext } from './context.js'
import {
  acceptedAnswer,
  doneByGateway,
  doneUnanswered,
  faultAnswer,
  faultOutcome,
  unanswered,
  wasDone,
} from './fault-outcomes.js'
import { describeRequest, paymentIdOf } from './observations.js'
import type { ObservedRequest } from './sandbox-host.js'
import type { Finding } from './types.js'

/**
 * Money actions sent again after a fault (docs/conformance.md, Gateway faults): a refund,
 * capture, void, payout or recurring charge whose answer never came, or came as a proxy's 5xx
 * page, or came after the merchant's client gave up, was done by the gateway all the same; sent
 * again, it is done twice (4.00 refunded twice, a payout paid twice) or refused. The finding reads
 * the request log and the gateway's ledger, never the gateway's messages. Payments (SALE, DEBIT,
 * Hosted Payment Fields) charged twice are the cause finder's own (causes.ts).
 */

type MoneyKind = Exclude<FaultKind, 'lookup' | 'payment'>

interface MoneyAction {
  kind: MoneyKind
  /** The payment it acts on (refund, capture, void), or the order it creates (payout, recurring). */
  payment?: string
  order?: string
  /** The amount as sent (none: the whole, or what remains). */
  amount?: string
}

const text = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
const actionOf = (r: ObservedRequest) => (typeof r.body?.action === 'string' ? r.body.action : undefined)
/** `POST /post GET_TRANS_STATUS`: a request as a finding names it. */
export const nameOf = (r: ObservedRequest) => `${r.method} ${r.path}${actionOf(r) ? ` ${actionOf(r)}` : ''}`

/** A status lookup, on any API (the kinds of src/core/faults). */
export const isLookup = (r: ObservedRequest) => kindOf(r.path, actionOf(r)) === 'lookup'

function moneyActionOf(r: ObservedRequest): MoneyAction | undefined {
  const kind = kindOf(r.path, actionOf(r))
  const body = r.body
  if (!body || !kind || kind === 'lookup' || kind === 'payment') return undefined
  if (kind === 'payout' || kind === 'recurring') {
    const order = (body.order && typeof body.order === 'object' ? body.order : {}) as Record<string, unknown>
    const number = text(body.order_id) ?? text(order.number)
    const amount = text(body.order_amount) ?? text(order.amount)
    return number === undefined ? undefined : { kind, order: number, ...(amount ? { amount } : {}) }
  }
  const payment = paymentIdOf(r)
  const amount = text(body.amount)
  return payment === undefined ? undefined : { kind, payment, ...(amount ? { amount } : {}) }
}

const same = (a: MoneyAction, b: MoneyAction) =>
  a.kind === b.kind && a.payment === b.payment && a.order === b.order && a.amount === b.amount

/** The merchant's status lookups of this payment or order between two of its requests. */
function lookupsBetween(requests: ObservedRequest[], action: MoneyAction, after: number, before: number) {
  return requests.filter((o) => {
    if (o.seq <= after || o.seq >= before) return false
    if (!isLookup(o)) return false
    const id = paymentIdOf(o)
    const order = text(o.body?.order_id)
    return (
      (action.payment !== undefined && id === action.payment) ||
      (action.order !== undefined && order === action.order)
    )
  })
}

/** `POST /post GET_TRANS_STATUS, which answered SETTLED`: a lookup with what it said. */
function answeredAs(r: ObservedRequest): string {
  const json = r.answer.json
  const status =
    json && typeof json === 'object' && !Array.isArray(json)
      ? (json as { status?: unknown }).status
      : undefined
  return `${nameOf(r)}${typeof status === 'string' ? `, which answered ${status}` : unanswered(r) ? ` (${faultAnswer(r)})` : ''}`
}

const NOUN: Record<MoneyKind, string> = {
  refund: 'refund',
  capture: 'capture',
  void: 'void',
  payout: 'payout',
  recurring: 'recurring charge',
}
const TWICE: Record<MoneyKind, string> = {
  refund: 'refunded',
  capture: 'captured',
  void: 'voided',
  payout: 'paid out',
  recurring: 'charged',
}

/** What the gateway's ledger shows for the payment or order: amounts by transaction, or payments. */
function ledgerOf(
  ctx: ScenarioContext,
  action: MoneyAction,
): { amounts: string[]; note: string } | undefined {
  const store = ctx.hosted?.gateway.ctx.store
  if (!store) return undefined
  if (action.payment !== undefined) {
    const payment = store.get('payments', action.payment) as Payment | undefined
    if (!payment) return undefined
    const type =
      action.kind === 'refund' ? ['refund', 'reversal'] : action.kind === 'void' ? ['void'] : ['capture']
    const done = (store.findBy('transactions', 'payment_id', payment.id) as Transaction[]).filter(
      (tx) => type.includes(tx.type) && tx.status === 'success',
    )
    const charged = payment.amount_captured || '0'
    const refunded = formatMinor(payment, minorOf(payment, payment.amount_refunded || '0'))
    return {
      amounts: done.map((tx) => tx.amount),
      note: `payment ${payment.id}: ${charged} ${payment.order.currency} charged, ${refunded} refunded, by the gateway's ledger`,
    }
  }
  const payments = (store.findBy('payments', 'order_id', action.order ?? '') as Payment[]).filter(
    (p) => !['decline', 'prepare'].includes(p.status),
  )
  if (!payments.length) return undefined
  return {
    amounts: payments.map((p) => `${p.order.amount}`),
    note: `order ${action.order}: payments ${payments.map((p) => `${p.id} ${p.order.amount} ${p.order.currency} ${p.status}`).join(', ')}, by the gateway's ledger`,
  }
}

/** `4.00 refunded twice`, or the amounts when they differ. */
function howMuch(kind: MoneyKind, amounts: string[]): string {
  const times = amounts.length === 2 ? 'twice' : `${amounts.length} times`
  return amounts.every((a) => a === amounts[0])
    ? `${amounts[0]} ${TWICE[kind]} ${times}`
    : `${TWICE[kind]} ${times} (${amounts.join(', ')})`
}

const lookupFix = (r: ObservedRequest, action: MoneyAction): string => {
  if (r.path === '/post-va') return 'GET_TRANS_STATUS of the payment'
  if (r.path.startsWith('/api/'))
    return action.order !== undefined
      ? 'POST /api/v1/payment/status by order_id'
      : 'POST /api/v1/payment/status by payment_id'
  return action.order !== undefined
    ? 'GET_TRANS_STATUS_BY_ORDER'
    : 'GET_TRANS_STATUS, or GET_TRANS_DETAILS, which lists its transactions with their amounts'
}

/** The findings about one request of the merchant's: a money action sent again, or never looked up. */
export function moneyActionFindings(
  r: ObservedRequest,
  requests: ObservedRequest[],
  ctx: ScenarioContext,
): Finding[] {
  const found = [resentActionFinding(r, requests, ctx), unlookedOrderFinding(r, requests)]
  return found.filter((f): f is Finding => f !== undefined)
}

/**
 * A refund (or capture, void) of one of the order's payments that the gateway did twice, the
 * second sent again after a fault hid the first (`the same refund was sent twice: 4.00 refunded
 * twice: …`): money moved twice (expect.no_double_charge). Payouts and recurring charges done twice
 * are two payments of their order, which that step counts itself.
 */
export function actionsDoneTwice(ctx: ScenarioContext, orderId: string): string[] {
  const store = ctx.hosted?.gateway.ctx.store
  const requests = ctx.hosted?.requests ?? []
  if (!store) return []
  const payments = new Set(store.findBy('payments', 'order_id', orderId).map((p) => p.id))
  return requests.flatMap((r) => {
    const found = resent(r, requests, ctx)
    return found?.twice && found.action.payment !== undefined && payments.has(found.action.payment)
      ? [found.finding.headline]
      : []
  })
}

/**
 * The finding for `r` when it repeats a money action a fault hid from the merchant although the
 * gateway had done it: undefined for any other request.
 */
const resentActionFinding = (r: ObservedRequest, requests: ObservedRequest[], ctx: ScenarioContext) =>
  resent(r, requests, ctx)?.finding

function resent(
  r: ObservedRequest,
  requests: ObservedRequest[],
  ctx: ScenarioContext,
): { finding: Finding; action: MoneyAction; twice: boolean } | undefined {
  const action = moneyActionOf(r)
  if (!action) return undefined
  const first = requests.find((o) => {
    if (o.seq >= r.seq || !doneUnanswered(o)) return false
    const earlier = moneyActionOf(o)
    return earlier !== undefined && same(earlier, action)
  })
  if (!first) return undefined
  const lookups = lookupsBetween(requests, action, first.seq, r.seq)
  const target = action.payment !== undefined ? 'the payment' : `order ${action.order}`
  const sentAgain = lookups.length
    ? `after its ${lookups.map(answeredAs).join(', ')}`
    : `without looking ${target} up first`
  const ledger = ledgerOf(ctx, action)
  const twice = doneByGateway(r) && !!ledger && ledger.amounts.length > 1
  const noun = NOUN[action.kind]
  const second = twice
    ? `the gateway did that one too, ${howMuch(action.kind, ledger?.amounts ?? [])}`
    : acceptedAnswer(r)
      ? `the gateway answered HTTP ${r.answer.status}`
      : `the gateway refused it (HTTP ${r.answer.status})`
  const cause = `the same ${noun} was sent twice: the merchant sent ${nameOf(r)}${action.amount ? ` (amount ${action.amount})` : ''} again ${sentAgain}, where its earlier one ${wasDone(first)} (one ${noun}, done once: docs/conformance.md, Gateway faults)`
  const finding: Finding = {
    kind: 'resent-action',
    cause,
    headline: `${cause}: ${second}${ledger ? ` (${ledger.note})` : ''}`,
    request: `${describeRequest(first)}; then ${describeRequest(r)}`,
    answer: `HTTP ${r.answer.status} ${r.answer.text.slice(0, 300)}`,
    rule: `one ${noun}, done once: a ${noun} whose answer never came (a time-out, a dropped connection, a proxy's 5xx page) may have been done; the status lookup${action.kind === 'refund' || action.kind === 'capture' || action.kind === 'void' ? ` (and its ${noun} callback)` : ''} says what became of it (Events; docs/conformance.md, Gateway faults)`,
    fix: `treat an unanswered ${noun} as an unknown outcome: look ${target} up (${lookupFix(r, action)}) and send it again only when the gateway did not do it; book what the gateway reports, once`,
    section: 'Events; Gateway faults',
  }
  return { finding, action, twice }
}

/**
 * A payout or recurring charge (a payment of an order of its own) whose answer never came, that
 * the merchant neither looked up by its order nor sent again: it booked the unknown outcome as it
 * pleased (a 5xx page read as a decline). SALE and card payments: the cause finder's own.
 */
function unlookedOrderFinding(r: ObservedRequest, requests: ObservedRequest[]): Finding | undefined {
  const action = unanswered(r) ? moneyActionOf(r) : undefined
  if (!action || action.order === undefined) return undefined
  const later = (o: ObservedRequest) => o.seq > r.seq
  if (lookupsBetween(requests, action, r.seq, Number.POSITIVE_INFINITY).length) return undefined
  const again = requests.some((o) => {
    const next = later(o) ? moneyActionOf(o) : undefined
    return next !== undefined && same(next, action)
  })
  if (again) return undefined
  const noun = NOUN[action.kind]
  const cause = `the merchant never looked order ${action.order} up after its ${nameOf(r)} got ${faultAnswer(r)}`
  return {
    kind: 'unknown-outcome',
    cause,
    headline: `${cause}: ${faultOutcome(r)}; a ${noun} whose answer never came is an unknown outcome, which only the status lookup of its order settles`,
    request: `${describeRequest(r)}`,
    answer: `HTTP ${r.answer.status} ${r.answer.text.slice(0, 300)}`,
    rule: `one ${noun}, done once: a ${noun} whose answer never came may have been done; the status lookup of its order says what became of it (Events; docs/conformance.md, Gateway faults)`,
    fix: `look order ${action.order} up (${lookupFix(r, action)}) and book what the gateway answers: a 5xx page or a time-out is not a decline`,
    section: 'Events; Gateway faults',
  }
}
