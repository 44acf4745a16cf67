import { describe, expect, it } from 'vitest'
import type { SandboxMerchant, SandboxMid } from '../../src/core/engine/context.js'
import { midMode, modeServes, selectMid } from '../../src/core/payments/routing.js'
import { configWith, gatewayWith, hpfSession, paymentOf, pay, sessionBody } from './session-helpers.js'

const merchant = (mids: Partial<SandboxMid>[]): SandboxMerchant => ({
  key: 'm',
  password: 'password-123',
  notification_url: 'http://localhost/cb',
  mids: mids.map((m, i) => ({ id: `mid-${i + 1}`, ...m })) as [SandboxMid, ...SandboxMid[]],
})

const sale = { auth: false, moto: false, zeroAmount: false, currency: 'USD' }

describe('selectMid (unit)', () => {
  // Versioning 6.7.0: "Payment Mode gains `SMS/DMS` as the new default with `auth` routing: `auth=false` uses SMS and
  // SMS/DMS MIDs for a sale, `auth=true` uses DMS and SMS/DMS MIDs for an authorization"
  it.each([
    ['SMS', false, true],
    ['SMS', true, false],
    ['DMS', false, false],
    ['DMS', true, true],
    ['SMS/DMS', false, true],
    ['SMS/DMS', true, true],
  ] as const)('mode %s with auth=%s serves: %s', (mode, auth, serves) => {
    expect(modeServes(mode, auth)).toBe(serves)
  })

  // 6.7.0: "SMS/DMS as the new default"
  it('reads a MID without payment_mode as SMS/DMS', () => {
    expect(midMode({ id: 'x' })).toBe('SMS/DMS')
  })

  it('picks the first fitting MID in configuration order', () => {
    const m = merchant([{ payment_mode: 'DMS' }, { payment_mode: 'SMS' }, { payment_mode: 'SMS/DMS' }])
    expect(selectMid(m, sale)).toEqual({ ok: true, mid: m.mids[1] })
    expect(selectMid(m, { ...sale, auth: true })).toEqual({ ok: true, mid: m.mids[0] })
  })

  // 2.5: "routed only to MIDs with MOTO enabled, otherwise error 204025"
  it('names MOTO first, then mode/currency/method, then zero-amount support', () => {
    expect(selectMid(merchant([{ moto: false }]), { ...sale, moto: true })).toEqual({
      ok: false,
      reason: 'moto-not-enabled',
    })
    expect(selectMid(merchant([{ moto: true, payment_mode: 'DMS' }]), { ...sale, moto: true })).toEqual({
      ok: false,
      reason: 'no-mid',
    })
    expect(selectMid(merchant([{}]), { ...sale, auth: true, zeroAmount: true })).toEqual({
      ok: false,
      reason: 'zero-amount-unsupported',
    })
    const zero = merchant([{}, { zero_amount: true }])
    expect(selectMid(zero, { ...sale, auth: true, zeroAmount: true })).toEqual({
      ok: true,
      mid: zero.mids[1],
    })
  })

  it('honours the MID currencies and methods lists', () => {
    const m = merchant([{ currencies: ['EUR'] }, { methods: ['awcc'] }])
    expect(selectMid(m, sale)).toEqual({ ok: true, mid: m.mids[1] })
    expect(selectMid(m, { ...sale, methods: ['card'] })).toEqual({ ok: false, reason: 'no-mid' })
    expect(selectMid(m, { ...sale, currency: 'eur', methods: ['card'] })).toEqual({
      ok: true,
      mid: m.mids[0],
    })
  })
})

describe('routing through the API', () => {
  const noMid = {
    http_code: 400,
    error_code: 0,
    error_message: 'Request data is invalid.',
    errors: [{ error_code: 204002, error_message: 'Enabled merchant mappings or MIDs not found.' }],
  }

  // 6.7.0: "`auth=false` uses SMS and SMS/DMS MIDs", "`auth=true` uses DMS and SMS/DMS MIDs"
  it('an SMS-only merchant takes sales but no authorizations', async () => {
    const t = gatewayWith(configWith([{ payment_mode: 'SMS' }]))
    expect((await t.call('POST', '/api/v1/session', sessionBody())).status).toBe(200)
    const auth = await t.call('POST', '/api/v1/session', sessionBody({ auth: true }))
    expect(auth.status).toBe(400)
    expect(auth.body).toEqual(noMid)
  })

  it('a DMS-only merchant takes authorizations but no sales', async () => {
    const t = gatewayWith(configWith([{ payment_mode: 'DMS' }]))
    expect((await t.call('POST', '/api/v1/session', sessionBody({ auth: true }))).status).toBe(200)
    expect((await t.call('POST', '/api/v1/session', sessionBody())).body).toEqual(noMid)
    expect((await t.call('POST', '/api/v1/session', sessionBody({ operation: 'debit' }))).body).toEqual(noMid)
  })

  // States and transitions: "`PENDING` (authorized, not captured; in DMS mode every SALE stays here until captured)"
  it('an SMS/DMS merchant settles a sale and holds an authorization', async () => {
    const t = gatewayWith(configWith([{ payment_mode: 'SMS/DMS' }]))
    const saleToken = await hpfSession(t)
    const settled = await pay(t, saleToken)
    expect(settled.body.status).toBe('settled')
    expect(paymentOf(t, settled.body.payment_id)).toMatchObject({ auth: false, mid_id: 'mid-1' })
    const authToken = await hpfSession(t, { auth: true })
    const held = await pay(t, authToken)
    expect(held.body.status).toBe('pending')
    expect(paymentOf(t, held.body.payment_id)).toMatchObject({ auth: true, amount_captured: '0.00' })
  })

  it('routes an authorization to the DMS MID and a sale to the SMS MID of a mixed merchant', async () => {
    const t = gatewayWith(configWith([{ payment_mode: 'DMS' }, { payment_mode: 'SMS' }]))
    const held = await pay(t, await hpfSession(t, { auth: true }))
    expect(paymentOf(t, held.body.payment_id)).toMatchObject({ mid_id: 'mid-1', status: 'pending' })
    const sold = await pay(t, await hpfSession(t))
    expect(paymentOf(t, sold.body.payment_id)).toMatchObject({ mid_id: 'mid-2', status: 'settled' })
  })

  it('refuses a session in a currency no MID accepts', async () => {
    const t = gatewayWith(configWith([{ currencies: ['EUR'] }]))
    expect((await t.call('POST', '/api/v1/session', sessionBody())).body).toEqual(noMid)
    expect(
      (await t.call('POST', '/api/v1/session', sessionBody({ order: { currency: 'EUR' } }))).status,
    ).toBe(200)
  })
})
