import type { Chain, Schedule } from '../engine/model.js'
import {
  addIntervals,
  dateAt,
  dayOfMonth,
  firstStepFrom,
  keptDay,
  MAX_TIME,
  nextMonthDay,
  nextWeekday,
  reachable,
} from './calendar.js'
import { delayedFirstPayment, intervalOf, paymentsCount } from './params.js'

/**
 * When a chain's scheduled payments fall due. 2.3: "Every later payment is counted from the
 * first one": payment k is due k intervals after the first (months keep the first one's day of
 * month, clamped: calendar.ts). The first one is set by `delayed_first_payment`, or by the
 * initial payment's `schedule_start_date`, which overrides it (2.1).
 */

export interface FirstRun {
  at: number
  /** The day of month later monthly payments keep. */
  anchorDay: number
}

/**
 * The first scheduled payment of a chain that started at `startAt` (2.3 table):
 * - none: one schedule interval after the initial payment ("cycle starts per schedule interval");
 * - delay_by_interval: the first_payment_interval after it, whatever the schedule interval;
 * - day_of_week: the next such weekday after the day of the initial payment;
 * - day_of_month: that day of the current month when still ahead, else of the next month;
 * - schedule_start_date: that date, at the initial payment's time of day.
 */
export function firstRun(params: Record<string, string>, startAt: number, startDate?: string): FirstRun {
  const fixed = startDate === undefined ? undefined : dateAt(startDate, startAt)
  if (fixed !== undefined) return { at: fixed, anchorDay: dayOfMonth(fixed) }
  switch (delayedFirstPayment(params)) {
    case 'delay_by_interval': {
      const delay = {
        length: Number(params.first_payment_interval_length),
        unit: params.first_payment_interval_unit as 'day' | 'week' | 'month',
      }
      const at = addIntervals(startAt, delay, 1)
      // A delay in months aims at the initial payment's day (clamped); one in days or weeks at its own.
      return { at, anchorDay: delay.unit === 'month' ? dayOfMonth(startAt) : dayOfMonth(at) }
    }
    case 'day_of_week': {
      const at = nextWeekday(startAt, Number(params.first_payment_day_of_week))
      return { at, anchorDay: dayOfMonth(at) }
    }
    case 'day_of_month': {
      const day = Number(params.first_payment_day_of_month)
      return { at: nextMonthDay(startAt, day), anchorDay: day }
    }
    default: {
      const interval = intervalOf(params)
      // docs/rules.md#schedules: `day_of_month` fixes the day of a monthly schedule (clamped to short months).
      const fixedDay = interval.unit === 'month' ? monthDayOf(params) : undefined
      const at = addIntervals(startAt, interval, 1, fixedDay)
      return { at, anchorDay: interval.unit === 'month' ? (fixedDay ?? dayOfMonth(startAt)) : dayOfMonth(at) }
    }
  }
}

/** CREATE_SCHEDULE `day_of_month` (1 to 31), when sent. */
function monthDayOf(params: Record<string, string>): number | undefined {
  const day = Number(params.day_of_month)
  return Number.isInteger(day) && day >= 1 && day <= 31 ? day : undefined
}

/** Due time of the chain's `step`-th calendar date. */
export const stepAt = (schedule: Schedule, chain: Chain, step: number): number =>
  addIntervals(chain.anchor_at, intervalOf(schedule.params), step, chain.anchor_day)

/**
 * Sets `next_run_at` (and the state) from the calendar: completed once `payments_count` payments
 * were made; otherwise the first calendar date from the current step on that is not before
 * `notBefore` (dates already gone are skipped, not made up).
 */
export function plan(schedule: Schedule, chain: Chain, notBefore: number): void {
  const count = paymentsCount(schedule.params)
  if (count !== undefined && chain.runs_done >= count) {
    chain.state = 'completed'
    delete chain.next_run_at
    return
  }
  chain.state = 'active'
  chain.steps = firstStepFrom(
    chain.anchor_at,
    chain.anchor_day,
    intervalOf(schedule.params),
    chain.steps,
    notBefore,
  )
  const next = stepAt(schedule, chain, chain.steps)
  // An interval so long that the date is past any calendar (interval_length has no upper limit): never due.
  if (reachable(next)) chain.next_run_at = next
  else delete chain.next_run_at
}

/** A new calendar starting at `first` (step 0). */
export function restart(chain: Chain, first: FirstRun): void {
  chain.anchor_at = reachable(first.at) ? first.at : MAX_TIME
  chain.anchor_day = first.anchorDay
  chain.steps = 0
}

/**
 * UPDATE_SCHEDULE changed the interval or the first-payment rule. A chain that has made no
 * scheduled payment yet gets its first one again from the new rule; one that has goes on from
 * its last payment with the new interval, keeping its day of month.
 */
export function recalendar(schedule: Schedule, chain: Chain, now: number): void {
  const last = chain.runs.at(-1)
  if (last) {
    chain.anchor_at = last.due_at
    chain.anchor_day = keptDay(last.due_at, chain.anchor_day)
    chain.steps = 1
  } else restart(chain, firstRun(schedule.params, chain.start_at, chain.start_date))
  plan(schedule, chain, now)
}

/**
 * RUN after PAUSE (sandbox definition, as the RUN schema says): "Payments due while paused are
 * not made up: the next one is counted from the resume date", one interval after it. A chain
 * whose next payment is still ahead keeps it.
 */
export function resume(schedule: Schedule, chain: Chain, now: number): void {
  if (chain.next_run_at === undefined || chain.next_run_at >= now) return
  chain.anchor_at = now
  chain.anchor_day = dayOfMonth(now)
  chain.steps = 1
  plan(schedule, chain, now)
}
