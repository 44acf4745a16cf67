import { describe, expect, it } from 'vitest'
import type { Chain, Schedule } from '../../src/core/engine/model.js'
import {
  addIntervals,
  daysInMonth,
  firstStepFrom,
  nextMonthDay,
  nextWeekday,
} from '../../src/core/schedules/calendar.js'
import { firstRun, plan, restart } from '../../src/core/schedules/chain-calendar.js'

const at = (y: number, m: number, d: number, h = 10) => Date.UTC(y, m - 1, d, h)
const day = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ')
const month = { length: 1, unit: 'month' } as const

/** The dates of steps 0..n-1 of a calendar. */
const steps = (anchor: number, interval: Parameters<typeof addIntervals>[1], n: number, anchorDay?: number) =>
  Array.from({ length: n }, (_, k) => day(addIntervals(anchor, interval, k, anchorDay)))

describe('calendar arithmetic (sandbox definition of month ends, UTC)', () => {
  it('knows February: 28 days, 29 in leap years (2028, 2000), 28 in 2100', () => {
    expect([2026, 2027, 2028, 2000, 2100].map((y) => daysInMonth(y, 1))).toEqual([28, 28, 29, 29, 28])
  })

  // 2.3: "Every later payment is counted from the first one": the anchor day is kept, clamped, never drifting.
  it('keeps the 31st through short months without drifting: Jan 31, Feb 28, Mar 31, Apr 30', () => {
    expect(steps(at(2027, 1, 31), month, 5)).toEqual([
      '2027-01-31 10:00',
      '2027-02-28 10:00',
      '2027-03-31 10:00',
      '2027-04-30 10:00',
      '2027-05-31 10:00',
    ])
  })

  it('lands on 29 February in a leap year, and on the 28th in the years around it', () => {
    expect(steps(at(2027, 12, 31), { length: 2, unit: 'month' }, 3)).toEqual([
      '2027-12-31 10:00',
      '2028-02-29 10:00',
      '2028-04-30 10:00',
    ])
    expect(steps(at(2028, 2, 29), { length: 12, unit: 'month' }, 3)).toEqual([
      '2028-02-29 10:00',
      '2029-02-28 10:00',
      '2030-02-28 10:00',
    ])
  })

  it('keeps an anchor day given apart from the date (a first run already clamped to Feb 28)', () => {
    expect(steps(at(2027, 2, 28), month, 3, 31)).toEqual([
      '2027-02-28 10:00',
      '2027-03-31 10:00',
      '2027-04-30 10:00',
    ])
  })

  it('adds whole 24-hour days and weeks, across month and year ends', () => {
    expect(day(addIntervals(at(2027, 12, 30), { length: 3, unit: 'day' }, 1))).toBe('2028-01-02 10:00')
    expect(day(addIntervals(at(2028, 2, 22), { length: 1, unit: 'week' }, 1))).toBe('2028-02-29 10:00')
  })

  // 2.3 day_of_week: "Delay to the next occurrence of that weekday."
  it('finds the next weekday (ISO 1 Monday .. 7 Sunday), a week ahead on that weekday itself', () => {
    const monday = at(2026, 11, 2)
    expect(day(nextWeekday(monday, 3))).toBe('2026-11-04 10:00')
    expect(day(nextWeekday(monday, 7))).toBe('2026-11-08 10:00')
    expect(day(nextWeekday(monday, 1))).toBe('2026-11-09 10:00')
  })

  // 2.3 day_of_month: "Delay to that day of the current or next month."
  it('finds that day of the current month when ahead, else of the next; clamped in short months', () => {
    expect(day(nextMonthDay(at(2026, 11, 2), 15))).toBe('2026-11-15 10:00')
    expect(day(nextMonthDay(at(2026, 11, 15), 15))).toBe('2026-12-15 10:00')
    expect(day(nextMonthDay(at(2026, 11, 2), 31))).toBe('2026-11-30 10:00')
    expect(day(nextMonthDay(at(2028, 2, 10), 31))).toBe('2028-02-29 10:00')
    expect(day(nextMonthDay(at(2027, 2, 28), 31))).toBe('2027-03-31 10:00')
  })

  it('skips calendar dates already gone, from far in the past, landing on the first one not before', () => {
    const anchor = at(2001, 1, 31)
    const step = firstStepFrom(anchor, 31, month, 0, at(2028, 3, 1))
    expect(day(addIntervals(anchor, month, step, 31))).toBe('2028-03-31 10:00')
    expect(day(addIntervals(anchor, month, step - 1, 31))).toBe('2028-02-29 10:00')
    expect(firstStepFrom(anchor, 31, month, 4, anchor)).toBe(4)
  })
})

describe('the first scheduled payment (2.3 delayed_first_payment; 2.1 schedule_start_date)', () => {
  const start = at(2026, 11, 2)
  const first = (params: Record<string, string>, startDate?: string) =>
    day(firstRun(params, start, startDate).at)
  const base = { interval_length: '1', interval_unit: 'month' }

  it('none: one schedule interval after the initial payment', () => {
    expect(first(base)).toBe('2026-12-02 10:00')
    expect(first({ ...base, delayed_first_payment: 'none' })).toBe('2026-12-02 10:00')
  })

  it('delay_by_interval: its own length and unit, independent of the schedule interval', () => {
    const delay = { delayed_first_payment: 'delay_by_interval', first_payment_interval_unit: 'day' }
    expect(first({ ...base, ...delay, first_payment_interval_length: '10' })).toBe('2026-11-12 10:00')
  })

  it('a delay in months from January 31 lands on Feb 28 and keeps the 31st for later payments', () => {
    const params = {
      ...base,
      delayed_first_payment: 'delay_by_interval',
      first_payment_interval_length: '1',
      first_payment_interval_unit: 'month',
    }
    const run = firstRun(params, at(2027, 1, 31))
    expect([day(run.at), run.anchorDay]).toEqual(['2027-02-28 10:00', 31])
  })

  it('schedule_start_date overrides delayed_first_payment', () => {
    const params = { ...base, delayed_first_payment: 'day_of_week', first_payment_day_of_week: '5' }
    expect(first(params)).toBe('2026-11-06 10:00')
    expect(first(params, '2027-01-31')).toBe('2027-01-31 10:00')
    expect(firstRun(params, start, '2027-01-31').anchorDay).toBe(31)
  })

  it('keeps the requested day of month as the anchor, also when the first month is short', () => {
    const run = firstRun(
      { ...base, delayed_first_payment: 'day_of_month', first_payment_day_of_month: '31' },
      start,
    )
    expect([day(run.at), run.anchorDay]).toEqual(['2026-11-30 10:00', 31])
  })

  it('plans a completed chain once payments_count payments were made', () => {
    const schedule: Schedule = {
      id: 's',
      merchant_key: 'm',
      state: 'running',
      params: { ...base, payments_count: '2' },
      created_at: 0,
    }
    const chain = { runs_done: 2, steps: 2, state: 'active' } as Chain
    restart(chain, firstRun(schedule.params, start))
    chain.runs_done = 2
    plan(schedule, chain, start)
    expect(chain.state).toBe('completed')
    expect(chain.next_run_at).toBeUndefined()
  })
})
