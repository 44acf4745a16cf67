import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/core/ports/clock.js'
import {
  configWith,
  counts,
  gatewayWith,
  hpfSession,
  messages,
  pay,
  sessionByToken,
} from './session-helpers.js'

const update = (
  t: ReturnType<typeof gatewayWith>,
  token: string | undefined,
  body: Record<string, unknown>,
) => t.call('PUT', '/api/v1/session/update', body, token === undefined ? {} : { Token: token })

describe('PUT /api/v1/session/update', () => {
  // Endpoints: "body holds only the changed fields among: order_amount, order_currency, recurring_init, req_token,
  // schedule_id, parameters, custom_data ... Session token, expiry and entered card data stay."
  it('changes only the fields sent and keeps token, expiry and entered card data', async () => {
    const t = gatewayWith()
    const token = await hpfSession(t, { custom_data: { a: 1 }, order: { description: 'Gift' } })
    const stored = sessionByToken(t, token)
    if (!stored) throw new Error('no session')
    const entered = {
      masked: '411111******1111',
      bin: '411111',
      last4: '1111',
      brand: 'visa',
      exp_month: '01',
      exp_year: '2030',
    }
    t.store.put('sessions', { ...stored, entered_card: entered })
    const r = await update(t, token, {
      order_amount: '25.50',
      recurring_init: true,
      req_token: true,
      schedule_id: 'sch-1',
      custom_data: { b: 2 },
    })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ result: 'accepted', token })
    const after = sessionByToken(t, token)
    expect(after?.request).toMatchObject({
      order: { number: 'order-1', amount: '25.50', currency: 'USD', description: 'Gift' },
      recurring_init: true,
      req_token: true,
      schedule_id: 'sch-1',
      custom_data: { b: 2 },
    })
    expect(after?.token).toBe(token)
    expect(after?.expires_at).toBe(stored.expires_at)
    expect(after?.entered_card).toEqual(entered)
  })

  // (sandbox) parameters change per method identifier: the methods sent are replaced, the others stay
  it('replaces the parameters of the methods sent, validated by their schemas', async () => {
    const t = gatewayWith()
    const token = await hpfSession(t, {
      parameters: { card: { descriptor: 'SHOP' }, awcc: { crypto_type: 'BTC' } },
    })
    const bad = await update(t, token, { parameters: { awcc: { network_type: 'eth' } } })
    expect(messages(bad.body)).toEqual(['parameters.awcc.crypto_type: This value should not be blank.'])
    const ok = await update(t, token, { parameters: { awcc: { crypto_type: 'USDT' } } })
    expect(ok.status).toBe(200)
    expect(sessionByToken(t, token)?.request.parameters).toEqual({
      card: { descriptor: 'SHOP' },
      awcc: { crypto_type: 'USDT' },
    })
  })

  // 2.1.1 amount: "string (decimal, dot separator)"; schema: the decimals of the currency's minor unit
  it('checks the amount against the currency after the update, whichever of the two changed', async () => {
    const t = gatewayWith()
    const token = await hpfSession(t)
    const amount = await update(t, token, { order_amount: '10.505' })
    expect(messages(amount.body)).toEqual([
      'order_amount: This value is not valid. This currency has 2 decimals: send them with a dot, for example 100.00.',
    ])
    // docs/rules.md#amounts: VND has no decimals; the session's 10.00 cannot stay when only the currency changes
    const currency = await update(t, token, { order_currency: 'VND', order_amount: '10.50' })
    expect(messages(currency.body)).toEqual([
      'order_amount: This value is not valid. This currency has no decimals: send an integer, for example 100.',
    ])
    // JPY is sent as 100.00 (UGX, JPY, KRW, CLP): the session's 10.00 is a JPY amount as the platform documents it
    expect((await update(t, token, { order_currency: 'JPY' })).status).toBe(200)
    expect((await update(t, token, { order_currency: 'JPY', order_amount: '1000.00' })).status).toBe(200)
    expect(sessionByToken(t, token)?.request.order).toMatchObject({ amount: '1000.00', currency: 'JPY' })
  })

  // 2.1.1: zero "is accepted only on an authorization-only request or on the request that initializes a recurring chain"
  it('re-checks the zero-amount rule against the updated session', async () => {
    const t = gatewayWith(configWith([{ zero_amount: true }]))
    const plain = await hpfSession(t)
    const zero = await update(t, plain, { order_amount: '0.00' })
    expect(zero.status).toBe(400)
    expect(messages(zero.body)).toEqual(['amount: This value should be greater than 0.'])
    expect(sessionByToken(t, plain)?.request.order).toMatchObject({ amount: '10.00' })

    const recurring = await hpfSession(t, { recurring_init: true, order: { amount: '0.00' } })
    const off = await update(t, recurring, { recurring_init: false })
    expect(messages(off.body)).toEqual(['amount: This value should be greater than 0.'])
    expect(sessionByToken(t, recurring)?.request.recurring_init).toBe(true)
  })

  // Endpoints: "Allowed until a payment exists for the session."
  it('is refused once a payment exists', async () => {
    const t = gatewayWith()
    const token = await hpfSession(t)
    await pay(t, token, { card_exp_month: '02' })
    const r = await update(t, token, { order_amount: '11.00' })
    expect(r.status).toBe(400)
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'Session can not be updated.' }],
    })
  })

  // Authentication 2: "`PUT /api/v1/session/update` authenticates with the header `Token`"; docs/rules.md#sessions:
  // with a bad Token it answers "403 and an HTML page, as the platform answers"
  it('answers a missing, unknown or expired Token with 403 and an HTML page, changing nothing', async () => {
    const t = gatewayWith()
    const token = await hpfSession(t, { session_expiry: 10 })
    const before = counts(t)
    await t.clock.advance(10 * MINUTE)
    for (const sent of [undefined, 'not-a-token', token]) {
      const r = await update(t, sent, { order_amount: '1.00' })
      expect(r.status).toBe(403)
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(r.raw).toContain('<title>Forbidden</title>')
    }
    expect(counts(t)).toEqual(before)
    expect(sessionByToken(t, token)?.request.order).toMatchObject({ amount: '10.00' })
  })

  // Endpoints: "body holds only the changed fields among" the seven listed
  it('refuses fields outside the seven and an empty body', async () => {
    const t = gatewayWith()
    const token = await hpfSession(t)
    const other = await update(t, token, { order_description: 'x' })
    expect(messages(other.body)).toEqual(['order_description: This field was not expected.'])
    const empty = await update(t, token, {})
    expect(empty.status).toBe(400)
  })
})
