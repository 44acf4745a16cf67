import type { Payment } from '../core/engine/model.js'
import { formatMinor } from '../core/payments/ledger.js'
import type { ScenarioContext } from './context.js'
import { describeRequest } from './observations.js'
import { actionsDoneTwice } from './resent-actions.js'
import type { ObservedRequest } from './sandbox-host.js'

/**
 * Judging outcomes, not recipes (docs/conformance.md, Judging outcomes): what the merchant booked
 * and told its payer is compared with the gateway's own record of the order (the kit-hosted
 * sandbox's store), and money may move at most once per order, whichever documented way the
 * merchant took to get there (a lookup by payment_id or by order_id, with or without size, the
 * status callback, a second payment only after a lookup found none).
 */

/** Statuses of a payment that took money or holds it (a released hold or a void once did). */
const TOOK_MONEY = new Set(['pending', 'settled', 'refund', 'reversal', 'void', 'chargeback'])
const tookMoney = (p: Payment): boolean => TOOK_MONEY.has(p.status)

/** The order's payments as the gateway records them, oldest first. */
export function gatewayPayments(ctx: ScenarioContext, orderId: string): Payment[] {
  const store = ctx.hosted?.gateway.ctx.store
  if (!store) return []
  return store
    .findBy('payments', 'order_id', orderId)
    .filter((p) => p.merchant_key === ctx.credentials.merchant_key)
    .sort((a, b) => a.created_at - b.created_at)
}

/** The payments of the order that took or hold money. */
export const chargesOf = (payments: Payment[]): Payment[] => payments.filter(tookMoney)

const describePayment = (p: Payment) =>
  `${p.id} (${p.status}${Number(p.amount_captured) > 0 ? `, ${p.amount_captured} ${p.order.currency} captured` : ''}${Number(p.amount_refunded) > 0 ? `, ${p.amount_refunded} refunded` : ''})`

/** What the merchant's order must show, given the gateway's payments of it. */
interface Expected {
  states: string[]
  amount_paid?: string
  amount_refunded?: string
  payments_count?: number
  /** Why: the payment it follows, or "no payment". */
  because: string
}

function expectedBooking(payments: Payment[]): Expected {
  const [charge] = chargesOf(payments).slice(-1)
  if (!charge) {
    const newest = payments.at(-1)
    const noMoney = newest ? formatMinor(newest, 0n) : '0'
    const nothing = { amount_paid: noMoney, amount_refunded: noMoney, payments_count: 0 }
    if (!newest)
      return { states: ['new', 'pending', 'failed'], ...nothing, because: 'the gateway has no payment of it' }
    const waiting = newest.status === 'decline' ? ['failed'] : ['pending', 'new']
    return { states: waiting, ...nothing, because: `its newest payment is ${describePayment(newest)}` }
  }
  const captured = Number(charge.amount_captured || '0') > 0
  const money = {
    amount_paid: charge.amount_captured || formatMinor(charge, 0n),
    amount_refunded: charge.amount_refunded || formatMinor(charge, 0n),
    payments_count: captured ? 1 : 0,
  }
  const because = `its payment ${describePayment(charge)}`
  switch (charge.status) {
    case 'pending':
      return { states: ['authorized'], ...money, because }
    case 'settled':
      return { states: ['paid'], ...money, because }
    case 'refund':
      return {
        states: sameAmount(charge.amount_refunded, charge.amount_captured) ? ['refunded'] : ['paid'],
        ...money,
        because,
      }
    case 'reversal':
      return { states: ['reversed'], ...money, because }
    case 'void':
      return { states: ['cancelled'], because }
    default:
      return { states: ['refunded'], because }
  }
}

/** Decimal strings compared as numbers (`10.00` and `10.0` are the same amount). */
function sameAmount(a: unknown, b: string): boolean {
  const norm = (v: unknown) => {
    const text = String(v ?? '')
    if (!/^-?\d+(\.\d+)?$/.test(text)) return text
    const [whole = '', fraction = ''] = text.split('.')
    const f = fraction.replace(/0+$/, '')
    return `${whole.replace(/^(-?)0+(?=\d)/, '$1')}${f ? `.${f}` : ''}`
  }
  return norm(a) === norm(b)
}

const FAILED_WORDS = /^(error|fail|failed|declined?|not_charged)$/i
const PAID_WORDS = /^(settled|success|successful|paid|approved)$/i
const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v))

/** The merchant's view against the gateway's record of the order, in the form field checks write. */
export interface LedgerJudgement {
  /** `$.amount_refunded: expected "0.00", found "4.00"`: each value that contradicts the record. */
  wrong: string[]
  /** Money moved twice, or the payer told the opposite of what happened. */
  problems: string[]
  /** The gateway's record, in words: `its payment … (settled, 10.00 EUR captured)`. */
  record: string
}

/**
 * Where the merchant's view of the order (its inspect answer) and what it told its payer
 * (start_payment's `status`) contradict the gateway's record of the order's payments.
 */
export function judgeAgainstLedger(
  ctx: ScenarioContext,
  orderId: string,
  view: Record<string, unknown>,
): LedgerJudgement {
  const payments = gatewayPayments(ctx, orderId)
  const charges = chargesOf(payments)
  const expected = expectedBooking(payments)
  const wrong: string[] = []
  if (!expected.states.includes(String(view.state)))
    wrong.push(
      `$.state: expected ${expected.states.length === 1 ? show(expected.states[0]) : `one of ${show(expected.states)}`}, found ${show(view.state)}`,
    )
  for (const key of ['amount_paid', 'amount_refunded'] as const) {
    const want = expected[key]
    if (want !== undefined && !sameAmount(view[key], want))
      wrong.push(`$.${key}: expected ${show(want)}, found ${show(view[key])}`)
  }
  if (expected.payments_count !== undefined && Number(view.payments_count) !== expected.payments_count)
    wrong.push(`$.payments_count: expected ${expected.payments_count}, found ${show(view.payments_count)}`)
  const problems: string[] = []
  if (charges.length > 1)
    problems.push(
      `the gateway took money ${charges.length} times for order ${orderId}: ${charges.map(describePayment).join(', ')}`,
    )
  const told = ctx.told?.[orderId]
  if (told !== undefined && charges.length && FAILED_WORDS.test(told))
    problems.push(
      `it told its payer the payment failed (start_payment status ${show(told)}), where the gateway took the money: ${expected.because}`,
    )
  if (told !== undefined && !charges.length && PAID_WORDS.test(told))
    problems.push(
      `it told its payer the payment went through (start_payment status ${show(told)}), where the gateway took nothing: ${expected.because}`,
    )
  return { wrong, problems, record: expected.because }
}

const CHARGE_ACTIONS = new Set(['SALE', 'AUTH', 'DEBIT'])

/** The order a payment request pays (S2S by order_id, Hosted Payment Fields by its session's token). */
function paidOrder(ctx: ScenarioContext, r: ObservedRequest): string | undefined {
  const action = typeof r.body?.action === 'string' ? r.body.action : undefined
  if (action && CHARGE_ACTIONS.has(action) && r.body?.order_id !== undefined) return String(r.body.order_id)
  if (!/^\/api\/v1\/processing\/\w+\/card$/.test(r.path) || !r.headers.token) return undefined
  const session = ctx.hosted?.gateway.ctx.store.findBy('sessions', 'token', r.headers.token)[0]
  const order = session?.request.order as { number?: unknown } | undefined
  return order?.number === undefined ? undefined : String(order.number)
}

const isOrderLookup = (r: ObservedRequest, orderId: string) =>
  String(r.body?.order_id ?? '') === orderId &&
  (r.path === '/api/v1/payment/status' || r.body?.action === 'GET_TRANS_STATUS_BY_ORDER')

/** A lookup of the order whose answer says nothing was taken: "does not exist" (101000), or declines only. */
function foundNothing(r: ObservedRequest): boolean {
  if (r.fault) return false
  const json = r.answer.json as Record<string, unknown> | Record<string, unknown>[] | undefined
  if (!json || typeof json !== 'object') return false
  if (!Array.isArray(json) && String(json.error_code ?? '') === '101000') return true
  if (r.answer.status !== 200) return false
  const statuses = (Array.isArray(json) ? json : [json]).map((p) => String(p.status ?? '').toLowerCase())
  return statuses.length > 0 && statuses.every((s) => s === 'decline' || s === 'declined')
}

/**
 * Money moved at most once for the order: the gateway holds at most one payment of it that took or
 * holds money, refunded none of them twice after a fault, and a payment sent again after one
 * whose answer never came followed a lookup of the order that found nothing taken. Each problem,
 * or none.
 */
export function doubleChargeProblems(ctx: ScenarioContext, orderId: string): string[] {
  const problems: string[] = []
  const charges = chargesOf(gatewayPayments(ctx, orderId))
  if (charges.length > 1)
    problems.push(
      `the gateway took money ${charges.length} times for order ${orderId}: ${charges.map(describePayment).join(', ')}`,
    )
  // A refund of the order's payment done twice after a fault hid the first (resent-actions.ts).
  problems.push(...actionsDoneTwice(ctx, orderId))
  const requests = ctx.hosted?.requests ?? []
  const payments = requests.filter((r) => paidOrder(ctx, r) === orderId)
  for (const unanswered of payments.filter((r) => r.fault)) {
    const again = payments.find((r) => r.seq > unanswered.seq)
    if (!again) continue
    const lookups = requests.filter(
      (r) => r.seq > unanswered.seq && r.seq < again.seq && isOrderLookup(r, orderId),
    )
    if (lookups.some(foundNothing)) continue
    problems.push(
      `the merchant sent ${describeRequest(again)} again for order ${orderId} after its ${unanswered.method} ${unanswered.path}${typeof unanswered.body?.action === 'string' ? ` ${unanswered.body.action}` : ''} got no answer (sandbox fault "${unanswered.fault}"), without a status lookup of the order that found nothing taken (${lookups.length ? `its lookups: ${lookups.map(describeRequest).join(', ')}` : 'it looked nothing up'})`,
    )
  }
  return problems
}
