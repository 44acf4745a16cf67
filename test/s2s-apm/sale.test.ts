import { describe, expect, it } from 'vitest'
import { validate } from '../../src/core/validation/index.js'
import { callbackSigned, FAIL, fixture, KEY, saleForm, sale, setup, snapshot, SUCCESS } from './helpers.js'

describe('S2S APM SALE with the test brand vcard', () => {
  // docs/rules.md#apm-test-brand: "S2S APM test brand `vcard`: identifier or e-mail `success@gmail.com` succeeds".
  it('settles at once for success@gmail.com, with a SALE callback', async () => {
    const t = setup()
    const r = await sale(t)
    // docs/rules.md#responses: S2S: `{action, result, status, order_id, trans_id, trans_date, descriptor, amount, currency}`.
    expect(r).toEqual({
      action: 'SALE',
      result: 'SUCCESS',
      status: 'SETTLED',
      order_id: 'APM-2001',
      trans_id: expect.any(String),
      trans_date: '2026-11-02 10:00:00',
      descriptor: '',
      amount: '15.00',
      currency: 'USD',
      brand: 'vcard',
    })
    expect(validate('s2s-apm/sale-response', r).errors).toEqual([])
    expect(t.payment(r.trans_id)).toMatchObject({
      api: 's2s-apm',
      action: 'SALE',
      method: 'vcard',
      operation: 'purchase',
      status: 'settled',
      amount_captured: '15.00',
      financial_day: '2026-11-02',
    })
    expect(t.transactions(r.trans_id).map((tx) => [tx.type, tx.status])).toEqual([['sale', 'success']])
    const [callback] = await t.callbacks()
    expect(callback).toMatchObject({
      action: 'SALE',
      result: 'SUCCESS',
      status: 'SETTLED',
      trans_id: r.trans_id,
    })
    expect(callbackSigned(callback ?? {})).toBe(true)
  })

  // docs/rules.md#apm-test-brand: "`fail@gmail.com` declines".
  it('declines at once for fail@gmail.com, with the reason', async () => {
    const t = setup()
    const r = await sale(t, { identifier: FAIL })
    expect(r).toMatchObject({ result: 'DECLINED', status: 'DECLINED', decline_reason: 'Declined' })
    expect(validate('s2s-apm/sale-response', r).errors).toEqual([])
    expect(t.payment(r.trans_id)).toMatchObject({ status: 'decline', decline_reason: 'Declined' })
    const [callback] = await t.callbacks()
    expect(callback).toMatchObject({ result: 'DECLINED', status: 'DECLINED', decline_reason: 'Declined' })
  })

  // docs/rules.md#apm-test-brand: "identifier or e-mail": the e-mail decides when the identifier does not.
  it('uses payer_email when the identifier is neither test address, case aside', async () => {
    const t = setup()
    expect((await sale(t, { identifier: 'wallet-42', payer_email: 'Success@Gmail.com' })).status).toBe(
      'SETTLED',
    )
    expect((await sale(t, { identifier: 'wallet-43', payer_email: FAIL })).status).toBe('DECLINED')
    // The identifier is looked at first.
    expect((await sale(t, { identifier: SUCCESS, payer_email: FAIL })).status).toBe('SETTLED')
  })

  // (sandbox) Any other vcard identifier waits on the simulator page, like every other method.
  it('sends any other vcard payer to the simulator page', async () => {
    const t = setup()
    const r = await sale(t, { identifier: 'someone@example.com' })
    expect(r).toMatchObject({
      result: 'REDIRECT',
      status: 'REDIRECT',
      redirect_url: `http://sandbox.test/apm/${r.trans_id}`,
      redirect_method: 'GET',
      redirect_params: {},
    })
    expect(validate('s2s-apm/sale-response', r).errors).toEqual([])
  })
})

describe('S2S APM SALE auth', () => {
  // Endpoints: "S2S APM SALE takes `auth` (`Y` or `N`, default `N`); only the exact value `Y` holds funds".
  it('holds the funds with auth=Y: PENDING, an auth transaction, nothing captured', async () => {
    const t = setup()
    const r = await sale(t, { auth: 'Y' })
    expect(r).toMatchObject({ result: 'SUCCESS', status: 'PENDING' })
    expect(t.payment(r.trans_id)).toMatchObject({ auth: true, status: 'pending', amount_captured: '0.00' })
    expect(t.transactions(r.trans_id).map((tx) => tx.type)).toEqual(['auth'])
  })

  // Endpoints: "any other value is an immediate sale".
  it.each(['N', 'y', 'yes', 'true', '1', ' Y'])('settles at once with auth=%j', async (auth) => {
    const t = setup()
    const r = await sale(t, { auth })
    expect(r.status).toBe('SETTLED')
    expect(t.payment(r.trans_id).auth).toBe(false)
  })

  it('settles the fixture sale-request.auth-other ("yes") and holds sale-request.auth-y', async () => {
    const t = setup()
    const unsigned = (name: string) => {
      const { hash: _signedForAnotherMerchant, ...rest } = fixture(name)
      return { ...rest, client_key: KEY }
    }
    const other = await sale(t, unsigned('sale-request.auth-other'))
    expect(other.status).toBe('SETTLED')
    const held = await sale(t, unsigned('sale-request.auth-y'))
    expect(held.status).toBe('PENDING')
    // The fixture's payer fields are kept as the Events section's payer attributes; payer_language is request-only.
    expect(t.payment(held.trans_id).payer).toEqual({
      payer_first_name: 'Jane',
      payer_last_name: 'Roe',
      payer_email: 'jane@example.com',
      payer_country: 'GB',
      payer_ip: '203.0.113.20',
    })
    expect(t.payment(held.trans_id).custom_data).toEqual({ cart: '7' })
    expect(t.payment(held.trans_id).apm.language).toBe('en')
  })

  // 2.1.1: a zero amount "is accepted only on an authorization-only request ... and only when the
  // payment provider supports zero-value transactions".
  it('accepts a zero authorization only on a MID with zero-amount support', async () => {
    const refused = setup()
    const r = await refused.post(saleForm({ auth: 'Y', order_amount: '0.00' }))
    expect(r.status).toBe(400)
    expect(r.body.errors).toEqual([
      { error_code: 100000, error_message: 'amount: This value should be greater than 0.' },
    ])
    const zero = setup({ mids: [{ id: 'zero-mid', zero_amount: true }] })
    expect((await sale(zero, { auth: 'Y', order_amount: '0.00' })).status).toBe('PENDING')
  })

  // Errors: "Zero amount on plain SALE or purchase | not shown | not shown | amount: This value should be greater than 0."
  it('refuses a zero amount on a plain SALE, changing nothing', async () => {
    const t = setup({ mids: [{ id: 'zero-mid', zero_amount: true }] })
    const r = await t.post(saleForm({ order_amount: '0.00' }))
    expect(r.body).toEqual({
      result: 'ERROR',
      http_code: 400,
      error_code: 100000,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'amount: This value should be greater than 0.' }],
    })
    expect(t.store.list('payments')).toEqual([])
  })

  // 6.7.0: "`auth=true` uses DMS and SMS/DMS MIDs for an authorization".
  it('routes auth=Y away from an SMS-only MID', async () => {
    const t = setup({ mids: [{ id: 'sms-only', payment_mode: 'SMS' }] })
    expect((await sale(t)).status).toBe('SETTLED')
    const r = await t.post(saleForm({ auth: 'Y', order_id: 'held' }))
    // docs/rules.md#business-codes: the platform's 204002
    expect(r.body.errors).toEqual([
      { error_code: 204002, error_message: 'Enabled merchant mappings or MIDs not found.' },
    ])
  })
})

describe('S2S APM SALE: methods', () => {
  // (sandbox) docs/rules.md#simulated-connectors: "Every other method's simulated connector lets the payer ... choose the outcome".
  it('sends another brand to its simulator page in status REDIRECT, with a REDIRECT callback', async () => {
    const t = setup()
    const r = await sale(t, { brand: 'sepa' })
    expect(r).toMatchObject({ result: 'REDIRECT', status: 'REDIRECT', brand: 'sepa' })
    expect(r.redirect_url).toBe(`http://sandbox.test/apm/${r.trans_id}`)
    expect(t.payment(r.trans_id).apm).toMatchObject({ brand: 'sepa', group: 'redirect', identifier: SUCCESS })
    expect(t.transactions(r.trans_id).map((tx) => [tx.type, tx.status])).toEqual([['redirect', 'waiting']])
    const [callback] = await t.callbacks()
    expect(callback).toMatchObject({ action: 'SALE', result: 'REDIRECT', status: 'REDIRECT' })
  })

  // docs/rules.md#method-identifiers: aliases resolve to the catalogue id; `brand` is echoed as sent.
  it('resolves aliases and family members through the catalogue', async () => {
    const t = setup()
    const alias = await sale(t, { brand: 'intc-sdp' })
    expect(alias.brand).toBe('intc-sdp')
    expect(t.payment(alias.trans_id).method).toBe('interac')
    expect((await sale(t, { brand: 'ptw-PW_0099', order_id: 'family' })).brand).toBe('ptw-PW_0099')
  })

  it('refuses an unknown brand, a card and a payout-only method, changing nothing', async () => {
    const t = setup()
    const before = await snapshot(t)
    const unknown = await t.post(saleForm({ brand: 'no-such-method' }))
    expect(unknown.body.errors).toEqual([
      { error_code: 100000, error_message: 'brand: The value you selected is not a valid choice.' },
    ])
    for (const brand of ['card', 'smlpz-out-india']) {
      const r = await t.post(saleForm({ brand }))
      expect(r.status, brand).toBe(400)
      expect(r.body.errors).toEqual([
        { error_code: 100000, error_message: 'brand: This method is not available for this action.' },
      ])
    }
    expect(await snapshot(t)).toBe(before)
  })

  // 2.2.2: awcc "crypto_type | string | Required".
  it("checks parameters[...] against the method's parameter schema", async () => {
    const t = setup()
    const missing = await t.post(saleForm({ brand: 'awcc' }))
    expect(missing.body.errors).toEqual([
      { error_code: 100000, error_message: 'parameters[crypto_type]: This value should not be blank.' },
    ])
    const wrong = await t.post(
      saleForm({ brand: 'awcc', parameters: { crypto_type: 'USDT', network_type: 'sol' } }),
    )
    expect(wrong.body.errors).toEqual([
      {
        error_code: 100000,
        error_message:
          'parameters[network_type]: The value you selected is not a valid choice. Valid values: eth, tron.',
      },
    ])
    expect(t.store.list('payments')).toEqual([])
    const ok = await sale(t, { brand: 'awcc', parameters: { crypto_type: 'BTC', bech32: 'true' } })
    expect(t.payment(ok.trans_id).apm.parameters).toEqual({ crypto_type: 'BTC', bech32: 'true' })
  })

  // docs/rules.md#callback-destination: "S2S requests may also carry `callback_url`".
  it("sends the callbacks to the request's callback_url", async () => {
    const t = setup()
    await sale(t, { callback_url: 'https://merchant.example/apm-callbacks' })
    await t.callbacks()
    expect(t.sent.map((s) => s.url)).toEqual(['https://merchant.example/apm-callbacks'])
  })
})

describe('S2S APM SALE: refusals', () => {
  // docs/rules.md#s2s-card-formulas: SALE "md5(upper(rev(identifier + order_id + order_amount + order_currency + password)))".
  it('refuses a wrong hash or a hash over other data, changing nothing', async () => {
    const t = setup()
    const before = await snapshot(t)
    for (const hash of ['0'.repeat(32), saleForm({ order_amount: '16.00' }).hash]) {
      const r = await t.post({ ...saleForm(), hash })
      expect(r.status).toBe(401)
      expect(r.body).toEqual({
        result: 'ERROR',
        http_code: 401,
        error_code: 100000,
        error_message: 'Hash is not valid.',
      })
    }
    expect(await snapshot(t)).toBe(before)
    expect(await t.callbacks()).toEqual([])
  })

  it('refuses an unknown client_key, and another merchant signs with its own password', async () => {
    const t = setup()
    const r = await t.post(saleForm({ client_key: 'nobody' }))
    expect(r.body).toMatchObject({ http_code: 401, error_message: 'Merchant not found.' })
    const other = await t.post(saleForm({ client_key: 'other-merchant' }))
    expect(other.body).toMatchObject({ error_message: 'Hash is not valid.' })
  })

  it('answers a missing or unknown action with the action row', async () => {
    const t = setup()
    for (const action of [undefined, 'AUTH', 'sale', 'toString']) {
      const r = await t.post({ ...saleForm(), action })
      expect(r.body).toEqual({
        result: 'ERROR',
        http_code: 400,
        error_code: 100000,
        error_message: 'Request data is invalid.',
        errors: [
          { error_code: 100000, error_message: 'action: The value you selected is not a valid choice.' },
        ],
      })
    }
  })

  it('names every field a SALE is missing, in bracket notation', async () => {
    const t = setup()
    const r = await t.post({ action: 'SALE', client_key: KEY, custom_data: { a: '' }, hash: 'x' })
    const messages = (r.body.errors as { error_message: string }[]).map((e) => e.error_message)
    expect(messages).toEqual(
      expect.arrayContaining([
        'brand: This value should not be blank.',
        'payer_ip: This value should not be blank.',
      ]),
    )
  })

  // docs/rules.md#endpoints: "(also accept multipart/form-data)".
  it('accepts the same SALE as multipart/form-data', async () => {
    const t = setup()
    const form = new FormData()
    for (const [k, v] of Object.entries(saleForm())) form.append(k, String(v))
    const request = new Request('http://x', { method: 'POST', body: form })
    const body = new Uint8Array(await request.arrayBuffer())
    const response = await t.gateway.handle({
      method: 'POST',
      path: '/post-va',
      query: {},
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      body,
    })
    expect(JSON.parse(response.body)).toMatchObject({ result: 'SUCCESS', status: 'SETTLED' })
  })
})
