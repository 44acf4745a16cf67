import { describe, expect, it } from 'vitest'
import { completeRedirect, completeThreeDs } from '../../src/core/payments/payer.js'
import { validate } from '../../src/core/validation/index.js'
import { CARD, callbacksOf, paid, saleForm, setup, snapshot } from './helpers.js'

const completeThreeDsPass = (ctx: Parameters<typeof completeRedirect>[0], id: string) =>
  completeThreeDs(ctx, id, 'pass')

const SOLD = {
  action: 'SALE',
  result: 'SUCCESS',
  status: 'SETTLED',
  order_id: 'ORDER-1001',
  trans_id: expect.any(String),
  trans_date: '2026-11-02 10:00:00',
  descriptor: 'PAYSANDBOX',
  amount: '10.00',
  currency: 'USD',
}

describe('SALE at POST /post', () => {
  // docs/rules.md#amounts: "S2S: `{action, result, status, order_id, trans_id, trans_date, descriptor, amount, currency}`"
  it('settles a sale with test month 01 and answers the S2S body, valid against its schema', async () => {
    const t = setup()
    const r = await t.post(saleForm())
    expect(r.status).toBe(200)
    expect(r.body).toEqual(SOLD)
    expect(validate('s2s-card/sale-response', r.body).valid).toBe(true)
    const payment = t.payment(r.body.trans_id)
    expect(payment).toMatchObject({
      api: 's2s-card',
      action: 'SALE',
      status: 'settled',
      amount_captured: '10.00',
    })
    expect(payment.financial_day).toBe('2026-11-02')
  })

  // docs/rules.md#endpoints: "S2S CARD: `POST {base_url}/post`, form-urlencoded (also accept multipart/form-data)"
  it('accepts the same form as multipart/form-data, bracket fields included', async () => {
    const t = setup()
    const fields = saleForm({ custom_data: undefined })
    const parts = Object.entries({ ...fields, 'custom_data[ref]': 'A-1' })
      .filter(([, v]) => v !== undefined)
      .map(
        ([k, v]) =>
          `--sandbox-boundary\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${String(v)}\r\n`,
      )
      .join('')
    const r = await t.call('POST', '/post', `${parts}--sandbox-boundary--\r\n`, {
      'content-type': 'multipart/form-data; boundary=sandbox-boundary',
    })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ result: 'SUCCESS', status: 'SETTLED' })
    expect(t.payment(r.body.trans_id).custom_data).toEqual({ ref: 'A-1' })
  })

  // docs/rules.md#test-cards: "02 decline"; docs/rules.md#transport: `decline_reason` where relevant
  it('declines with month 02, with decline_reason', async () => {
    const t = setup()
    const r = await t.post(saleForm({ card_exp_month: '02' }))
    expect(r.body).toMatchObject({
      result: 'DECLINED',
      status: 'DECLINED',
      decline_reason: 'Declined by processing.',
    })
    expect(validate('s2s-card/sale-response', r.body).valid).toBe(true)
  })

  // docs/engine.md: "Month 03 on an immediate sale declines it ("Capture declined")"
  it('declines an immediate sale with month 03', async () => {
    const t = setup()
    const r = await t.post(saleForm({ card_exp_month: '03' }))
    expect(r.body).toMatchObject({ result: 'DECLINED', decline_reason: 'Capture declined' })
  })

  // docs/rules.md#test-cards: "`1111222233334444`: "Brand of card does not support.""
  it('declines the unsupported-brand test card', async () => {
    const t = setup()
    const r = await t.post(saleForm({ card_number: '1111222233334444' }))
    expect(r.body).toMatchObject({ result: 'DECLINED', decline_reason: 'Brand of card does not support.' })
  })

  // docs/rules.md#test-cards: "05 3DS then success, 06 3DS then decline"; docs/rules.md#transport: REDIRECT "with `redirect_url`,
  // `redirect_params`, `redirect_method`"
  it('sends month 05 to the ACS page, and the 3DS result settles it', async () => {
    const t = setup()
    const r = await t.post(saleForm({ card_exp_month: '05' }))
    const id = r.body.trans_id as string
    expect(r.body).toMatchObject({
      result: 'REDIRECT',
      status: '3DS',
      redirect_url: `http://sandbox.test/acs/${id}`,
      redirect_method: 'POST',
      redirect_params: {
        MD: id,
        TermUrl: 'https://merchant.example.com/3ds-return',
        PaReq: expect.any(String),
      },
    })
    expect(validate('s2s-card/sale-response', r.body).valid).toBe(true)
    completeThreeDs(t.gateway.ctx, id, 'pass')
    expect(t.payment(id).status).toBe('settled')
    expect(callbacksOf(t, id).map((c) => [c.action, c.result, c.status])).toEqual([
      ['SALE', 'REDIRECT', '3DS'],
      ['SALE', 'SUCCESS', 'SETTLED'],
    ])
  })

  it('declines month 06 once the payer passed 3DS', async () => {
    const t = setup()
    const r = await t.post(saleForm({ card_exp_month: '06' }))
    expect(r.body.result).toBe('REDIRECT')
    completeThreeDs(t.gateway.ctx, r.body.trans_id as string, 'pass')
    expect(t.payment(r.body.trans_id).status).toBe('decline')
  })

  // docs/rules.md#test-cards: "12 redirect then success (year 2039: redirect then decline)"
  it.each([
    ['2030', 'settled'],
    ['2039', 'decline'],
  ])('redirects month 12 (year %s) to the simulator, then %s', async (year, status) => {
    const t = setup()
    const r = await t.post(saleForm({ card_exp_month: '12', card_exp_year: year }))
    const id = r.body.trans_id as string
    expect(r.body).toMatchObject({ result: 'REDIRECT', status: 'REDIRECT' })
    expect(r.body.redirect_url).toBe(`http://sandbox.test/redirect-sim/${id}`)
    completeRedirect(t.gateway.ctx, id)
    expect(t.payment(id).status).toBe(status)
  })

  // docs/rules.md#test-cards: "01 success (PENDING with auth)": a hold that went through 3DS or a redirect is held too.
  it.each([
    ['05', completeThreeDsPass],
    ['12', completeRedirect],
  ])('holds an auth=Y payment (month %s) once the payer step is done', async (month, complete) => {
    const t = setup()
    const r = await t.post(saleForm({ auth: 'Y', card_exp_month: month, card_exp_year: '2030' }))
    expect(r.body.result).toBe('REDIRECT')
    complete(t.gateway.ctx, r.body.trans_id as string)
    expect(t.payment(r.body.trans_id)).toMatchObject({ status: 'pending', auth: true })
  })

  // docs/rules.md#responses: "`POST {base_url}/v2/post` answers `redirect_params` as an array of `{name, value}`"
  it('answers redirect_params as {name, value} pairs on /v2/post', async () => {
    const t = setup()
    const r = await t.post(saleForm({ card_exp_month: '05' }), '/v2/post')
    expect(r.body.redirect_params).toEqual([
      { name: 'PaReq', value: expect.any(String) },
      { name: 'MD', value: r.body.trans_id },
      { name: 'TermUrl', value: 'https://merchant.example.com/3ds-return' },
    ])
    expect(validate('s2s-card/sale-response-v2', r.body).valid).toBe(true)
  })

  // States and transitions: "PENDING (authorized, not captured; ...)"; S2S CARD actions: "SALE (with `auth=Y` for authorization-only)"
  it('holds the funds with auth=Y (PENDING) and AUTH does the same', async () => {
    const t = setup()
    const held = await t.post(saleForm({ auth: 'Y' }))
    expect(held.body).toMatchObject({ action: 'SALE', result: 'SUCCESS', status: 'PENDING' })
    expect(t.payment(held.body.trans_id)).toMatchObject({ auth: true, amount_captured: '0.00' })
    const auth = await t.post(saleForm({ action: 'AUTH', order_id: 'A-2' }))
    expect(auth.body).toMatchObject({ action: 'AUTH', result: 'SUCCESS', status: 'PENDING' })
    expect(validate('s2s-card/auth-response', auth.body).valid).toBe(true)
  })

  // 6.7.0: "`auth=true` uses DMS and SMS/DMS MIDs"; a sale on a DMS-only merchant finds no MID
  it('routes by payment mode: a sale on a merchant with only a DMS MID is refused, an AUTH is served', async () => {
    const t = setup({ mids: [{ id: 'dms', payment_mode: 'DMS' }] })
    const before = snapshot(t)
    const r = await t.post(saleForm())
    // docs/rules.md#business-codes: the platform's 204002 "Enabled merchant mappings or MIDs not found."
    expect(r.body).toEqual({
      result: 'ERROR',
      http_code: 400,
      error_code: 100000,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 204002, error_message: 'Enabled merchant mappings or MIDs not found.' }],
    })
    expect(snapshot(t)).toBe(before)
    expect((await t.post(saleForm({ action: 'AUTH' }))).body.status).toBe('PENDING')
  })

  // 2.1.3: "`payer_language` ... it is not returned in callbacks or status responses"
  it('keeps the payer fields but never payer_language', async () => {
    const t = setup()
    const { trans_id } = await paid(t, { payer_language: 'de' })
    const payment = t.payment(trans_id)
    expect(payment.payer).toMatchObject({ payer_email: 'doe@example.com', payer_city: 'New York' })
    expect(JSON.stringify(t.store.list('payments'))).not.toContain('payer_language')
  })

  // Standards: "Card numbers never stored or logged in full."
  it('stores the card masked, never the full number or the security code', async () => {
    const t = setup()
    const { trans_id } = await paid(t)
    expect(t.payment(trans_id).card).toMatchObject({
      masked: '411111******1111',
      bin: '411111',
      last4: '1111',
    })
    const everything = JSON.stringify([t.store.list('payments'), t.store.list('deliveries')])
    expect(everything).not.toContain(CARD)
    expect(everything).not.toContain('"123"')
  })

  // 2.7 / card set 3: "descriptor, optional, string up to 20 characters"
  it('uses parameters[descriptor] as the descriptor', async () => {
    const t = setup()
    const r = await paid(t, { parameters: { descriptor: 'SHOP*TICKETS' } })
    expect(r.descriptor).toBe('SHOP*TICKETS')
  })

  // docs/rules.md#callback-destination: "S2S requests may also carry `callback_url`"
  it("sends the callbacks to the request's callback_url", async () => {
    const t = setup()
    const { trans_id } = await paid(t, { callback_url: 'https://merchant.example.com/s2s-cb' })
    const [delivery] = t.store.findBy('deliveries', 'payment_id', trans_id)
    expect(delivery?.url).toBe('https://merchant.example.com/s2s-cb')
  })
})

describe('DEBIT', () => {
  // Events: "Callbacks for `debit` carry `card_token` in every callback (including `settled`)"
  it('settles a debit, saves the card and answers its card_token, also in the callback', async () => {
    const t = setup()
    const r = await t.post(saleForm({ action: 'DEBIT' }))
    expect(r.body).toMatchObject({
      action: 'DEBIT',
      result: 'SUCCESS',
      status: 'SETTLED',
      card_token: expect.any(String),
    })
    expect(validate('s2s-card/debit-response', r.body).valid).toBe(true)
    expect(t.payment(r.body.trans_id).operation).toBe('debit')
    expect(callbacksOf(t, r.body.trans_id as string)[0]).toMatchObject({
      action: 'DEBIT',
      card_token: r.body.card_token,
    })
  })
})
