import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/core/ports/clock.js'
import {
  CARD,
  gatewayWith,
  hpfSession,
  messages,
  pay,
  paymentOf,
  recordEvents,
  sessionByToken,
} from './session-helpers.js'

describe('session and endpoint rules', () => {
  // Endpoints: "The endpoint must match the session operation."
  it('refuses the endpoint of the other operation', async () => {
    const t = gatewayWith()
    const mismatch = {
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'The endpoint does not match the session operation.' }],
    }
    expect((await pay(t, await hpfSession(t), {}, 'debit')).body).toEqual(mismatch)
    expect((await pay(t, await hpfSession(t, { operation: 'debit' }), {}, 'purchase')).body).toEqual(mismatch)
    expect((await pay(t, await hpfSession(t, { operation: 'credit' }), {}, 'purchase')).body).toEqual(
      mismatch,
    )
    expect(t.store.count('payments')).toBe(0)
  })

  // Authentication 2 / docs/rules.md#beyond-the-interface: header `Token`
  it('answers a missing or unknown Token and an expired session', async () => {
    const t = gatewayWith()
    const missing = await t.call('POST', '/api/v1/processing/purchase/card', CARD)
    expect(missing.body).toEqual({
      http_code: 401,
      error_code: 100000,
      error_message: 'Token header is missing.',
    })
    const unknown = await pay(t, 'deadbeef')
    expect(unknown.body).toEqual({ http_code: 401, error_code: 100000, error_message: 'Token is not valid.' })
    const token = await hpfSession(t, { session_expiry: 1 })
    await t.clock.advance(MINUTE)
    const expired = await pay(t, token)
    expect(expired.body).toEqual({
      http_code: 401,
      error_code: 100000,
      error_message: 'Session has expired.',
    })
    expect(t.store.count('payments')).toBe(0)
  })

  // (sandbox) one payment per session; after a decline the payer may try another card
  it('takes a second card after a decline but no second payment after an approval', async () => {
    const t = gatewayWith()
    const token = await hpfSession(t)
    const declined = await pay(t, token, { card_exp_month: '02' })
    const paid = await pay(t, token)
    expect(paid.body.status).toBe('settled')
    expect(paid.body.payment_id).not.toBe(declined.body.payment_id)
    expect(sessionByToken(t, token)?.payment_id).toBe(paid.body.payment_id)
    const again = await pay(t, token)
    expect(again.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'A payment already exists for this session.' }],
    })
    expect(t.store.count('payments')).toBe(2)
  })

  it('refuses a second payment while the first waits for 3DS', async () => {
    const t = gatewayWith()
    const token = await hpfSession(t)
    await pay(t, token, { card_exp_month: '05' })
    expect(messages((await pay(t, token)).body)).toEqual(['A payment already exists for this session.'])
  })

  // 2.1 methods: "Method identifiers offered on the payment form"
  it('refuses a card payment on a session that does not offer card', async () => {
    const t = gatewayWith()
    const r = await pay(
      t,
      await hpfSession(t, { methods: ['awcc'], parameters: { awcc: { crypto_type: 'BTC' } } }),
    )
    expect(messages(r.body)).toEqual(['The card method is not offered by this session.'])
  })

  // Endpoints: "May include `browser_info.accept_headers`, which is mapped to the payer's extra details and forwarded"
  it('stores browser_info with accept_headers, the payer details and the customer IP', async () => {
    const t = gatewayWith()
    const token = await hpfSession(t, {
      customer: { name: 'John Doe', email: 'doe@example.com', ip: '192.0.2.1' },
      billing_address: { country: 'US', city: 'LA' },
      custom_data: { cart: 'c-1' },
    })
    const r = await pay(t, token, { browser_info: { accept_headers: 'text/html', language: 'en-US' } })
    expect(paymentOf(t, r.body.payment_id)).toMatchObject({
      browser_info: { accept_headers: 'text/html', language: 'en-US' },
      customer_ip: '192.0.2.1',
      custom_data: { cart: 'c-1' },
      payer: {
        payer_first_name: 'John',
        payer_last_name: 'Doe',
        payer_email: 'doe@example.com',
        payer_country: 'US',
        payer_city: 'LA',
        payer_ip: '192.0.2.1',
      },
    })
  })

  // docs/engine.md: "emit `payment` on every status change and `transaction` on every transaction"
  it('emits the transaction and the payment status', async () => {
    const t = gatewayWith()
    const token = await hpfSession(t)
    const events = recordEvents(t)
    const r = await pay(t, token)
    expect(events.map((e) => [e.type, 'status' in e ? e.status : ''])).toEqual([
      ['transaction', 'success'],
      ['payment', 'settled'],
    ])
    expect(events[1]).toMatchObject({ payment_id: r.body.payment_id, merchant_key: 'demo-merchant' })
  })
})
