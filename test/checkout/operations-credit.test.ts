import { describe, expect, it } from 'vitest'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import { validate } from '../../src/core/validation/index.js'
import { createTestGateway } from '../helpers/engine.js'
import {
  createOperationsGateway,
  MERCHANT,
  OTHER_MERCHANT,
  putCard,
  sign,
  storeSnapshot,
  testCard,
  transactionsOf,
  twoMerchantConfig,
} from '../helpers/payments.js'

const CREDIT = '/api/v1/payment/card/credit'
const setup = () => createOperationsGateway([checkoutOperationsModule])
const order = {
  order_id: 'payout-1',
  order_amount: '100.00',
  order_currency: 'EUR',
  order_description: 'Cash out',
}
const body = (cardToken: string, extra: Record<string, unknown> = {}, o = order) => ({
  merchant_key: MERCHANT,
  ...o,
  card_token: cardToken,
  hash: sign.credit(o),
  ...extra,
})

describe('POST /api/v1/payment/card/credit', () => {
  // Endpoints: "merchant_key, order_id, order_amount, order_currency, order_description, card_token,
  // payee_first_name (optional), payee_last_name (optional), hash"
  it('pays out to a saved card, with the names sent overriding the stored ones', async () => {
    const t = setup()
    const card = putCard(t)
    const r = await t.call(
      'POST',
      CREDIT,
      body(card.id, { payee_first_name: 'Amal', payee_last_name: 'Haddad', custom_data: { player: 'p-19' } }),
    )
    expect(r.status).toBe(200)
    const id = r.body.payment_id as string
    // docs/rules.md#card-credit: "card credit: accepted only, the outcome comes as a `type=credit` callback"
    expect(r.body).toEqual({ payment_id: id, result: 'accepted' })
    expect(validate('checkout/credit-response', r.body).valid).toBe(true)
    expect(t.store.get('payments', id)).toMatchObject({
      operation: 'credit',
      status: 'settled',
      card_token: card.id,
      card: card.card,
      payer: { payee_first_name: 'Amal', payee_last_name: 'Haddad' },
      custom_data: { player: 'p-19' },
    })
    expect(transactionsOf(t, id)).toMatchObject([{ type: 'credit', status: 'success', amount: '100.00' }])
  })

  // 2.1: "when sent they override the name stored with the token"
  it('keeps the names stored with the token when none are sent', async () => {
    const t = setup()
    const card = putCard(t)
    const r = await t.call('POST', CREDIT, body(card.id, { payee_last_name: 'Haddad' }))
    expect(t.store.get('payments', r.body.payment_id as string)?.payer).toEqual({
      payee_first_name: 'Stored',
      payee_last_name: 'Haddad',
    })
  })

  it('answers a declined payout as accepted; the payment records the decline and its reason', async () => {
    const t = setup()
    const card = putCard(t, { card: testCard('02') })
    const r = await t.call('POST', CREDIT, body(card.id))
    expect(r.body).toMatchObject({ result: 'accepted' })
    expect(t.store.get('payments', String(r.body.payment_id))).toMatchObject({
      status: 'decline',
      decline_reason: 'Declined by processing.',
    })
    expect(validate('checkout/credit-response', r.body).valid).toBe(true)
  })

  it("refuses an unknown card_token and another merchant's token alike, changing nothing", async () => {
    const t = setup()
    const theirs = putCard(t, { merchant_key: OTHER_MERCHANT })
    const before = storeSnapshot(t)
    const expected = {
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 205005, error_message: 'card_token: Card token is invalid or not found.' }],
    }
    expect((await t.call('POST', CREDIT, body('no-such-token'))).body).toEqual(expected)
    expect((await t.call('POST', CREDIT, body(theirs.id))).body).toEqual(expected)
    expect(storeSnapshot(t)).toBe(before)
  })

  it('needs a MID that takes the currency (ROUTING_NO_MID)', async () => {
    const config = twoMerchantConfig()
    config.merchants[0].mids[0].currencies = ['USD']
    const t = createTestGateway([checkoutOperationsModule], config)
    const card = putCard(t)
    const before = storeSnapshot(t)
    const r = await t.call('POST', CREDIT, body(card.id))
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 204002, error_message: 'Enabled merchant mappings or MIDs not found.' }],
    })
    expect(storeSnapshot(t)).toBe(before)
  })

  it('refuses a zero amount', async () => {
    const t = setup()
    const card = putCard(t)
    const zero = { ...order, order_amount: '0.00' }
    const r = await t.call('POST', CREDIT, body(card.id, {}, zero))
    expect(r.body).toMatchObject({
      errors: [{ error_message: 'amount: This value should be greater than 0.' }],
    })
  })
})
