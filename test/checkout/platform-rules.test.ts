import { describe, expect, it } from 'vitest'
import { checkoutSessionModule } from '../../src/core/checkout/module.js'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import type { SandboxConfig, SandboxMerchant } from '../../src/core/engine/context.js'
import { hostedPagesModule } from '../../src/pages/module.js'
import { createTestGateway, type TestGateway } from '../helpers/engine.js'
import { MERCHANT, putCard, putPayment, sign, storeSnapshot, twoMerchantConfig } from '../helpers/payments.js'
import {
  configWith,
  counts,
  DEMO,
  messages,
  sessionBody,
  sessionByToken,
  tokenBody,
} from './session-helpers.js'

/** The demo merchant (and a second one) with `patch` on the demo merchant. */
function gateway(
  patch: Partial<SandboxMerchant> = {},
  mids: Parameters<typeof configWith>[0] = [{ id: 'demo-mid' }],
) {
  const config: SandboxConfig = configWith(mids)
  config.merchants[0] = { ...(config.merchants[0] as SandboxMerchant), ...patch }
  return createTestGateway([checkoutSessionModule, checkoutOperationsModule, hostedPagesModule], config)
}

const update = (t: TestGateway, token: string | undefined, body: Record<string, unknown>) =>
  t.call('PUT', '/api/v1/session/update', body, token === undefined ? {} : { Token: token })

async function hpfToken(t: TestGateway, overrides: Record<string, unknown> = {}) {
  return String((await t.call('POST', '/api/v1/session/token', tokenBody(overrides))).body.token)
}

describe('method identifiers on the session (docs/rules.md#transport)', () => {
  it('takes applepay and googlepay as the device wallets', async () => {
    const t = gateway()
    const r = await t.call(
      'POST',
      '/api/v1/session',
      sessionBody({ methods: ['applepay', 'googlepay', 'card'] }),
    )
    expect(r.status).toBe(200)
  })

  it('names the closest valid identifiers of an unknown one', async () => {
    const t = gateway()
    const r = await t.call('POST', '/api/v1/session', sessionBody({ methods: ['card', 'apple_pay'] }))
    expect(messages(r.body)).toEqual([
      'methods[1]: The value you selected is not a valid choice. Did you mean: applepay?',
    ])
  })

  it("takes a merchant's method_aliases, kept on the session as the catalogue identifier", async () => {
    const t = gateway({ method_aliases: { 'shop-card': 'card' } })
    const r = await t.call('POST', '/api/v1/session/token', tokenBody({ methods: ['shop-card'] }))
    expect(r.status).toBe(200)
    expect(sessionByToken(t, String(r.body.token))?.methods).toEqual(['card'])
    const other = await t.call('POST', '/api/v1/session/token', tokenBody({ methods: ['shop-crd'] }))
    expect(messages(other.body)).toEqual([
      'methods[0]: The value you selected is not a valid choice. Did you mean: shop-card?',
    ])
  })
})

describe('PUT /api/v1/session/update as the platform answers it (docs/rules.md#sessions)', () => {
  // "bad/missing Token → 403 and 'The response is an HTML page, not a JSON error.'"
  it('answers a missing, unknown or expired Token with 403 and an HTML page, changing nothing', async () => {
    const t = gateway()
    const before = counts(t)
    for (const token of [undefined, 'f'.repeat(32)]) {
      const r = await update(t, token, { order_amount: '5.00' })
      expect(r.status).toBe(403)
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(r.raw).toMatch(/^<!doctype html>/i)
    }
    // The page token of a hosted page never authorizes the update (docs/rules.md#sessions).
    const page = await t.call('POST', '/api/v1/session', sessionBody())
    const pageToken = String(page.body.redirect_url).split('/auth/')[1] as string
    expect((await update(t, pageToken, { order_amount: '5.00' })).status).toBe(403)
    expect(counts(t)).toEqual({ ...before, sessions: before.sessions + 1 })
  })

  // "after any payment (even declined) the request returns the error Session can not be updated."
  it('answers "Session can not be updated." once a payment exists, declined included', async () => {
    const t = gateway()
    const token = await hpfToken(t)
    await t.call('POST', `/sdk/hosted-fields/${token}/collect`, {
      card_number: '4111111111111111',
      card_exp_month: '02',
      card_exp_year: '2030',
      card_cvv2: '123',
    })
    const paid = await t.call(
      'POST',
      '/api/v1/processing/purchase/card',
      { with_hosted_fields: true, name: 'J' },
      { Token: token },
    )
    expect(paid.body.result).toBe('decline')
    const r = await update(t, token, { order_amount: '5.00' })
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'Session can not be updated.' }],
    })
  })

  // "changing order_amount/order_currency re-selects methods, else error 'Not found acceptable methods.'"
  it('answers "Not found acceptable methods." when no method takes the new currency', async () => {
    const t = gateway({}, [{ id: 'usd-mid', currencies: ['USD'] }])
    const token = await hpfToken(t)
    const r = await update(t, token, { order_currency: 'EUR', order_amount: '10.00' })
    expect(messages(r.body)).toEqual(['Not found acceptable methods.'])
    expect(sessionByToken(t, token)?.request.order).toMatchObject({ currency: 'USD' })
  })
})

describe('card credit (docs/rules.md#card-credit: card_number or card_token, accepted only)', () => {
  const CREDIT = '/api/v1/payment/card/credit'
  const order = {
    order_id: 'payout-9',
    order_amount: '50.00',
    order_currency: 'EUR',
    order_description: 'Cash out',
  }
  const body = (card: Record<string, unknown>) => ({
    merchant_key: MERCHANT,
    ...order,
    ...card,
    hash: sign.credit(order),
  })
  const setup = () => createTestGateway([checkoutOperationsModule], twoMerchantConfig())

  it('pays out to a card number and answers only that the payout was accepted', async () => {
    const t = setup()
    const r = await t.call(
      'POST',
      CREDIT,
      body({
        card_number: '4601541833776519',
        card_exp_month: '01',
        card_exp_year: '2038',
        card_holder: 'Amal Haddad',
      }),
    )
    expect(r.body).toEqual({ payment_id: expect.any(String), result: 'accepted' })
    const payment = t.store.get('payments', String(r.body.payment_id))
    expect(payment).toMatchObject({ operation: 'credit', status: 'settled', card: { last4: '6519' } })
    expect(payment?.card_token).toBeUndefined()
  })

  it('answers a declined payout as accepted too: the outcome is the type=credit callback', async () => {
    const t = setup()
    const card = putCard(t, { card: { ...putCard(t).card, exp_month: '02' } })
    const r = await t.call('POST', CREDIT, body({ card_token: card.id }))
    expect(r.body).toEqual({ payment_id: expect.any(String), result: 'accepted' })
    expect(t.store.get('payments', String(r.body.payment_id))?.status).toBe('decline')
  })

  it('takes the card one way only, and checks a card number', async () => {
    const t = setup()
    const card = putCard(t)
    const before = storeSnapshot(t)
    const both = await t.call(
      'POST',
      CREDIT,
      body({
        card_token: card.id,
        card_number: '4601541833776519',
        card_exp_month: '01',
        card_exp_year: '2038',
      }),
    )
    expect(messages(both.body)).toEqual([
      'Identify the card either by card_number or by a card_token, not both.',
    ])
    const none = await t.call('POST', CREDIT, body({}))
    expect(none.status).toBe(400)
    expect(messages(none.body)).toEqual(['Identify the card either by card_number or by a card_token.'])
    const bad = await t.call(
      'POST',
      CREDIT,
      body({ card_number: '4601541833776510', card_exp_month: '01', card_exp_year: '2038' }),
    )
    expect(messages(bad.body)).toEqual(['card_number: This value is not a valid card number.'])
    expect(storeSnapshot(t)).toBe(before)
  })
})

describe('release 6.6.5 (docs/rules.md#warnings-and-releases; Versioning 6.7.0 row)', () => {
  const legacy = { release: '6.6.5' as const }

  // Errors: "Invalid identifier in a status lookup before 6.7.0 | 400 | 100000 | This value is not correct."
  it('answers an unknown payment_id and order_id with the pre-6.7.0 row', async () => {
    const t = gateway(legacy)
    const expected = { http_code: 400, error_code: 100000, error_message: 'This value is not correct.' }
    const byPayment = { merchant_key: DEMO.key, payment_id: 'nope', hash: sign.payment('nope') }
    expect((await t.call('POST', '/api/v1/payment/status', byPayment)).body).toEqual(expected)
    const byOrder = { merchant_key: DEMO.key, order_id: 'nope', hash: sign.order('nope') }
    expect((await t.call('POST', '/api/v1/payment/status', byOrder)).body).toEqual(expected)
    // the same merchant at 6.7.0: 101000
    const current = gateway()
    expect((await current.call('POST', '/api/v1/payment/status', byPayment)).body).toMatchObject({
      error_code: 101000,
    })
  })

  // 6.7.0 Additions: "`size` parameter"
  it('refuses size, a 6.7.0 addition', async () => {
    const t = gateway(legacy)
    putPayment(t, {
      order: { number: 'o-1', amount: '10.00', currency: 'USD', description: 'd' },
      order_id: 'o-1',
    })
    const r = await t.call('POST', '/api/v1/payment/status', {
      merchant_key: DEMO.key,
      order_id: 'o-1',
      size: 2,
      hash: sign.order('o-1'),
    })
    expect(messages(r.body)).toEqual(['size: This field was not expected.'])
  })

  // 6.7.0 Additions: "MOTO", "`auth` in Checkout", "`customer.ip`"
  it('refuses the session fields 6.7.0 added, and takes the rest', async () => {
    const t = gateway(legacy)
    const before = counts(t)
    const r = await t.call(
      'POST',
      '/api/v1/session/token',
      tokenBody({ auth: true, customer: { ip: '203.0.113.7' } }),
    )
    expect(messages(r.body)).toEqual([
      'auth: This field was not expected.',
      'customer.ip: This field was not expected.',
    ])
    expect(counts(t)).toEqual(before)
    expect((await t.call('POST', '/api/v1/session/token', tokenBody())).status).toBe(200)
  })

  // 6.7.0 Additions: "Hosted Payment Fields debit", "session update"
  it('does not serve the routes 6.7.0 added: session update and Hosted Payment Fields debit', async () => {
    const t = gateway(legacy)
    const token = await hpfToken(t, { operation: 'debit' })
    expect((await update(t, token, { order_amount: '5.00' })).body).toMatchObject({
      http_code: 404,
      error_message: 'Not found.',
    })
    const debit = await t.call(
      'POST',
      '/api/v1/processing/debit/card',
      { with_hosted_fields: true, name: 'J' },
      { Token: token },
    )
    expect(debit.status).toBe(404)
  })
})
