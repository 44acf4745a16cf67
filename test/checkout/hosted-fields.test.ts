import { describe, expect, it } from 'vitest'
import { checkoutSessionModule } from '../../src/core/checkout/module.js'
import { hostedPagesModule } from '../../src/pages/module.js'
import { createTestGateway, type TestGateway } from '../helpers/engine.js'
import { configWith, counts, messages, paymentOf, sessionByToken, tokenBody } from './session-helpers.js'

// docs/rules.md#hosted-payment-fields: "the card data goes from the fields' frames into the session, never through the
// merchant. The payment request ... carries `with_hosted_fields: true`, `name`, and optionally
// `email`, `billing_address`, `browser_info`, `birth_date`, `selected_language` — no card data.
// It answers `{result: success|decline|redirect|waiting|undefined, payment_id, redirect_url?,
// redirect_params?, redirect_method?, return_url_query_params?, decline_message?}`."

const setup = () =>
  createTestGateway([checkoutSessionModule, hostedPagesModule], configWith([{ id: 'demo-mid' }]))

async function token(t: TestGateway, overrides: Record<string, unknown> = {}): Promise<string> {
  const r = await t.call('POST', '/api/v1/session/token', tokenBody(overrides))
  if (r.status !== 200) throw new Error(r.raw)
  return String(r.body.token)
}

const collect = (t: TestGateway, tok: string, card: Record<string, unknown> = {}) =>
  t.call('POST', `/sdk/hosted-fields/${tok}/collect`, {
    card_number: '4111111111111111',
    card_exp_month: '01',
    card_exp_year: '2030',
    card_cvv2: '123',
    ...card,
  })

const PLATFORM_BODY = { with_hosted_fields: true, name: 'Jane Doe', email: 'jane@shop.example' }
const pay = (t: TestGateway, tok: string, body: Record<string, unknown> = PLATFORM_BODY, op = 'purchase') =>
  t.call('POST', `/api/v1/processing/${op}/card`, body, { Token: tok })

describe('the fields put the card into the session (docs/rules.md#sessions)', () => {
  it('keeps the collected card masked on the session, never the number or the code', async () => {
    const t = setup()
    const tok = await token(t)
    const r = await collect(t, tok)
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ result: 'success' })
    expect(sessionByToken(t, tok)?.entered_card).toMatchObject({
      masked: '411111******1111',
      last4: '1111',
      exp_month: '01',
      exp_year: '2030',
    })
    const everything = JSON.stringify(
      ['sessions', 'payments', 'transactions'].map((c) => t.store.list(c as 'sessions')),
    )
    expect(everything).not.toContain('4111111111111111')
    expect(everything).not.toContain('"123"')
  })

  it('checks the card as the hosted page does and changes nothing when it refuses', async () => {
    const t = setup()
    const tok = await token(t)
    const before = counts(t)
    const r = await collect(t, tok, { card_number: '4111111111111112', card_cvv2: undefined })
    expect(r.status).toBe(400)
    expect(r.body.error_code).toBe(0)
    expect(messages(r.body)).toEqual([
      'card_number: This value is not a valid card number.',
      'card_cvv2: This value should not be blank.',
    ])
    expect(sessionByToken(t, tok)?.entered_card).toBeUndefined()
    expect(counts(t)).toEqual(before)
  })

  // docs/rules.md#errors: "Hosted Payment Fields with a bad or expired Token: 401"
  it('answers 401 for a token the session-token endpoint did not issue', async () => {
    const t = setup()
    const r = await collect(t, 'f'.repeat(32))
    expect(r.status).toBe(401)
    expect(r.body).toEqual({ http_code: 401, error_code: 100000, error_message: 'Token is not valid.' })
  })
})

describe('the payment request without card data (docs/rules.md#sessions)', () => {
  it('refuses a payment before the fields sent the card', async () => {
    const t = setup()
    const tok = await token(t)
    const r = await pay(t, tok)
    expect(r.status).toBe(400)
    expect(messages(r.body)).toEqual([
      "card: No card data was collected for this session. Call hostedFields.collectIframesData() on the payer's page before the payment request.",
    ])
    expect(t.store.count('payments')).toBe(0)
  })

  it('pays with the collected card: result success, the cardholder name and e-mail recorded', async () => {
    const t = setup()
    const tok = await token(t)
    await collect(t, tok)
    const r = await pay(t, tok)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ result: 'success', payment_id: expect.any(String) })
    expect(Object.keys(r.body.return_url_query_params as object)).toEqual([
      'payment_id',
      'trans_id',
      'order_id',
      'hash',
    ])
    const payment = paymentOf(t, r.body.payment_id)
    expect(payment).toMatchObject({ status: 'settled', card: { last4: '1111', holder: 'Jane Doe' } })
  })

  it('02: result decline with decline_message', async () => {
    const t = setup()
    const tok = await token(t)
    await collect(t, tok, { card_exp_month: '02' })
    const r = await pay(t, tok)
    expect(r.body).toMatchObject({
      result: 'decline',
      decline_message: expect.stringMatching(/^Declined by/),
    })
  })

  // docs/rules.md#hosted-payment-fields: "`return_url` (used after 3DS)"
  it('05: result redirect with redirect_url to the ACS; return_url then receives the payer', async () => {
    const t = setup()
    const tok = await token(t)
    await collect(t, tok, { card_exp_month: '05' })
    const r = await pay(t, tok)
    expect(r.body).toMatchObject({
      result: 'redirect',
      redirect_url: expect.stringMatching(/^http:\/\/sandbox\.test\/acs\//),
      redirect_params: [],
      redirect_method: 'GET',
    })
    const acs = new URL(String(r.body.redirect_url)).pathname
    const passed = await t.call('POST', acs, 'result=pass')
    expect(passed.headers.location).toMatch(/^https:\/\/merchant\.example\/return\?payment_id=/)
    expect(paymentOf(t, r.body.payment_id)?.status).toBe('settled')
  })

  it('the debit endpoint serves a debit session with the same flag', async () => {
    const t = setup()
    const tok = await token(t, { operation: 'debit' })
    await collect(t, tok)
    expect((await pay(t, tok, PLATFORM_BODY, 'purchase')).status).toBe(400)
    expect((await pay(t, tok, PLATFORM_BODY, 'debit')).body).toMatchObject({ result: 'success' })
  })

  // docs/rules.md#warnings-and-releases: "Cover at least ... card data sent in an HPF body"
  it('serves card data sent in the body with a Sandbox-Warning, and refuses it under strict', async () => {
    const t = setup()
    const tok = await token(t)
    const card = {
      card_number: '4111111111111111',
      card_exp_month: '01',
      card_exp_year: '2030',
      card_cvv2: '123',
    }
    const response = await t.gateway.handle({
      method: 'POST',
      path: '/api/v1/processing/purchase/card',
      query: {},
      headers: { 'content-type': 'application/json', token: tok },
      body: new TextEncoder().encode(JSON.stringify({ ...PLATFORM_BODY, ...card })),
    })
    expect(response.status).toBe(200)
    expect(response.warnings).toHaveLength(1)
    expect(response.warnings?.[0]).toMatch(
      /^card_number: card data in the body of a Hosted Payment Fields payment/,
    )

    const strict = createTestGateway([checkoutSessionModule, hostedPagesModule], {
      ...configWith([{ id: 'demo-mid' }]),
      strict: true,
    })
    const strictToken = await token(strict)
    const refused = await pay(strict, strictToken, { ...PLATFORM_BODY, ...card })
    expect(refused.status).toBe(400)
    expect(messages(refused.body)[0]).toMatch(/^card_number: card data in the body/)
    expect(strict.store.count('payments')).toBe(0)
  })
})

describe('the script and the frames (docs/rules.md#sessions)', () => {
  it('serves /sdk/hosted-fields.js with the HostedFields API', async () => {
    const r = await setup().call('GET', '/sdk/hosted-fields.js')
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8')
    for (const part of [
      'class HostedFields',
      'init(options)',
      'collectIframesData()',
      'cardOn(',
      'expiryOn(',
      'cvvOn(',
    ])
      expect(r.raw).toContain(part)
  })

  it('serves one frame per field for a session token, with the merchant style filtered', async () => {
    const t = setup()
    const tok = await token(t)
    const style = encodeURIComponent(
      JSON.stringify({ base: { color: '#123456', fontSize: '18px' }, invalid: { color: 'red;}body{x' } }),
    )
    const card = await t.call('GET', `/sdk/hosted-fields/${tok}/card?style=${style}`)
    expect(card.status).toBe(200)
    expect(card.raw).toContain('cc-number')
    expect(card.raw).toContain('#field{color:#123456;font-size:18px}')
    expect(card.raw).not.toContain('body{x')
    expect((await t.call('GET', `/sdk/hosted-fields/${tok}/expiry`)).raw).toContain('cc-exp')
    expect((await t.call('GET', `/sdk/hosted-fields/${tok}/pin`)).status).toBe(404)
    expect((await t.call('GET', '/sdk/hosted-fields/nope/card')).status).toBe(404)
  })
})
