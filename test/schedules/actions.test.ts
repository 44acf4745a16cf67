import { describe, expect, it } from 'vitest'
import { s2sCardSignatures } from '../../src/core/signatures/index.js'
import { validate } from '../../src/core/validation/index.js'
import { storeSnapshot } from '../helpers/payments.js'
import { createSchedule, DEMO, OTHER, s2s, scheduleAction, schedulesGateway } from './helpers.js'

const MONTHLY = { interval_length: '1', interval_unit: 'month', payments_count: '12' }
// Errors: "S2S CARD DELETE_SCHEDULE or UPDATE_SCHEDULE with unknown `schedule_id` | 400 | 100000 | Schedule not found"
const NOT_FOUND = { result: 'ERROR', http_code: 400, error_code: 100000, error_message: 'Schedule not found' }
// Errors: "`delays` sent on CREATE_SCHEDULE or UPDATE_SCHEDULE | not shown | not shown | Parameter is deprecated."
const DEPRECATED = {
  result: 'ERROR',
  http_code: 400,
  error_code: 100000,
  error_message: 'Parameter is deprecated.',
}

const info = async (t: ReturnType<typeof schedulesGateway>, id: string) =>
  (await scheduleAction(t, 'SCHEDULE_INFO', id)).body

describe('CREATE_SCHEDULE and SCHEDULE_INFO (2.3, docs/rules.md#beyond-the-interface)', () => {
  // docs/rules.md#schedules: "`SCHEDULE_INFO` answers the schedule's fields, its state (running, paused) and `delays: null`."
  it('creates a running schedule and answers its fields as sent, its state and delays: null', async () => {
    const t = schedulesGateway()
    const r = await s2s(t, {
      action: 'CREATE_SCHEDULE',
      client_key: DEMO.key,
      name: 'Monthly on the 15th with a free trial',
      ...MONTHLY,
      delayed_first_payment: 'day_of_month',
      first_payment_day_of_month: '15',
      trial_payments_count: '2',
      trial_amount: '0',
      hash: s2sCardSignatures.createSchedule(DEMO.password),
    })
    expect(r.status).toBe(200)
    const id = r.body.schedule_id as string
    expect(r.body).toEqual({ action: 'CREATE_SCHEDULE', result: 'SUCCESS', schedule_id: id })
    expect(validate('s2s-card/create-schedule-response', r.body).valid).toBe(true)
    const answer = await info(t, id)
    expect(answer).toEqual({
      action: 'SCHEDULE_INFO',
      result: 'SUCCESS',
      schedule_id: id,
      name: 'Monthly on the 15th with a free trial',
      ...MONTHLY,
      delayed_first_payment: 'day_of_month',
      first_payment_day_of_month: '15',
      trial_payments_count: '2',
      trial_amount: '0',
      state: 'running',
      // docs/rules.md#schedules: "`SCHEDULE_INFO` answers `paused` (`Y`/`N`)"
      paused: 'N',
      delays: null,
    })
    expect(validate('s2s-card/schedule-info-response', answer).valid).toBe(true)
  })

  // 2.3: delayed_first_payment "none (default)"; the extra parameters of the other values are ignored.
  it('answers delayed_first_payment none by default and keeps no extra parameter of another value', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { ...MONTHLY, first_payment_day_of_week: '3' })
    const answer = await info(t, id)
    expect(answer.delayed_first_payment).toBe('none')
    expect(answer).not.toHaveProperty('first_payment_day_of_week')
  })

  // docs/rules.md#s2s-card-formulas: "CREATE_SCHEDULE | md5(upper(rev(password)))"
  it('refuses a wrong hash and an unknown client_key, creating nothing', async () => {
    const t = schedulesGateway()
    const before = storeSnapshot(t)
    const body = { action: 'CREATE_SCHEDULE', client_key: DEMO.key, name: 'x', ...MONTHLY }
    const wrong = await s2s(t, { ...body, hash: s2sCardSignatures.createSchedule(OTHER.password) })
    expect(wrong.status).toBe(401)
    expect(wrong.body).toMatchObject({ result: 'ERROR', error_message: 'Hash is not valid.' })
    const unknown = await s2s(t, { ...body, client_key: 'nobody', hash: 'x' })
    expect(unknown.status).toBe(401)
    expect(storeSnapshot(t)).toBe(before)
  })

  it('refuses a delayed_first_payment without the parameter it needs, at that field', async () => {
    const t = schedulesGateway()
    const r = await s2s(t, {
      action: 'CREATE_SCHEDULE',
      client_key: DEMO.key,
      name: 'x',
      ...MONTHLY,
      delayed_first_payment: 'day_of_week',
      hash: s2sCardSignatures.createSchedule(DEMO.password),
    })
    expect(r.status).toBe(400)
    expect(r.body.error_message).toBe('Request data is invalid.')
    expect(JSON.stringify(r.body.errors)).toContain('first_payment_day_of_week')
    expect(t.store.count('schedules')).toBe(0)
  })
})

describe('the retired delays parameter (Errors, 6.7.0)', () => {
  it.each([
    ['delays', '1,2,3'],
    ['delays[0]', '5'],
  ])('refuses %s on CREATE_SCHEDULE with the exact message, creating nothing', async (field, value) => {
    const t = schedulesGateway()
    const r = await s2s(t, {
      action: 'CREATE_SCHEDULE',
      client_key: DEMO.key,
      name: 'x',
      ...MONTHLY,
      [field]: value,
      hash: s2sCardSignatures.createSchedule(DEMO.password),
    })
    expect(r.body).toEqual(DEPRECATED)
    expect(t.store.count('schedules')).toBe(0)
  })

  it('refuses delays on UPDATE_SCHEDULE with the exact message, changing nothing', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    const before = storeSnapshot(t)
    const r = await scheduleAction(t, 'UPDATE_SCHEDULE', id, { delays: '3', interval_length: '2' })
    expect(r.body).toEqual(DEPRECATED)
    expect(storeSnapshot(t)).toBe(before)
  })
})

describe('UPDATE_SCHEDULE: "only the parameters sent are changed" (2.3)', () => {
  it('changes the parameters sent and keeps every other', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { ...MONTHLY, trial_payments_count: '1', trial_amount: '1.00' })
    const r = await scheduleAction(t, 'UPDATE_SCHEDULE', id, { interval_length: '2' })
    expect(r.body).toEqual({ action: 'UPDATE_SCHEDULE', result: 'SUCCESS', schedule_id: id })
    expect(validate('s2s-card/update-schedule-response', r.body).valid).toBe(true)
    expect(await info(t, id)).toMatchObject({
      name: 'Plan',
      interval_length: '2',
      interval_unit: 'month',
      payments_count: '12',
      trial_payments_count: '1',
      trial_amount: '1.00',
      delayed_first_payment: 'none',
      state: 'running',
    })
  })

  it('accepts a request that changes nothing, and a new first-payment rule drops the old one', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, {
      ...MONTHLY,
      delayed_first_payment: 'day_of_week',
      first_payment_day_of_week: '5',
    })
    const unchanged = await info(t, id)
    expect((await scheduleAction(t, 'UPDATE_SCHEDULE', id)).body.result).toBe('SUCCESS')
    expect(await info(t, id)).toEqual(unchanged)
    await scheduleAction(t, 'UPDATE_SCHEDULE', id, { delayed_first_payment: 'none' })
    const after = await info(t, id)
    expect(after.delayed_first_payment).toBe('none')
    expect(after).not.toHaveProperty('first_payment_day_of_week')
  })

  it('refuses a trial count without its amount (they are sent together)', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    const r = await scheduleAction(t, 'UPDATE_SCHEDULE', id, { trial_payments_count: '2' })
    expect(r.body.error_message).toBe('Request data is invalid.')
    expect(await info(t, id)).not.toHaveProperty('trial_payments_count')
  })
})

describe('schedule states: running, paused, deleted', () => {
  it('PAUSE makes it paused, RUN running again; repeating either changes nothing', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    for (const [action, state] of [
      ['PAUSE', 'paused'],
      ['PAUSE', 'paused'],
      ['RUN', 'running'],
      ['RUN', 'running'],
    ] as const) {
      const r = await scheduleAction(t, action, id)
      expect(r.body).toEqual({ action, result: 'SUCCESS', schedule_id: id })
      expect(validate(`s2s-card/${action.toLowerCase()}-response`, r.body).valid).toBe(true)
      expect((await info(t, id)).state).toBe(state)
    }
  })

  it('DELETE_SCHEDULE deletes it for good: every action then answers Schedule not found', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    const r = await scheduleAction(t, 'DELETE_SCHEDULE', id)
    expect(r.body).toEqual({ action: 'DELETE_SCHEDULE', result: 'SUCCESS', schedule_id: id })
    expect(t.store.get('schedules', id)?.state).toBe('deleted')
    for (const action of ['DELETE_SCHEDULE', 'UPDATE_SCHEDULE', 'PAUSE', 'RUN', 'SCHEDULE_INFO']) {
      expect((await scheduleAction(t, action, id)).body).toEqual(NOT_FOUND)
    }
  })
})

describe('unknown schedule_id (Errors)', () => {
  // Errors: "S2S CARD DELETE_SCHEDULE or UPDATE_SCHEDULE with unknown `schedule_id` | 400 | 100000 | Schedule not found";
  // errors.json S2S_CARD_SCHEDULE_NOT_FOUND_OTHER_ACTIONS: the other schedule actions answer alike.
  it.each(['DELETE_SCHEDULE', 'UPDATE_SCHEDULE', 'PAUSE', 'RUN', 'SCHEDULE_INFO'])(
    '%s answers 400 100000 "Schedule not found" and changes nothing',
    async (action) => {
      const t = schedulesGateway()
      await createSchedule(t, MONTHLY)
      const before = storeSnapshot(t)
      const r = await scheduleAction(t, action, 'no-such-schedule')
      expect(r.status).toBe(400)
      expect(r.body).toEqual(NOT_FOUND)
      expect(storeSnapshot(t)).toBe(before)
    },
  )

  it('DESCHEDULE answers it too', async () => {
    const t = schedulesGateway()
    const r = await scheduleAction(t, 'DESCHEDULE', 'no-such-schedule', {
      recurring_first_trans_id: 'p-1',
      recurring_token: 'tok',
    })
    expect(r.body).toEqual(NOT_FOUND)
  })

  it("answers another merchant's schedule exactly as an unknown one", async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    const r = await scheduleAction(t, 'UPDATE_SCHEDULE', id, { name: 'mine now' }, OTHER)
    expect(r.body).toEqual(NOT_FOUND)
    expect((await info(t, id)).name).toBe('Plan')
  })

  // docs/rules.md#s2s-card-formulas: "other schedule actions | md5(upper(rev(schedule_id + password)))"
  it('checks the hash over schedule_id + password before looking the schedule up', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, MONTHLY)
    const r = await scheduleAction(t, 'PAUSE', id, {
      hash: s2sCardSignatures.schedule('other-id', DEMO.password),
    })
    expect(r.status).toBe(401)
    expect((await info(t, id)).state).toBe('running')
    const unknown = await scheduleAction(t, 'PAUSE', 'x', {
      hash: s2sCardSignatures.createSchedule(DEMO.password),
    })
    expect(unknown.status).toBe(401)
  })
})
