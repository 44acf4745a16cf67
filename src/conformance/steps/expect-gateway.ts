import type { Payment, Transaction } from '../../core/engine/model.js'
import { formatMinor, minorOf } from '../../core/payments/ledger.js'
import type { ScenarioExpectGatewayLedgerStep } from '../../generated/types.js'
import { fail, type ScenarioContext, StepSkipped, settle } from '../context.js'
import { interpolate } from '../interpolate.js'
import { checkFields } from '../match.js'
import { orderNumber } from './order.js'

/**
 * expect.gateway_ledger: what the gateway did for an order, from its own ledger, whatever requests
 * the merchant sent to get there: one charge, one refund of 4.00, no second payout. Scenarios of
 * gateway faults judge the outcome with it (the order booked by the merchant and the money the
 * gateway moved) rather than one sequence of requests.
 */

/** Payments that took or hold money (a declined or abandoned one did not). */
const MOVED = new Set(['pending', 'settled', 'refund', 'reversal', 'void', 'chargeback'])

export interface LedgerView {
  payments: number
  declined: number
  status?: string
  amount_charged: string
  amount_refunded: string
  captures: number
  refunds: number
  voids: number
}

export function ledgerView(payments: Payment[], transactions: (id: string) => Transaction[]): LedgerView {
  const moved = payments.filter((p) => MOVED.has(p.status))
  const newest = [...payments].sort((a, b) => b.created_at - a.created_at)[0]
  const unit = moved[0] ?? newest
  const sum = (field: 'amount_captured' | 'amount_refunded') =>
    unit
      ? formatMinor(
          unit,
          moved.reduce((t, p) => t + minorOf(p, p[field] || '0'), 0n),
        )
      : '0'
  const done = moved.flatMap((p) => transactions(p.id)).filter((tx) => tx.status === 'success')
  const count = (...types: string[]) => done.filter((tx) => types.includes(tx.type)).length
  return {
    payments: moved.length,
    declined: payments.filter((p) => p.status === 'decline').length,
    ...(newest ? { status: newest.status } : {}),
    amount_charged: sum('amount_captured'),
    amount_refunded: sum('amount_refunded'),
    captures: count('capture'),
    refunds: count('refund', 'reversal'),
    voids: count('void'),
  }
}

/** `payments 1 (… settled 10.00 EUR), charged 10.00, refunded 8.00 in 2 refunds (4.00, 4.00)`. */
function describeLedger(view: LedgerView, payments: Payment[], transactions: (id: string) => Transaction[]) {
  const list = payments.map((p) => `${p.id} ${p.status} ${p.order.amount} ${p.order.currency}`).join(', ')
  const refunds = payments
    .flatMap((p) => transactions(p.id))
    .filter((tx) => (tx.type === 'refund' || tx.type === 'reversal') && tx.status === 'success')
    .map((tx) => tx.amount)
  return `payments ${view.payments}${list ? ` (${list})` : ''}, charged ${view.amount_charged}, refunded ${view.amount_refunded}${refunds.length ? ` in ${refunds.length} refund${refunds.length === 1 ? '' : 's'} (${refunds.join(', ')})` : ''}, captures ${view.captures}, voids ${view.voids}`
}

export async function expectGatewayLedger(
  step: ScenarioExpectGatewayLedgerStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  if (ctx.mode !== 'merchant' || !ctx.hosted)
    throw new StepSkipped("expect.gateway_ledger reads the kit's own gateway (merchant mode)", false)
  await settle(ctx)
  const order = orderNumber(step.order_number, ctx)
  const store = ctx.hosted.gateway.ctx.store
  const payments = store.findBy('payments', 'order_id', order)
  const transactions = (id: string) => store.findBy('transactions', 'payment_id', id)
  const view = ledgerView(payments, transactions)
  const wrong = checkFields(view, interpolate(step.fields, ctx.vars))
  if (wrong.length)
    fail(
      `the gateway's ledger for order ${order} is not what this scenario expects: ${wrong[0]}\n  the gateway's ledger: ${describeLedger(view, payments, transactions)}:\n  - ${wrong.join('\n  - ')}`,
    )
  return view
}
