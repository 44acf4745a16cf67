import request from 'supertest'
import { describe, expect, it } from 'vitest'
import type { EngineEvent } from '../../src/core/engine/events.js'
import { controlModule } from '../../src/core/control/index.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { createTestApp, samplePayment, sampleTransaction } from './app.js'

const START = Date.UTC(2026, 10, 2, 10, 0, 0) // createTestGateway's virtual clock
const invalid = (...items: string[]) => ({
  http_code: 400,
  error_code: 100000,
  error_message: 'Request data is invalid.',
  errors: items.map((error_message) => ({ error_code: 100000, error_message })),
})

describe('control API: health and clock', () => {
  // docs/rules.md#control-api: "Ready when `GET /sandbox/health` answers 200."
  it('answers health with the time and the kind of clock', async () => {
    const { app } = createTestApp()
    const r = await request(app).get('/sandbox/health').expect(200)
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8')
    // docs/rules.md#connections: the event streams and their limits (connections only when served over HTTP by serve).
    expect(r.body).toEqual({
      status: 'ok',
      now: '2026-11-02 10:00:00',
      clock: 'virtual',
      // docs/rules.md#retention: no merchant bound configured here, the demo page's default one.
      retention: {
        retain_demo: 50,
        kept: 0,
        kept_demo: 0,
        forgotten: 0,
        forgotten_demo: 0,
        forgotten_undelivered_callbacks: 0,
      },
      event_streams: {
        open: 0,
        max: 128,
        max_per_client: 32,
        drain_timeout_seconds: 30,
        stalled: 0,
        let_go: 0,
        refused: 0,
      },
    })
  })

  // docs/rules.md#control-api: "`POST /sandbox/clock/advance` with `{"seconds": n}`"; docs/rules.md#sessions: "expiry, retries and schedules follow it"
  it('advances the clock, runs what fell due in order, records the time and tells listeners', async () => {
    const { app, clock, store, gateway } = createTestApp()
    const ran: string[] = []
    clock.at(START + 30_000, () => void ran.push('30 s'))
    clock.at(START + 10_000, () => void ran.push('10 s'))
    clock.at(START + 3_600_000, () => void ran.push('1 h'))
    const events: EngineEvent[] = []
    gateway.ctx.events.subscribe((e) => events.push(e))
    const r = await request(app).post('/sandbox/clock/advance').send({ seconds: 90.5 }).expect(200)
    expect(r.body).toEqual({
      mode: 'virtual',
      now: '2026-11-02 10:01:30',
      now_ms: START + 90_500,
      advanced_seconds: 90.5,
    })
    expect(ran).toEqual(['10 s', '30 s'])
    expect(store.get('meta', 'meta')).toMatchObject({ clock_ms: START + 90_500 })
    expect(events).toEqual([{ type: 'clock', now: START + 90_500, at: START + 90_500 }])
    const now = await request(app).get('/sandbox/clock').expect(200)
    expect(now.body).toEqual({ mode: 'virtual', now: '2026-11-02 10:01:30', now_ms: START + 90_500 })
  })

  // docs/rules.md#errors: validation failures add errors[] with "field path, colon, message"
  it.each([
    [{}, 'seconds: This value should not be blank.'],
    [{ seconds: 0 }, 'seconds: This value should be greater than 0.'],
    [{ seconds: -5 }, 'seconds: This value should be greater than 0.'],
    [{ seconds: '60' }, 'seconds: This value should be of type number.'],
    [{ seconds: 1e12 }, 'seconds: This value should be less than or equal to 315576000.'],
    [{ seconds: 60, minutes: 1 }, 'minutes: This field was not expected.'],
  ])('refuses %j and leaves the clock alone', async (body, message) => {
    const { app, clock, store } = createTestApp()
    const r = await request(app).post('/sandbox/clock/advance').send(body).expect(400)
    expect(r.body).toEqual(invalid(message))
    expect(clock.now()).toBe(START)
    expect(store.count('meta')).toBe(0)
  })

  it('refuses a body that is not a JSON object', async () => {
    const { app, clock } = createTestApp()
    const r = await request(app)
      .post('/sandbox/clock/advance')
      .set('content-type', 'application/json')
      .send('[60]')
      .expect(400)
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 100000,
      error_message: 'Request body could not be parsed.',
    })
    expect(clock.now()).toBe(START)
  })
})

describe('control API: reset and merchants', () => {
  // docs/rules.md#control-api: "`POST /sandbox/reset`"; the merchants come from the configuration, not the store
  it('clears every record, keeps the merchants and the clock', async () => {
    const { app, store, clock, gateway } = createTestApp()
    store.put('payments', samplePayment(1))
    store.put('transactions', sampleTransaction('pay-001', 1, 'sale'))
    await clock.advance(5_000)
    const events: EngineEvent[] = []
    gateway.ctx.events.subscribe((e) => events.push(e))
    const r = await request(app).post('/sandbox/reset').expect(200)
    expect(r.body).toEqual({ status: 'reset', now: '2026-11-02 10:00:05' })
    expect(store.count('payments') + store.count('transactions')).toBe(0)
    expect(store.get('meta', 'meta')).toEqual({ id: 'meta', seq: 0, clock_ms: START + 5_000 })
    expect(events).toEqual([{ type: 'reset', at: START + 5_000 }])
    const merchants = await request(app).get('/sandbox/merchants').expect(200)
    expect(merchants.body.merchants.map((m: { key: string }) => m.key)).toEqual(['demo-merchant'])
    await request(app).post('/sandbox/reset').send({}).expect(200)
  })

  it('refuses a reset with unexpected fields and keeps everything', async () => {
    const { app, store } = createTestApp()
    store.put('payments', samplePayment(1))
    const r = await request(app).post('/sandbox/reset').send({ keep: 'merchants' }).expect(400)
    expect(r.body).toEqual(invalid('keep: This field was not expected.'))
    expect(store.count('payments')).toBe(1)
  })

  it('lists merchants with their MIDs and mapping, never a password', async () => {
    const { app } = createTestApp()
    const r = await request(app).get('/sandbox/merchants').expect(200)
    expect(r.body).toEqual({
      merchants: [
        {
          key: 'demo-merchant',
          name: 'Demo merchant',
          notification_url: 'http://localhost:3000/payment/callback',
          mids: [
            {
              id: 'demo-mid',
              name: 'Demo MID (SMS/DMS)',
              payment_mode: 'SMS/DMS',
              moto: false,
              card_on_file: false,
              zero_amount: false,
              override_link_target: null,
            },
          ],
          protocol_mapping: {},
          wallets: [],
        },
      ],
    })
    expect(r.text).not.toContain('demo-password')
    expect(r.text).not.toContain('password')
  })

  // docs/rules.md#control-api: "Control API under `/sandbox/...`, never mixed into `/api/v1`"
  it('serves every control route under /sandbox/ and is part of DEFAULT_MODULES', () => {
    const { gateway } = createTestApp([controlModule])
    expect(gateway.routes()).toEqual([
      'GET /sandbox/health',
      'GET /sandbox/clock',
      'POST /sandbox/clock/advance',
      'POST /sandbox/reset',
      'GET /sandbox/merchants',
      'POST /sandbox/merchants',
      'DELETE /sandbox/merchants/:key',
      'GET /sandbox/payments',
      'GET /sandbox/payments/:id',
    ])
    expect(DEFAULT_MODULES).toContain(controlModule)
  })
})
