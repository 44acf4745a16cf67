import { describe, expect, it } from 'vitest'
import { createSchedule, initialPayment, scheduleAction, schedulesGateway } from '../schedules/helpers.js'

const DAY = 86_400_000

// Interface 2.3 names the schedule states running, paused, deleted; docs/rules.md#control-api: the control API serves the terminal UI.
describe('support control routes: schedules', () => {
  it('lists schedules with their chains, state and next run', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { interval_length: '1', interval_unit: 'day', payments_count: '3' })
    const initial = await initialPayment(t, { schedule_id: id })
    const r = await t.call('GET', '/sandbox/schedules')
    expect(r.status).toBe(200)
    expect(r.body.total).toBe(1)
    const [schedule] = r.body.schedules as Record<string, unknown>[]
    expect(schedule).toMatchObject({
      id,
      state: 'running',
      merchant_key: 'demo-merchant',
      next_run: '2026-11-03 10:00:00',
    })
    expect(schedule?.chains).toEqual([
      expect.objectContaining({
        initial_payment_id: initial.id,
        state: 'active',
        runs_done: 0,
        next_run: '2026-11-03 10:00:00',
      }),
    ])
    expect((await t.call('GET', '/sandbox/schedules?state=paused')).body.total).toBe(0)
    expect((await t.call('GET', '/sandbox/schedules?state=asleep')).status).toBe(400)
  })

  it('pauses a schedule (no payment is made) and runs it again', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { interval_length: '1', interval_unit: 'day' })
    const initial = await initialPayment(t, { schedule_id: id })
    const paused = await t.call('POST', `/sandbox/schedules/${id}/pause`, {})
    expect(paused.body).toMatchObject({ id, state: 'paused' })
    expect(paused.body).not.toHaveProperty('next_run')
    await t.clock.advance(2 * DAY)
    expect(t.store.get('chains', initial.id)?.runs_done).toBe(0)
    const running = await t.call('POST', `/sandbox/schedules/${id}/run`, {})
    expect(running.body).toMatchObject({ id, state: 'running' })
    await t.clock.advance(DAY)
    expect(t.store.get('chains', initial.id)?.runs_done).toBe(1)
  })

  it('answers 404 for an unknown or deleted schedule, as the S2S actions answer "Schedule not found"', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { interval_length: '1', interval_unit: 'week' })
    await scheduleAction(t, 'DELETE_SCHEDULE', id)
    for (const target of [id, 'no-such-schedule']) {
      const r = await t.call('POST', `/sandbox/schedules/${target}/pause`, {})
      expect(r.status).toBe(404)
      expect(r.body).toEqual({ http_code: 404, error_code: 100000, error_message: 'Schedule not found.' })
    }
    expect(t.store.get('schedules', id)?.state).toBe('deleted')
  })

  it('imports an initial payment with its schedule paused and its chain, which runs once the schedule runs', async () => {
    const source = schedulesGateway()
    const id = await createSchedule(source, { interval_length: '1', interval_unit: 'day' })
    const initial = await initialPayment(source, { schedule_id: id })
    const doc = (await source.call('GET', `/sandbox/payments/${initial.id}/export`)).body
    expect(doc).toMatchObject({
      schedule: { id, state: 'running' },
      chain: { id: initial.id, schedule_id: id },
    })
    const target = schedulesGateway()
    const r = await target.call('POST', '/sandbox/import', doc)
    expect(r.body).toMatchObject({ schedule: 'imported paused', chain: 'imported' })
    await target.clock.advance(2 * DAY)
    expect(target.store.get('chains', initial.id)?.runs_done).toBe(0)
    await target.call('POST', `/sandbox/schedules/${id}/run`, {})
    await target.clock.advance(DAY)
    expect(target.store.get('chains', initial.id)?.runs_done).toBe(1)
  })
})
