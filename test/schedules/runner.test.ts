import { describe, expect, it } from 'vitest'
import { callbacksOf } from '../../src/core/callbacks/index.js'
import { validate } from '../../src/core/validation/index.js'
import {
  advanceTo,
  callbacksFor,
  chainOf,
  createSchedule,
  initialPayment,
  scheduleConfig,
  schedulesGateway,
  secondaries,
  when,
} from './helpers.js'

const MONTHLY = { interval_length: '1', interval_unit: 'month' }
const at = (y: number, m: number, d: number, h = 10) => Date.UTC(y, m - 1, d, h)
const amounts = (t: ReturnType<typeof schedulesGateway>, id: string) =>
  secondaries(t, id).map((p) => p.order.amount)

describe('scheduled payments on the virtual clock (POST /sandbox/clock/advance)', () => {
  // Issue 4: "Scheduled payments run when the virtual clock passes their due time ... each producing a
  // payment and its callbacks, in order and exactly once, even when the clock jumps over many periods at once."
  it('makes every payment of a 13-month jump, in order, exactly once, each with its callback', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    const initial = await initialPayment(t, { schedule_id: id })
    await callbacksOf(t.gateway.ctx).idle()
    const before = t.sent.length
    const r = await t.call('POST', '/sandbox/clock/advance', { seconds: 400 * 86400 })
    expect(r.status).toBe(200)
    await callbacksOf(t.gateway.ctx).idle()
    const made = secondaries(t, initial.id)
    expect(when(made)).toEqual([
      '2026-12-02 10:00:00',
      ...Array.from({ length: 12 }, (_, i) => `2027-${String(i + 1).padStart(2, '0')}-02 10:00:00`),
    ])
    expect(
      made.every((p) => p.status === 'settled' && p.schedule_id === id && p.order.amount === '10.00'),
    ).toBe(true)
    // One callback per scheduled payment, dated at its due time, nothing else sent.
    expect(t.sent.length - before).toBe(13)
    for (const payment of made) {
      const sent = callbacksFor(t, payment.id)
      expect(sent).toHaveLength(1)
      expect(sent[0]).toMatchObject({ type: 'recurring', status: 'success', order_status: 'settled' })
      expect(sent[0]?.date).toBe(when([payment])[0])
      expect(validate('callbacks/checkout-callback', sent[0]).valid).toBe(true)
    }
    expect(chainOf(t, initial.id)).toMatchObject({ runs_done: 13, next_run_at: at(2028, 1, 2) })
    // Advancing again runs nothing twice.
    expect((await t.call('POST', '/sandbox/clock/advance', { seconds: 1 })).status).toBe(200)
    expect(secondaries(t, initial.id)).toHaveLength(13)
  })

  // docs/rules.md#schedules: "`payments_count` (optional; unlimited when absent)".
  it('stops after payments_count payments: the chain is completed', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { interval_length: '10', interval_unit: 'day', payments_count: '3' })
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2027, 6, 1))
    expect(when(secondaries(t, initial.id))).toEqual([
      '2026-11-12 10:00:00',
      '2026-11-22 10:00:00',
      '2026-12-02 10:00:00',
    ])
    expect(chainOf(t, initial.id)).toMatchObject({ state: 'completed', runs_done: 3 })
    expect(chainOf(t, initial.id)?.next_run_at).toBeUndefined()
  })

  it('runs nothing before the due time, and the payment at the due time itself', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { interval_length: '1', interval_unit: 'week' })
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2026, 11, 9) - 1)
    expect(secondaries(t, initial.id)).toHaveLength(0)
    await t.clock.advance(1)
    expect(when(secondaries(t, initial.id))).toEqual(['2026-11-09 10:00:00'])
  })
})

describe('month ends and leap years (sandbox definition: keep the day, clamp to short months)', () => {
  it('day_of_month 31: Nov 30, Dec 31, Jan 31, Feb 28, Mar 31, Apr 30', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, {
      ...MONTHLY,
      delayed_first_payment: 'day_of_month',
      first_payment_day_of_month: '31',
    })
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2027, 5, 1))
    expect(when(secondaries(t, initial.id))).toEqual([
      '2026-11-30 10:00:00',
      '2026-12-31 10:00:00',
      '2027-01-31 10:00:00',
      '2027-02-28 10:00:00',
      '2027-03-31 10:00:00',
      '2027-04-30 10:00:00',
    ])
  })

  // docs/rules.md#schedules: CREATE_SCHEDULE takes `day_of_month`, which fixes the day of a monthly schedule.
  it('day_of_month 20 on a monthly schedule: Dec 20, Jan 20, Feb 20 after a payment on Nov 2', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { ...MONTHLY, day_of_month: '20' })
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2027, 3, 1))
    expect(when(secondaries(t, initial.id))).toEqual([
      '2026-12-20 10:00:00',
      '2027-01-20 10:00:00',
      '2027-02-20 10:00:00',
    ])
  })

  it('an initial payment on January 31: Feb 29 in the leap year 2028, then Mar 31', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    await advanceTo(t, at(2028, 1, 31))
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2028, 5, 1))
    expect(when(secondaries(t, initial.id))).toEqual([
      '2028-02-29 10:00:00',
      '2028-03-31 10:00:00',
      '2028-04-30 10:00:00',
    ])
  })

  it('a yearly schedule from 29 February 2028 runs on Feb 28 in common years and Feb 29 in 2032', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { interval_length: '12', interval_unit: 'month' })
    const initial = await initialPayment(t, { schedule_id: id, schedule_start_date: '2028-02-29' })
    await advanceTo(t, at(2032, 3, 1))
    expect(when(secondaries(t, initial.id))).toEqual([
      '2028-02-29 10:00:00',
      '2029-02-28 10:00:00',
      '2030-02-28 10:00:00',
      '2031-02-28 10:00:00',
      '2032-02-29 10:00:00',
    ])
  })
})

describe('the first scheduled payment (2.3 delayed_first_payment, 2.1 schedule_start_date)', () => {
  // 2.3 day_of_week: "Delay to the next occurrence of that weekday." 2026-11-02 is a Monday.
  it('day_of_week 5: the next Friday, then every week from it', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, {
      interval_length: '1',
      interval_unit: 'week',
      delayed_first_payment: 'day_of_week',
      first_payment_day_of_week: '5',
    })
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2026, 11, 21))
    expect(when(secondaries(t, initial.id))).toEqual([
      '2026-11-06 10:00:00',
      '2026-11-13 10:00:00',
      '2026-11-20 10:00:00',
    ])
  })

  // 2.3 delay_by_interval: "Delay of a custom length and unit, independent of the schedule interval."
  it('delay_by_interval 14 days, then weekly', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, {
      interval_length: '1',
      interval_unit: 'week',
      delayed_first_payment: 'delay_by_interval',
      first_payment_interval_length: '14',
      first_payment_interval_unit: 'day',
    })
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2026, 12, 1))
    expect(when(secondaries(t, initial.id))).toEqual([
      '2026-11-16 10:00:00',
      '2026-11-23 10:00:00',
      '2026-11-30 10:00:00',
    ])
  })

  // 2.1 schedule_start_date: "Overrides `delayed_first_payment`; later payments are counted from it plus the schedule interval."
  it('schedule_start_date overrides delayed_first_payment; later payments count from it', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, {
      ...MONTHLY,
      delayed_first_payment: 'day_of_week',
      first_payment_day_of_week: '5',
    })
    const initial = await initialPayment(t, { schedule_id: id, schedule_start_date: '2027-01-10' })
    await advanceTo(t, at(2027, 3, 11))
    expect(when(secondaries(t, initial.id))).toEqual([
      '2027-01-10 10:00:00',
      '2027-02-10 10:00:00',
      '2027-03-10 10:00:00',
    ])
  })

  it('a schedule_start_date already gone does not make up the dates before the initial payment', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    const initial = await initialPayment(t, { schedule_id: id, schedule_start_date: '2026-01-20' })
    await advanceTo(t, at(2027, 1, 1))
    expect(when(secondaries(t, initial.id))).toEqual(['2026-11-20 10:00:00', '2026-12-20 10:00:00'])
  })

  it('a schedule_start_date of today makes the first payment at once, as soon as the clock moves', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    const initial = await initialPayment(t, { schedule_id: id, schedule_start_date: '2026-11-02' })
    expect(secondaries(t, initial.id)).toHaveLength(0)
    expect((await t.call('POST', '/sandbox/clock/advance', { seconds: 1 })).status).toBe(200)
    expect(when(secondaries(t, initial.id))).toEqual(['2026-11-02 10:00:00'])
  })

  // Events: `first_recurring_date` (Protocol Mapping) in the initial payment's own callback.
  it("sends the first payment's date as first_recurring_date in the initial payment's callback", async () => {
    const t = schedulesGateway(scheduleConfig({ callback_fields: { first_recurring_date: true } }))
    const id = await createSchedule(t, {
      ...MONTHLY,
      delayed_first_payment: 'day_of_week',
      first_payment_day_of_week: '3',
    })
    const initial = await initialPayment(t, { schedule_id: id })
    await callbacksOf(t.gateway.ctx).idle()
    expect(callbacksFor(t, initial.id)[0]).toMatchObject({
      schedule_id: id,
      first_recurring_date: '2026-11-04',
    })
  })
})

describe('amounts: payment_schedule_amount (2.1) and trial periods (6.7.0, sandbox definition)', () => {
  // 2.1 payment_schedule_amount: "Amount of later scheduled payments when it differs from the initial amount".
  it('charges payment_schedule_amount instead of the initial amount', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { ...MONTHLY, payments_count: '2' })
    const initial = await initialPayment(t, { schedule_id: id, payment_schedule_amount: '25.00' })
    await advanceTo(t, at(2027, 3, 1))
    expect(initial.order.amount).toBe('10.00')
    expect(amounts(t, initial.id)).toEqual(['25.00', '25.00'])
  })

  it('charges trial_amount for the first trial_payments_count payments, which count towards payments_count', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, {
      ...MONTHLY,
      payments_count: '4',
      trial_payments_count: '2',
      trial_amount: '1',
    })
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2027, 12, 1))
    // trial_amount "1" is charged with the currency's decimals.
    expect(amounts(t, initial.id)).toEqual(['1.00', '1.00', '10.00', '10.00'])
    expect(chainOf(t, initial.id)?.runs.map((r) => r.trial)).toEqual([true, true, false, false])
  })

  it('a free trial (trial_amount 0) records its payments without charging them: no payment, no callback', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, {
      ...MONTHLY,
      payments_count: '3',
      trial_payments_count: '2',
      trial_amount: '0',
    })
    const initial = await initialPayment(t, { schedule_id: id })
    await callbacksOf(t.gateway.ctx).idle()
    const before = t.sent.length
    await advanceTo(t, at(2027, 12, 1))
    expect(when(secondaries(t, initial.id))).toEqual(['2027-02-02 10:00:00'])
    expect(t.sent.length - before).toBe(1)
    expect(chainOf(t, initial.id)).toMatchObject({
      state: 'completed',
      runs_done: 3,
      runs: [
        { n: 0, due_at: at(2026, 12, 2), amount: '0.00', trial: true, status: 'free' },
        { n: 1, due_at: at(2027, 1, 2), amount: '0.00', trial: true, status: 'free' },
        { n: 2, due_at: at(2027, 2, 2), amount: '10.00', trial: false, status: 'charged' },
      ],
    })
  })
})
