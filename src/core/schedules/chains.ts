import type { EngineContext } from '../engine/context.js'
import { formatDay } from '../engine/format.js'
import type { Chain, Payment, Schedule } from '../engine/model.js'
import { firstRun, plan, restart } from './chain-calendar.js'

/**
 * Chains: an initial payment tied to a schedule (2.1 `schedule_id` with `recurring_init`; S2S
 * SALE or DEBIT with `recurring_init=Y&schedule_id`). "Schedules are not separated by type: they
 * serve sale- and debit-initiated chains alike" (2.3): the chain keeps the initial payment, and
 * each scheduled payment is a secondary payment of it (a recurring sale or a recurring debit).
 */

/** The merchant's schedule, unless deleted: another merchant's answers exactly as a missing one. */
export function liveSchedule(ctx: EngineContext, merchantKey: string, id: unknown): Schedule | undefined {
  if (typeof id !== 'string') return undefined
  const schedule = ctx.store.get('schedules', id)
  return schedule && schedule.merchant_key === merchantKey && schedule.state !== 'deleted'
    ? schedule
    : undefined
}

export const chainsOf = (ctx: EngineContext, scheduleId: string): Chain[] =>
  ctx.store.findBy('chains', 'schedule_id', scheduleId)

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined

/** 2.1 fields of the initial payment: on the payment (S2S), else in its Checkout session request. */
function initialField(
  ctx: EngineContext,
  payment: Payment,
  name: 'schedule_start_date' | 'payment_schedule_amount',
) {
  const own = text(payment[name])
  if (own !== undefined || !payment.session_id) return own
  return text(ctx.store.get('sessions', payment.session_id)?.request[name])
}

/** An initial payment the schedule should take on: approved (settled, or held), with its token. */
const startsChain = (payment: Payment): boolean =>
  Boolean(payment.schedule_id) &&
  payment.recurring?.init === true &&
  payment.recurring.token !== undefined &&
  (payment.status === 'settled' || payment.status === 'pending')

/**
 * The chain of an approved initial payment, created on first sight (once per payment, however
 * many events announce it). An initial payment naming no live schedule of its merchant starts
 * none: there is nothing to run it.
 */
export function attachChain(ctx: EngineContext, paymentId: string): Chain | undefined {
  const existing = ctx.store.get('chains', paymentId)
  if (existing) return undefined
  const payment = ctx.store.get('payments', paymentId)
  if (!payment || !startsChain(payment)) return undefined
  const schedule = liveSchedule(ctx, payment.merchant_key, payment.schedule_id)
  if (!schedule) {
    ctx.logger.warn('initial payment names no schedule of its merchant', {
      payment_id: payment.id,
      schedule_id: payment.schedule_id,
    })
    return undefined
  }
  const now = ctx.clock.now()
  const startDate = initialField(ctx, payment, 'schedule_start_date')
  const chain: Chain = {
    id: payment.id,
    schedule_id: schedule.id,
    merchant_key: payment.merchant_key,
    state: 'active',
    // 2.1 payment_schedule_amount: "Amount of later scheduled payments when it differs from the initial amount".
    amount: initialField(ctx, payment, 'payment_schedule_amount') ?? payment.order.amount,
    currency: payment.order.currency,
    start_at: now,
    ...(startDate !== undefined ? { start_date: startDate } : {}),
    anchor_at: now,
    anchor_day: 1,
    steps: 0,
    runs_done: 0,
    runs: [],
    created_at: now,
    updated_at: now,
  }
  restart(chain, firstRun(schedule.params, now, startDate))
  // A schedule_start_date already gone: the dates before the initial payment are not made up.
  plan(schedule, chain, now)
  ctx.store.put('chains', chain)
  if (chain.next_run_at !== undefined) {
    // Events: `first_recurring_date` in callbacks (Protocol Mapping) reads it from the payment.
    ctx.store.put('payments', { ...payment, first_recurring_date: formatDay(chain.next_run_at) })
  }
  return chain
}
