import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/core/ports/clock.js'
import { validate } from '../../src/core/validation/index.js'
import {
  configWith,
  counts,
  DEMO,
  gatewayWith,
  messages,
  OTHER,
  sessionBody,
  sessionByToken,
} from './session-helpers.js'

const tokenOf = (redirectUrl: unknown) => String(redirectUrl).split('/auth/')[1] as string

describe('POST /api/v1/session', () => {
  // docs/rules.md#responses: session: `{"redirect_url": "{base_url}/auth/<session token>"}`; 5: "session_expiry is in minutes, 1 to 720, default 60"
  it('stores an open session and answers the hosted page address; no payment exists yet', async () => {
    const t = gatewayWith()
    const r = await t.call('POST', '/api/v1/session', sessionBody({ methods: ['card'] }))
    expect(r.status).toBe(200)
    expect(r.body.redirect_url).toMatch(/^http:\/\/sandbox\.test\/auth\/[0-9a-f]+$/)
    expect(validate('checkout/session-response', r.body).valid).toBe(true)
    const session = sessionByToken(t, tokenOf(r.body.redirect_url))
    expect(session).toMatchObject({
      merchant_key: DEMO.key,
      operation: 'purchase',
      methods: ['card'],
      hosted_fields: false,
      status: 'open',
    })
    expect(session?.expires_at).toBe(t.clock.now() + 60 * MINUTE)
    expect(session?.request.hash).toBeUndefined()
    expect(t.store.count('payments')).toBe(0)
  })

  // docs/rules.md#session-expiry: "`session_expiry` is in minutes"; config sessions.default_expiry_minutes when absent
  it('takes session_expiry in minutes, else the configured default', async () => {
    const t = gatewayWith()
    const r = await t.call('POST', '/api/v1/session', sessionBody({ session_expiry: 5 }))
    expect(sessionByToken(t, tokenOf(r.body.redirect_url))?.expires_at).toBe(t.clock.now() + 5 * MINUTE)
    const t2 = gatewayWith(configWith([{}], { sessions: { default_expiry_minutes: 15 } }))
    const r2 = await t2.call('POST', '/api/v1/session', sessionBody())
    expect(sessionByToken(t2, tokenOf(r2.body.redirect_url))?.expires_at).toBe(t2.clock.now() + 15 * MINUTE)
  })

  // 2.1 payer_ip: "Payer IP address."; 2.1.2 customer.ip: "used only on the Hosted Payment Fields session-token request"
  it('records payer_ip, and ignores customer.ip on the hosted-page session', async () => {
    const t = gatewayWith()
    const r = await t.call(
      'POST',
      '/api/v1/session',
      sessionBody({ payer_ip: '198.51.100.4', customer: { ip: '192.0.2.9' } }),
    )
    expect(sessionByToken(t, tokenOf(r.body.redirect_url))?.customer_ip).toBe('198.51.100.4')
  })

  // docs/engine.md: "Validate first, then authenticate ... a bad request, a wrong key or hash ... change nothing."
  it('answers a schema failure with field errors and stores nothing', async () => {
    const t = gatewayWith()
    const before = counts(t)
    const r = await t.call('POST', '/api/v1/session', sessionBody({ order: { amount: '10.505' } }))
    expect(r.status).toBe(400)
    expect(r.body.error_message).toBe('Request data is invalid.')
    expect(messages(r.body)[0]).toMatch(/^order\.amount: /)
    expect(counts(t)).toEqual(before)
  })

  // Authentication 1: "Every Checkout request carries the merchant credential `merchant_key` and a request signature in `hash`"
  // docs/rules.md#errors: both are errors[] items of a 400 answer
  it('refuses an unknown merchant_key and a wrong hash with 400 and their items, changing nothing', async () => {
    const t = gatewayWith()
    const before = counts(t)
    const unknown = await t.call('POST', '/api/v1/session', sessionBody({ merchant_key: 'nobody' }))
    expect(unknown.status).toBe(400)
    expect(unknown.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'merchant_key: This value is not correct.' }],
    })
    const wrong = await t.call(
      'POST',
      '/api/v1/session',
      sessionBody({}, { key: DEMO.key, password: 'wrong' }),
    )
    expect(wrong.status).toBe(400)
    expect(wrong.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'hash: Hash is not valid.' }],
    })
    expect(counts(t)).toEqual(before)
  })

  // docs/rules.md#checkout-signatures: session hash = sha1(md5(upper(order.number + order.amount + order.currency + order.description + password)))
  it('checks the hash with the merchant named by merchant_key', async () => {
    const t = gatewayWith()
    const signedByOther = sessionBody({}, { key: DEMO.key, password: OTHER.password })
    expect((await t.call('POST', '/api/v1/session', signedByOther)).status).toBe(400)
    expect((await t.call('POST', '/api/v1/session', sessionBody({}, OTHER))).status).toBe(200)
  })
})

describe('session method rules (2.2)', () => {
  // 2.1 methods: "Method identifiers offered on the payment form (section 2.2)."
  it('refuses an identifier the catalogue does not know, at its position in methods', async () => {
    const t = gatewayWith()
    const r = await t.call('POST', '/api/v1/session', sessionBody({ methods: ['card', 'no-such-method'] }))
    expect(r.status).toBe(400)
    expect(r.body.error_message).toBe('Request data is invalid.')
    // docs/rules.md#method-identifiers: "An unknown identifier's error lists the near matches" (none are near here)
    expect(messages(r.body)).toEqual([
      'methods[1]: The value you selected is not a valid choice. The identifiers are those of the interface, section 2.2.',
    ])
    expect(t.store.count('sessions')).toBe(0)
  })

  // methods.json operations_rule: "Payout and withdrawal methods ... serve credit only"
  it('refuses a method that does not serve the session operation', async () => {
    const t = gatewayWith()
    const r = await t.call('POST', '/api/v1/session', sessionBody({ methods: ['smlpz-out-india'] }))
    expect(messages(r.body)).toEqual(["methods[0]: This method does not serve the session's operation."])
    const credit = await t.call(
      'POST',
      '/api/v1/session',
      sessionBody({ operation: 'credit', methods: ['smlpz-out-india', 'card'] }),
    )
    expect(credit.status).toBe(200)
  })

  // 2.2.2 "interac (formerly `intc-sdp`)"; "`ptw-<code>` (including ... open_banking_* ... and others)"
  it('accepts aliases and members of identifier families', async () => {
    const t = gatewayWith()
    const r = await t.call(
      'POST',
      '/api/v1/session',
      sessionBody({ methods: ['intc-sdp', 'ptw-open_banking_uk', 'ptw-PW_0042'] }),
    )
    expect(r.status).toBe(200)
  })

  // 2.1 parameters: "value is that method's parameter object"; 2.2.2 awcc crypto_type "Required"; Limits: descriptor up to 20
  it("validates parameters.<id> with that method's schema, with the full field path", async () => {
    const t = gatewayWith()
    const r = await t.call(
      'POST',
      '/api/v1/session',
      sessionBody({
        methods: ['card', 'awcc'],
        parameters: { awcc: { network_type: 'eth' }, card: { descriptor: 'X'.repeat(21) } },
      }),
    )
    expect(r.status).toBe(400)
    expect(messages(r.body)).toEqual([
      'parameters.awcc.crypto_type: This value should not be blank.',
      'parameters.card.descriptor: This value is too long. It should have 20 characters or less.',
    ])
  })

  // 2.1 parameters: "Also accepted with S2S-style bracket notation `parameters[name]`."
  it('validates bracket-notation parameters the same way', async () => {
    const t = gatewayWith()
    const body = sessionBody({ methods: ['awcc'] })
    const r = await t.call('POST', '/api/v1/session', { ...body, 'parameters[awcc][network_type]': 'btc' })
    expect(messages(r.body)).toContain('parameters.awcc.crypto_type: This value should not be blank.')
  })
})

describe('zero amount (2.1.1)', () => {
  // 2.1.1: "A zero amount is accepted only on an authorization-only request or on the request that initializes a
  // recurring chain, and only when the payment provider supports zero-value transactions."
  // Errors: "Zero amount on plain SALE or purchase | not shown | not shown | amount: This value should be greater than 0."
  const zeroRow = {
    http_code: 400,
    error_code: 0,
    error_message: 'Request data is invalid.',
    errors: [{ error_code: 100000, error_message: 'amount: This value should be greater than 0.' }],
  }

  it('refuses zero on a plain purchase even when a MID supports zero amounts', async () => {
    const t = gatewayWith(configWith([{ zero_amount: true }]))
    const r = await t.call('POST', '/api/v1/session', sessionBody({ order: { amount: '0.00' } }))
    expect(r.status).toBe(400)
    expect(r.body).toEqual(zeroRow)
  })

  it('refuses zero with auth=true when no MID supports zero amounts', async () => {
    const t = gatewayWith(configWith([{ zero_amount: false }]))
    const r = await t.call('POST', '/api/v1/session', sessionBody({ auth: true, order: { amount: '0.00' } }))
    expect(r.body).toEqual(zeroRow)
  })

  it('accepts zero with auth=true or recurring_init=true on a zero-amount MID', async () => {
    const t = gatewayWith(configWith([{ zero_amount: true }]))
    const auth = await t.call(
      'POST',
      '/api/v1/session',
      sessionBody({ auth: true, order: { amount: '0.00' } }),
    )
    expect(auth.status).toBe(200)
    const recurring = await t.call(
      'POST',
      '/api/v1/session',
      sessionBody({ operation: 'debit', recurring_init: true, order: { amount: '0', currency: 'JPY' } }),
    )
    expect(recurring.status).toBe(200)
  })
})

describe('MOTO (2.5)', () => {
  // 2.5: "the payment is routed only to MIDs with MOTO enabled, otherwise error 204025"
  it.each(['phone_moto', 'email_moto', 'default_moto'])(
    'refuses %s without a MOTO-enabled MID: 204025',
    async (moto) => {
      const t = gatewayWith(configWith([{ moto: false }]))
      const r = await t.call('POST', '/api/v1/session', sessionBody({ moto_type: moto }))
      expect(r.status).toBe(400)
      expect(r.body).toEqual({
        http_code: 400,
        error_code: 204025,
        error_message: 'MOTO is not enabled for this merchant.',
      })
      expect(t.store.count('sessions')).toBe(0)
    },
  )

  it('accepts a MOTO value with a MOTO-enabled MID, and ecommerce without one', async () => {
    const t = gatewayWith(configWith([{ moto: false }, { moto: true }]))
    expect((await t.call('POST', '/api/v1/session', sessionBody({ moto_type: 'phone_moto' }))).status).toBe(
      200,
    )
    const plain = gatewayWith(configWith([{ moto: false }]))
    expect(
      (await plain.call('POST', '/api/v1/session', sessionBody({ moto_type: 'ecommerce' }))).status,
    ).toBe(200)
  })
})

describe('card_token on a session (2.1)', () => {
  // 2.1 card_token: "Token of a saved card."; docs/engine.md: "another merchant's payment answers exactly as a missing one"
  it('refuses a token that names no saved card of the merchant', async () => {
    const t = gatewayWith()
    const r = await t.call('POST', '/api/v1/session', sessionBody({ card_token: 'f'.repeat(32) }))
    expect(r.status).toBe(400)
    expect(messages(r.body)).toEqual(['card_token: Card token is invalid or not found.'])
  })
})
