import { describe, expect, it } from 'vitest'
import { validate } from '../../src/core/validation/index.js'
import {
  configWith,
  counts,
  DEMO,
  gatewayWith,
  messages,
  sessionBody,
  sessionByToken,
} from './session-helpers.js'

describe('POST /api/v1/session/token', () => {
  // decisions.md 2: "session token: `{"token": "..."}`"; Endpoints: "used for Hosted Payment Fields"
  it('answers the session token and stores a Hosted Payment Fields session', async () => {
    const t = gatewayWith()
    const r = await t.call('POST', '/api/v1/session/token', sessionBody({ operation: 'debit' }))
    expect(r.status).toBe(200)
    expect(Object.keys(r.body)).toEqual(['token'])
    expect(validate('checkout/session-token-response', r.body).valid).toBe(true)
    expect(sessionByToken(t, r.body.token as string)).toMatchObject({
      merchant_key: DEMO.key,
      operation: 'debit',
      hosted_fields: true,
      status: 'open',
    })
    expect(t.store.count('payments')).toBe(0)
  })

  // 2.1.2 customer.ip: "When omitted, the IP of the caller of the session-token endpoint is recorded. When given, it is stored"
  it('records customer.ip, or the caller address when it is omitted', async () => {
    const t = gatewayWith()
    const given = await t.call(
      'POST',
      '/api/v1/session/token',
      sessionBody({ customer: { ip: '2001:db8::1' } }),
    )
    expect(sessionByToken(t, given.body.token as string)?.customer_ip).toBe('2001:db8::1')
    const omitted = await t.call('POST', '/api/v1/session/token', sessionBody())
    expect(sessionByToken(t, omitted.body.token as string)?.customer_ip).toBe(t.callerIp)
  })

  // 2.1.2: customer.ip is an IP address
  it('refuses a customer.ip that is not an IP address', async () => {
    const t = gatewayWith()
    const r = await t.call('POST', '/api/v1/session/token', sessionBody({ customer: { ip: 'localhost' } }))
    expect(messages(r.body)).toEqual(['customer.ip: This is not a valid IP address.'])
  })

  // Endpoints: "Same shape as the session request plus `customer.ip`": the same signature and rules apply
  it('applies the session rules: hash, methods, MOTO', async () => {
    const t = gatewayWith(configWith([{ moto: false }]))
    const before = counts(t)
    const wrong = await t.call('POST', '/api/v1/session/token', { ...sessionBody(), hash: 'a'.repeat(40) })
    expect(wrong.body).toEqual({ http_code: 401, error_code: 100000, error_message: 'Hash is not valid.' })
    const method = await t.call('POST', '/api/v1/session/token', sessionBody({ methods: ['nope'] }))
    expect(messages(method.body)).toEqual(['methods[0]: The value you selected is not a valid choice.'])
    const moto = await t.call('POST', '/api/v1/session/token', sessionBody({ moto_type: 'email_moto' }))
    expect(moto.body.error_code).toBe(204025)
    expect(counts(t)).toEqual(before)
  })

  // 2.1 auth: "Only valid for `purchase`."
  it('refuses auth=true on a debit session', async () => {
    const t = gatewayWith()
    const r = await t.call('POST', '/api/v1/session/token', sessionBody({ operation: 'debit', auth: true }))
    expect(r.status).toBe(400)
    expect(messages(r.body)[0]).toMatch(/^auth: /)
  })
})
