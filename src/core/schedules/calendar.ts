import { DAY } from '../ports/clock.js'

/**
 * Calendar arithmetic of schedules, in UTC (the sandbox has no time zones: dates in answers are
 * UTC too). A scheduled payment keeps the time of day of the moment its chain started.
 *
 * Month ends (sandbox definition): a monthly calendar keeps its anchor day and clamps it to
 * shorter months, without drifting. Anchored on the 31st it runs Jan 31, Feb 28 (Feb 29 in a leap
 * year), Mar 31, Apr 30; anchored on Feb 29 it runs Mar 29, Apr 29, ... Days and weeks are exact
 * multiples of 24 hours.
 */

/** The last instant a JavaScript date can hold (year 275760): a calendar date beyond it never comes. */
export const MAX_TIME = 8.64e15

/** A due time the clock can be armed for: a finite date within the calendar's range. */
export const reachable = (at: number): boolean => Number.isFinite(at) && at < MAX_TIME

export type IntervalUnit = 'day' | 'week' | 'month'

export interface Interval {
  length: number
  unit: IntervalUnit
}

/** Days in a month (0-based month, UTC): February has 29 in leap years. */
export const daysInMonth = (year: number, month: number): number =>
  new Date(Date.UTC(year, month + 1, 0)).getUTCDate()

const timeOfDay = (at: number): number => ((at % DAY) + DAY) % DAY

export const dayOfMonth = (at: number): number => new Date(at).getUTCDate()

/** ISO 8601 weekday: 1 Monday to 7 Sunday. */
export const isoWeekday = (at: number): number => ((new Date(at).getUTCDay() + 6) % 7) + 1

/** Day `day` of the month `month` months after January of `year` (clamped), at `time` after midnight. */
function onMonthDay(year: number, month: number, day: number, time: number): number {
  const first = new Date(Date.UTC(year, month, 1))
  const y = first.getUTCFullYear()
  const m = first.getUTCMonth()
  return Date.UTC(y, m, Math.min(day, daysInMonth(y, m))) + time
}

/**
 * `at` moved `count` intervals on. Months land on `anchorDay` (default: the day of `at`), clamped
 * to the target month's last day; days and weeks add 24-hour days.
 */
export function addIntervals(
  at: number,
  interval: Interval,
  count: number,
  anchorDay = dayOfMonth(at),
): number {
  const n = interval.length * count
  if (n === 0) return at
  if (interval.unit === 'day') return at + n * DAY
  if (interval.unit === 'week') return at + n * 7 * DAY
  const date = new Date(at)
  return onMonthDay(date.getUTCFullYear(), date.getUTCMonth() + n, anchorDay, timeOfDay(at))
}

/**
 * The day of month a calendar re-anchored at `at` keeps: `anchorDay` when `at` is that day (or
 * its clamped image in a short month, as Feb 28 is of the 31st), else the day of `at`.
 */
export function keptDay(at: number, anchorDay: number): number {
  const date = new Date(at)
  return onMonthDay(date.getUTCFullYear(), date.getUTCMonth(), anchorDay, timeOfDay(at)) === at
    ? anchorDay
    : date.getUTCDate()
}

/** 2.3 day_of_week: "the next occurrence of that weekday", strictly after the day of `at`. */
export function nextWeekday(at: number, weekday: number): number {
  const days = (weekday - isoWeekday(at) + 7) % 7 || 7
  return at + days * DAY
}

/**
 * 2.3 day_of_month: "that day of the current or next month". The current month's day (clamped to
 * its last day) when it is still ahead, strictly after the day of `at`; else the next month's.
 */
export function nextMonthDay(at: number, day: number): number {
  const date = new Date(at)
  const time = timeOfDay(at)
  const current = onMonthDay(date.getUTCFullYear(), date.getUTCMonth(), day, time)
  return current > at ? current : onMonthDay(date.getUTCFullYear(), date.getUTCMonth() + 1, day, time)
}

/** A `YYYY-MM-DD` date at the time of day of `timeFrom`; undefined when it is no calendar date. */
export function dateAt(date: string, timeFrom: number): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!match) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])]
  if (month > 11 || day < 1 || day > daysInMonth(year, month)) return undefined
  return Date.UTC(year, month, day) + timeOfDay(timeFrom)
}

/** Shortest length of one interval, so a count of steps can be estimated from below. */
const shortest = (interval: Interval): number =>
  interval.length * DAY * (interval.unit === 'day' ? 1 : interval.unit === 'week' ? 7 : 28)

/**
 * The first step, from `fromStep` on, whose time is at or after `notBefore`: how a calendar that
 * starts in the past skips the dates already gone (they are not made up).
 */
export function firstStepFrom(
  anchorAt: number,
  anchorDay: number,
  interval: Interval,
  fromStep: number,
  notBefore: number,
): number {
  let step = fromStep
  if (addIntervals(anchorAt, interval, step, anchorDay) >= notBefore) return step
  // Jump close from below (the longest interval is at most 31/28 of the shortest), then walk.
  const longest = shortest(interval) * (interval.unit === 'month' ? 31 / 28 : 1)
  step = Math.max(step, Math.floor((notBefore - anchorAt) / longest) - 1)
  while (addIntervals(anchorAt, interval, step, anchorDay) < notBefore) step++
  return step
}
