import { describe, expect, it } from 'vitest'
import { validate } from '../../src/core/validation/index.js'
import {
  configWith,
  counts,
  DEMO,
  gatewayWith,
  messages,
  tokenBody,
  sessionByToken,
} from './session-helpers.js'

describe('POST /api/v1/session/token', () => {
  // docs/rules.md#responses: "session token: `{"token": "..."}`"; Endpoints: "used for Hosted Payment Fields"
  it('answers the session token and stores a Hosted Payment Fields session', async () => {
    const t = gatewayWith()
    const r = await t.call('POST', '/api/v1/session/token', tokenBody({ operation: 'debit' }))
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
      tokenBody({ customer: { ip: '2001:db8::1' } }),
    )
    expect(sessionByToken(t, given.body.token as string)?.customer_ip).toBe('2001:db8::1')
    const omitted = await t.call('POST', '/api/v1/session/token', tokenBody())
    expect(sessionByToken(t, omitted.body.token as string)?.customer_ip).toBe(t.callerIp)
  })

  // 2.1.2: customer.ip is an IP address
  it('refuses a customer.ip that is not an IP address', async () => {
    const t = gatewayWith()
    const r = await t.call('POST', '/api/v1/session/token', tokenBody({ customer: { ip: 'localhost' } }))
    expect(messages(r.body)).toEqual(['customer.ip: This is not a valid IP address.'])
  })

  // Endpoints: "Same shape as the session request plus `customer.ip`": the same signature and rules apply
  it('applies the session rules: hash, methods, MOTO', async () => {
    const t = gatewayWith(configWith([{ moto: false }]))
    const before = counts(t)
    const wrong = await t.call('POST', '/api/v1/session/token', { ...tokenBody(), hash: 'a'.repeat(40) })
    expect(wrong.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'hash: Hash is not valid.' }],
    })
    const method = await t.call('POST', '/api/v1/session/token', tokenBody({ methods: ['nope'] }))
    expect(messages(method.body)[0]).toMatch(/^methods\[0\]: The value you selected is not a valid choice\./)
    const moto = await t.call('POST', '/api/v1/session/token', tokenBody({ moto_type: 'email_moto' }))
    expect(moto.body.error_code).toBe(204025)
    expect(counts(t)).toEqual(before)
  })

  // 2.1 auth: "Only valid for `purchase`."
  it('refuses auth=true on a debit session', async () => {
    const t = gatewayWith()
    const r = await t.call('POST', '/api/v1/session/token', tokenBody({ operation: 'debit', auth: true }))
    expect(r.status).toBe(400)
    expect(messages(r.body)[0]).toMatch(/^auth: /)
  })

  // docs/rules.md#hosted-payment-fields: "The session-token request requires `return_url` (used after 3DS); `success_url`, `cancel_url`, `error_url` are optional."
  it('requires return_url and takes a body without success_url', async () => {
    const t = gatewayWith()
    const { success_url: _ok, return_url: _back, ...bare } = tokenBody()
    const missing = await t.call('POST', '/api/v1/session/token', bare)
    expect(missing.status).toBe(400)
    expect(messages(missing.body)).toContain('return_url: This value should not be blank.')
    const withReturn = await t.call('POST', '/api/v1/session/token', {
      ...bare,
      return_url: 'https://merchant.example/back',
    })
    expect(withReturn.status).toBe(200)
    // The hosted-page session keeps the platform's rule: success_url is required there.
    const page = await t.call('POST', '/api/v1/session', bare)
    expect(messages(page.body)).toEqual(['success_url: This value should not be blank.'])
  })
})
