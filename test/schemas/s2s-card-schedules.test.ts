import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { formatFieldError, validate } from '../../src/core/validation/index.js'
import { expectInvalidAt, expectValid, withField } from '../helpers/schema.js'

type Form = Record<string, unknown>
const fixture = (name: string): Form =>
  JSON.parse(readFileSync(new URL(`../../fixtures/payloads/s2s-card/${name}.json`, import.meta.url), 'utf8'))
const valid = (schema: string, data: unknown) => expectValid(schema, data, 'bracket')
const refusedOnlyAt = (schema: string, data: unknown, path: string, message?: string) => {
  const error = expectInvalidAt(schema, data, path, message, 'bracket')
  expect(validate(schema, data, { pathStyle: 'bracket' }).errors.map((e) => e.path)).toEqual([path])
  return error
}

const CREATE = 's2s-card/create-schedule-request'
const UPDATE = 's2s-card/update-schedule-request'
const create = fixture('create-schedule-request.basic')
const update = fixture('update-schedule-request.basic')
const both = [
  [CREATE, create],
  [UPDATE, update],
] as const

describe('S2S CARD schedules: the retired delays parameter (Errors, 6.7.0)', () => {
  // Errors: "`delays` sent on CREATE_SCHEDULE or UPDATE_SCHEDULE | not shown | not shown | Parameter is deprecated."
  it.each(both)('%s refuses delays with "delays: Parameter is deprecated."', (schema, body) => {
    for (const value of ['3', '', '0', '1,2,3']) {
      const error = refusedOnlyAt(schema, withField(body, 'delays', value), 'delays')
      expect(formatFieldError(error)).toBe('delays: Parameter is deprecated.')
    }
  })
  it.each(both)('%s refuses delays sent in bracket form too', (schema, body) => {
    const error = refusedOnlyAt(schema, withField(body, 'delays', { 0: '3', 1: '5' }), 'delays')
    expect(error.message).toBe('Parameter is deprecated.')
  })
  // 2.3: "`SCHEDULE_INFO` returns `delays` as null for schedules created after release 6.7.0."
  it('SCHEDULE_INFO answers delays: null and nothing else', () => {
    const info = fixture('schedule-info-response.success')
    expect(info.delays).toBeNull()
    refusedOnlyAt('s2s-card/schedule-info-response', withField(info, 'delays', '3'), 'delays')
    refusedOnlyAt('s2s-card/schedule-info-response', withField(info, 'delays', undefined), 'delays')
  })
})

describe('S2S CARD CREATE_SCHEDULE: interval (2.3, docs/rules.md#beyond-the-interface)', () => {
  // docs/rules.md#schedules: "takes `interval_unit` `day` or `month` (no `week`)".
  it.each(['day', 'month'])('accepts interval_unit %s', (unit) => {
    valid(CREATE, withField(create, 'interval_unit', unit))
  })
  it.each(['week', 'year', 'days', 'Day', 'MONTH', ''])('refuses interval_unit %s', (unit) => {
    const error = refusedOnlyAt(
      CREATE,
      withField(create, 'interval_unit', unit),
      'interval_unit',
      'not a valid choice',
    )
    expect(error.section).toBe('2.3')
  })
  // 2.3: "Schedule interval parameters named: `interval_length`, `interval_unit`".
  it.each(['0', '-1', '1.5', 'one', ''])('refuses interval_length %s', (length) => {
    refusedOnlyAt(CREATE, withField(create, 'interval_length', length), 'interval_length', 'positive integer')
  })
  it.each(['name', 'interval_length', 'interval_unit', 'hash', 'client_key'])('requires %s', (field) => {
    refusedOnlyAt(CREATE, withField(create, field, undefined), field, 'should not be blank')
  })
  // docs/rules.md#schedules: "`CREATE_SCHEDULE` requires `payments_count`"; `day_of_month` 1..31.
  it('requires payments_count, refuses a zero count, takes day_of_month 1..31', () => {
    refusedOnlyAt(
      CREATE,
      withField(create, 'payments_count', undefined),
      'payments_count',
      'should not be blank',
    )
    refusedOnlyAt(CREATE, withField(create, 'payments_count', '0'), 'payments_count')
    valid(CREATE, withField(create, 'day_of_month', '31'))
    refusedOnlyAt(CREATE, withField(create, 'day_of_month', '32'), 'day_of_month')
  })
})

describe('S2S CARD schedules: delayed_first_payment (2.3)', () => {
  // 2.3: "none (default) | none | No delay".
  it.each(both)('%s accepts delayed_first_payment none without extra parameters', (schema, body) => {
    valid(schema, withField(body, 'delayed_first_payment', 'none'))
  })
  it.each(both)('%s refuses an unknown delayed_first_payment', (schema, body) => {
    refusedOnlyAt(schema, withField(body, 'delayed_first_payment', 'delay'), 'delayed_first_payment')
  })
  // 2.3: "delay_by_interval | first_payment_interval_length, first_payment_interval_unit".
  it.each(both)('%s requires the interval of delay_by_interval', (schema, body) => {
    const delayed = withField(body, 'delayed_first_payment', 'delay_by_interval')
    const error = expectInvalidAt(
      schema,
      delayed,
      'first_payment_interval_length',
      'should not be blank',
      'bracket',
    )
    expect(error.section).toBe('2.3')
    expectInvalidAt(schema, delayed, 'first_payment_interval_unit', 'should not be blank', 'bracket')
    const full = withField(
      withField(delayed, 'first_payment_interval_length', '2'),
      'first_payment_interval_unit',
      'week',
    )
    valid(schema, full)
    refusedOnlyAt(
      schema,
      withField(full, 'first_payment_interval_unit', 'year'),
      'first_payment_interval_unit',
    )
  })
  // 2.3: "day_of_week | first_payment_day_of_week | Delay to the next occurrence of that weekday."
  it.each(both)('%s requires first_payment_day_of_week 1..7 with day_of_week', (schema, body) => {
    const delayed = withField(body, 'delayed_first_payment', 'day_of_week')
    refusedOnlyAt(schema, delayed, 'first_payment_day_of_week', 'should not be blank')
    for (const day of ['1', '7']) valid(schema, withField(delayed, 'first_payment_day_of_week', day))
    for (const day of ['0', '8', 'monday', '01']) {
      refusedOnlyAt(schema, withField(delayed, 'first_payment_day_of_week', day), 'first_payment_day_of_week')
    }
  })
  // 2.3: "day_of_month | first_payment_day_of_month | Delay to that day of the current or next month."
  it.each(both)('%s requires first_payment_day_of_month 1..31 with day_of_month', (schema, body) => {
    const delayed = withField(body, 'delayed_first_payment', 'day_of_month')
    refusedOnlyAt(schema, delayed, 'first_payment_day_of_month', 'should not be blank')
    for (const day of ['1', '15', '31', '01'])
      valid(schema, withField(delayed, 'first_payment_day_of_month', day))
    for (const day of ['0', '32', '00', '1.5']) {
      refusedOnlyAt(
        schema,
        withField(delayed, 'first_payment_day_of_month', day),
        'first_payment_day_of_month',
      )
    }
  })
  it('accepts the fixtures of each delayed_first_payment value', () => {
    valid(CREATE, fixture('create-schedule-request.delay-by-interval'))
    valid(CREATE, fixture('create-schedule-request.day-of-week'))
    valid(CREATE, fixture('create-schedule-request.day-of-month-trial'))
  })
})

describe('S2S CARD schedules: trial periods (6.7.0) and UPDATE_SCHEDULE', () => {
  // 6.7.0: "Additions: ... trial periods and `UPDATE_SCHEDULE`" (fields not shown: trial_payments_count + trial_amount).
  it.each(both)('%s needs trial_payments_count and trial_amount together', (schema, body) => {
    refusedOnlyAt(
      schema,
      withField(body, 'trial_amount', '1.00'),
      'trial_payments_count',
      'should not be blank',
    )
    refusedOnlyAt(schema, withField(body, 'trial_payments_count', '2'), 'trial_amount', 'should not be blank')
    valid(schema, withField(withField(body, 'trial_payments_count', '2'), 'trial_amount', '0'))
    const trial = withField(body, 'trial_payments_count', '2')
    refusedOnlyAt(schema, withField(trial, 'trial_amount', '1,00'), 'trial_amount')
  })
  // 2.3: "`UPDATE_SCHEDULE` (only the parameters sent are changed)".
  it('UPDATE_SCHEDULE needs only schedule_id besides client_key and hash', () => {
    valid(UPDATE, { action: 'UPDATE_SCHEDULE', client_key: 'k', schedule_id: 's', hash: 'h' })
    refusedOnlyAt(UPDATE, withField(update, 'schedule_id', undefined), 'schedule_id', 'should not be blank')
    valid(UPDATE, withField(update, 'interval_unit', 'day'))
    refusedOnlyAt(UPDATE, withField(update, 'interval_unit', 'fortnight'), 'interval_unit')
  })
  // 2.3: "Schedule actions (S2S CARD): ... `DELETE_SCHEDULE`, `PAUSE`, `RUN`, `SCHEDULE_INFO`".
  it.each(['delete-schedule', 'pause', 'run', 'schedule-info'])('%s requires schedule_id', (name) => {
    const body = fixture(`${name}-request.basic`)
    valid(`s2s-card/${name}-request`, body)
    refusedOnlyAt(`s2s-card/${name}-request`, withField(body, 'schedule_id', undefined), 'schedule_id')
  })
})
