import { describe, expect, it } from 'vitest'
import { createSeededIds, createVirtualClock } from '../../src/adapters/index.js'
import { createGateway } from '../../src/core/engine/gateway.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { recordingTransport } from '../helpers/engine.js'
import {
  advanceTo,
  chainOf,
  createSchedule,
  initialPayment,
  scheduleAction,
  scheduleConfig,
  schedulesGateway,
  secondaries,
  when,
} from './helpers.js'

const MONTHLY = { interval_length: '1', interval_unit: 'month' }
const WEEKLY = { interval_length: '1', interval_unit: 'week' }
const at = (y: number, m: number, d: number, h = 10) => Date.UTC(y, m - 1, d, h)
const pair = (initial: { id: string; recurring?: { token?: string } }) => ({
  recurring_first_trans_id: initial.id,
  recurring_token: String(initial.recurring?.token),
})
// errors.json S2S_CARD_DESCHEDULE_INCORRECT_TRANSACTION (as RECURRING_SALE with an unknown initial pair).
const INCORRECT = {
  result: 'ERROR',
  http_code: 400,
  error_code: 100000,
  error_message: 'Incorrect transaction',
}

describe('PAUSE and RUN', () => {
  // S2S CARD PAUSE schema: "no payment is made until RUN"; RUN schema: "Payments due while paused are not
  // made up: the next one is counted from the resume date."
  it('makes no payment while paused, and counts the next one from the resume date', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2026, 12, 5))
    await scheduleAction(t, 'PAUSE', id)
    await advanceTo(t, at(2027, 3, 15))
    expect(when(secondaries(t, initial.id))).toEqual(['2026-12-02 10:00:00'])
    await scheduleAction(t, 'RUN', id)
    await advanceTo(t, at(2027, 6, 1))
    expect(when(secondaries(t, initial.id))).toEqual([
      '2026-12-02 10:00:00',
      '2027-04-15 10:00:00',
      '2027-05-15 10:00:00',
    ])
  })

  it('keeps the calendar when resumed before anything fell due', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    const initial = await initialPayment(t, { schedule_id: id })
    await scheduleAction(t, 'PAUSE', id)
    await advanceTo(t, at(2026, 11, 20))
    await scheduleAction(t, 'RUN', id)
    await advanceTo(t, at(2027, 1, 3))
    expect(when(secondaries(t, initial.id))).toEqual(['2026-12-02 10:00:00', '2027-01-02 10:00:00'])
  })

  it('starts the chain of an initial payment made while paused, and runs it after RUN', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, WEEKLY)
    await scheduleAction(t, 'PAUSE', id)
    const initial = await initialPayment(t, { schedule_id: id })
    expect(chainOf(t, initial.id)?.next_run_at).toBe(at(2026, 11, 9))
    await advanceTo(t, at(2026, 11, 10))
    expect(secondaries(t, initial.id)).toHaveLength(0)
    await scheduleAction(t, 'RUN', id)
    await advanceTo(t, at(2026, 11, 18))
    expect(when(secondaries(t, initial.id))).toEqual(['2026-11-17 10:00:00'])
  })
})

describe('DELETE_SCHEDULE and DESCHEDULE', () => {
  it('DELETE_SCHEDULE stops every chain of the schedule', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, WEEKLY)
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2026, 11, 10))
    await scheduleAction(t, 'DELETE_SCHEDULE', id)
    await advanceTo(t, at(2027, 2, 1))
    expect(secondaries(t, initial.id)).toHaveLength(1)
    expect(chainOf(t, initial.id)).toMatchObject({ state: 'stopped', runs_done: 1 })
  })

  // 2.3: DESCHEDULE (schema: "detaches one recurring chain from a schedule; the schedule and its other chains are unchanged").
  it('DESCHEDULE detaches one chain; the other chain of the schedule goes on', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, WEEKLY)
    const first = await initialPayment(t, { schedule_id: id })
    const second = await initialPayment(t, { schedule_id: id, order: { number: 'order-2' } })
    const r = await scheduleAction(t, 'DESCHEDULE', id, pair(first))
    expect(r.body).toEqual({ action: 'DESCHEDULE', result: 'SUCCESS', schedule_id: id })
    await advanceTo(t, at(2026, 11, 24))
    expect(secondaries(t, first.id)).toHaveLength(0)
    expect(when(secondaries(t, second.id))).toEqual([
      '2026-11-09 10:00:00',
      '2026-11-16 10:00:00',
      '2026-11-23 10:00:00',
    ])
    expect(chainOf(t, first.id)?.state).toBe('descheduled')
    expect((await scheduleAction(t, 'SCHEDULE_INFO', id)).body.state).toBe('running')
    // Once detached, the pair no longer names a chain of the schedule.
    expect((await scheduleAction(t, 'DESCHEDULE', id, pair(first))).body).toEqual(INCORRECT)
  })

  it('accepts the alias recurring_init_trans_id (docs/rules.md#beyond-the-interface)', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, WEEKLY)
    const initial = await initialPayment(t, { schedule_id: id })
    const { recurring_token } = pair(initial)
    const r = await scheduleAction(t, 'DESCHEDULE', id, {
      recurring_init_trans_id: initial.id,
      recurring_token,
    })
    expect(r.body.result).toBe('SUCCESS')
  })

  it('refuses a wrong token, an unknown payment and a chain of another schedule with "Incorrect transaction"', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, WEEKLY)
    const otherSchedule = await createSchedule(t, WEEKLY)
    const initial = await initialPayment(t, { schedule_id: id })
    const attempts = [
      { ...pair(initial), recurring_token: 'wrong' },
      { ...pair(initial), recurring_first_trans_id: 'no-such-payment' },
    ]
    for (const extra of attempts)
      expect((await scheduleAction(t, 'DESCHEDULE', id, extra)).body).toEqual(INCORRECT)
    expect((await scheduleAction(t, 'DESCHEDULE', otherSchedule, pair(initial))).body).toEqual(INCORRECT)
    expect(chainOf(t, initial.id)?.state).toBe('active')
  })
})

describe('UPDATE_SCHEDULE on running chains', () => {
  it('a new interval applies from the last payment, keeping the day', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2026, 12, 3))
    // docs/rules.md#beyond-the-interface: `day` or `month` only; a week is 7 days.
    await scheduleAction(t, 'UPDATE_SCHEDULE', id, { interval_unit: 'day', interval_length: '7' })
    await advanceTo(t, at(2026, 12, 17))
    expect(when(secondaries(t, initial.id))).toEqual([
      '2026-12-02 10:00:00',
      '2026-12-09 10:00:00',
      '2026-12-16 10:00:00',
    ])
  })

  it('from every 7 days to monthly: the next payment is a month after the last one, on its day', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, {
      ...WEEKLY,
      delayed_first_payment: 'day_of_week',
      first_payment_day_of_week: '5',
    })
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2026, 11, 14))
    await scheduleAction(t, 'UPDATE_SCHEDULE', id, { interval_unit: 'month', interval_length: '1' })
    await advanceTo(t, at(2027, 1, 14))
    expect(when(secondaries(t, initial.id))).toEqual([
      '2026-11-06 10:00:00',
      '2026-11-13 10:00:00',
      '2026-12-13 10:00:00',
      '2027-01-13 10:00:00',
    ])
  })

  it('a new first-payment rule moves a first payment not yet made', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    const initial = await initialPayment(t, { schedule_id: id })
    await scheduleAction(t, 'UPDATE_SCHEDULE', id, {
      delayed_first_payment: 'delay_by_interval',
      first_payment_interval_length: '3',
      first_payment_interval_unit: 'day',
    })
    await advanceTo(t, at(2026, 12, 6))
    expect(when(secondaries(t, initial.id))).toEqual(['2026-11-05 10:00:00', '2026-12-05 10:00:00'])
  })

  it('a lower payments_count completes the chain; a higher one lets it go on', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { ...WEEKLY, payments_count: '5' })
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2026, 11, 17))
    await scheduleAction(t, 'UPDATE_SCHEDULE', id, { payments_count: '2' })
    expect(chainOf(t, initial.id)?.state).toBe('completed')
    await advanceTo(t, at(2026, 12, 1))
    expect(secondaries(t, initial.id)).toHaveLength(2)
    await scheduleAction(t, 'UPDATE_SCHEDULE', id, { payments_count: '3' })
    await advanceTo(t, at(2026, 12, 31))
    expect(when(secondaries(t, initial.id))).toEqual([
      '2026-11-09 10:00:00',
      '2026-11-16 10:00:00',
      '2026-12-07 10:00:00',
    ])
  })

  it('a new trial applies from the next payment', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, WEEKLY)
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2026, 11, 10))
    await scheduleAction(t, 'UPDATE_SCHEDULE', id, { trial_payments_count: '2', trial_amount: '3.50' })
    await advanceTo(t, at(2026, 11, 24))
    expect(secondaries(t, initial.id).map((p) => p.order.amount)).toEqual(['10.00', '3.50', '10.00'])
  })
})

describe('intervals beyond any calendar', () => {
  // interval_length is "a positive integer" with no upper limit: a date past year 275760 never comes.
  it('keeps a chain whose next date is out of range idle, without failing, until an update brings it back', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { interval_length: '99999999999', interval_unit: 'month' })
    const initial = await initialPayment(t, { schedule_id: id })
    expect(chainOf(t, initial.id)).toMatchObject({ state: 'active' })
    expect(chainOf(t, initial.id)?.next_run_at).toBeUndefined()
    const update = await scheduleAction(t, 'UPDATE_SCHEDULE', id, {
      interval_length: '1',
      delayed_first_payment: 'delay_by_interval',
      first_payment_interval_length: '99999999999',
      first_payment_interval_unit: 'week',
    })
    expect(update.status).toBe(200)
    await scheduleAction(t, 'UPDATE_SCHEDULE', id, { delayed_first_payment: 'none' })
    await advanceTo(t, at(2026, 12, 3))
    expect(when(secondaries(t, initial.id))).toEqual(['2026-12-02 10:00:00'])
  })
})

describe('restart and reset', () => {
  // Issue 4: "persist the chain's `next_run_at` and `runs_done` in the store so a restart does not double-run".
  it('a gateway started on the same store goes on from the stored chain, without running a payment twice', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, WEEKLY)
    const initial = await initialPayment(t, { schedule_id: id })
    await advanceTo(t, at(2026, 11, 17))
    t.gateway.stop()
    const clock = createVirtualClock(t.clock.now())
    const restarted = createGateway(
      {
        store: t.store,
        clock,
        ids: createSeededIds('restart'),
        transport: recordingTransport().transport,
        logger: silentLogger,
        config: scheduleConfig(),
      },
      DEFAULT_MODULES,
    )
    await clock.advance(at(2026, 12, 1) - clock.now())
    await t.clock.advance(30 * 86400 * 1000)
    expect(when(secondaries(t, initial.id))).toEqual([
      '2026-11-09 10:00:00',
      '2026-11-16 10:00:00',
      '2026-11-23 10:00:00',
      '2026-11-30 10:00:00',
    ])
    expect(chainOf(t, initial.id)).toMatchObject({ runs_done: 4, next_run_at: at(2026, 12, 7) })
    restarted.stop()
  })

  it('POST /sandbox/reset forgets every schedule and chain; advancing then runs nothing', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, WEEKLY)
    await initialPayment(t, { schedule_id: id })
    expect((await t.call('POST', '/sandbox/reset', {})).status).toBe(200)
    await advanceTo(t, at(2027, 1, 1))
    expect([t.store.count('payments'), t.store.count('chains'), t.clock.pending()]).toEqual([0, 0, 0])
    expect((await scheduleAction(t, 'SCHEDULE_INFO', id)).body.error_message).toBe('Schedule not found')
  })
})
