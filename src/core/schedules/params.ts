import { currencyExponent, fromMinor, toMinor } from '../engine/format.js'
import type { Schedule } from '../engine/model.js'
import type { Interval, IntervalUnit } from './calendar.js'

/**
 * A schedule's parameters: kept as the merchant sent them (form strings), read here. Only the
 * names below are parameters; anything else in the request is ignored (docs/schemas.md).
 */

export type DelayedFirstPayment = 'none' | 'delay_by_interval' | 'day_of_week' | 'day_of_month'

/** 2.3: the extra parameters each `delayed_first_payment` value takes. */
const EXTRAS: Record<DelayedFirstPayment, string[]> = {
  none: [],
  delay_by_interval: ['first_payment_interval_length', 'first_payment_interval_unit'],
  day_of_week: ['first_payment_day_of_week'],
  day_of_month: ['first_payment_day_of_month'],
}
const ALL_EXTRAS = Object.values(EXTRAS).flat()

export const PARAM_NAMES = [
  'name',
  'interval_length',
  'interval_unit',
  'payments_count',
  'delayed_first_payment',
  ...ALL_EXTRAS,
  'trial_payments_count',
  'trial_amount',
] as const

/** Parameters whose change moves the calendar of the chains (the others apply from the next payment). */
export const CALENDAR_PARAMS = new Set([
  'interval_length',
  'interval_unit',
  'delayed_first_payment',
  ...ALL_EXTRAS,
])

/** The parameters a validated request carries: only those sent (UPDATE_SCHEDULE changes only them). */
export function sentParams(body: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of PARAM_NAMES) {
    const value = body[name]
    if (typeof value === 'string' && value !== '') out[name] = value
  }
  return out
}

/**
 * `sent` over `current`. The extra parameters of the other `delayed_first_payment` values are
 * dropped: the schemas say they "are ignored when sent", so they are not kept either.
 */
export function mergeParams(
  current: Record<string, string>,
  sent: Record<string, string>,
): Record<string, string> {
  const merged = { ...current, ...sent }
  const keep = new Set(EXTRAS[delayedFirstPayment(merged)])
  for (const name of ALL_EXTRAS) if (!keep.has(name)) delete merged[name]
  return merged
}

export const delayedFirstPayment = (params: Record<string, string>): DelayedFirstPayment =>
  (params.delayed_first_payment as DelayedFirstPayment | undefined) ?? 'none'

export const intervalOf = (params: Record<string, string>): Interval => ({
  length: Number(params.interval_length),
  unit: params.interval_unit as IntervalUnit,
})

/** docs/rules.md#schedules: "`payments_count` (optional; unlimited when absent)". */
export const paymentsCount = (params: Record<string, string>): number | undefined =>
  params.payments_count === undefined ? undefined : Number(params.payments_count)

/**
 * Trial period (6.7.0 names it; sandbox definition, as in the schemas): the first
 * `trial_payments_count` scheduled payments of each chain are charged `trial_amount` instead of
 * the chain's amount, and count towards `payments_count`.
 */
export function trialOf(params: Record<string, string>): { count: number; amount: string } | undefined {
  if (params.trial_payments_count === undefined || params.trial_amount === undefined) return undefined
  return { count: Number(params.trial_payments_count), amount: params.trial_amount }
}

/**
 * An amount written with the currency's decimals (`5` in EUR is `5.00`). A schedule has no
 * currency of its own, so a trial amount meets its chain's currency only here; decimals the
 * currency does not have are cut off.
 */
export function inCurrency(amount: string, currency: string): string {
  const exponent = currencyExponent(currency)
  return fromMinor(toMinor(amount, exponent), exponent)
}

/** SCHEDULE_INFO: the parameters as sent, the state, and `delays: null` (2.3). */
export function scheduleInfo(schedule: Schedule): Record<string, unknown> {
  const params: Record<string, string> = {}
  for (const name of PARAM_NAMES) {
    const value = schedule.params[name]
    if (value !== undefined) params[name] = value
  }
  return {
    ...params,
    delayed_first_payment: delayedFirstPayment(schedule.params),
    state: schedule.state,
    delays: null,
  }
}
