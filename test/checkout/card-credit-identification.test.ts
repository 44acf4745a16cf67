import { describe, expect, it } from 'vitest'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import { createTestGateway } from '../helpers/engine.js'
import { MERCHANT, putCard, sign, storeSnapshot, twoMerchantConfig } from '../helpers/payments.js'
import { messages } from './session-helpers.js'

/**
 * docs/rules.md#card-credit: POST /api/v1/payment/card/credit identifies the card "either by
 * card_number or by a card_token" (the platform's card-credit page), exactly one of the two; the
 * expiry is taken when sent and is not required, so a payout by card number alone is accepted.
 * Every refusal names what was actually wrong and changes nothing.
 */
const CREDIT = '/api/v1/payment/card/credit'
const order = {
  order_id: 'payout-id',
  order_amount: '25.00',
  order_currency: 'EUR',
  order_description: 'Winnings',
}
const body = (card: Record<string, unknown>) => ({
  merchant_key: MERCHANT,
  ...order,
  ...card,
  hash: sign.credit(order),
})
const setup = () => createTestGateway([checkoutOperationsModule], twoMerchantConfig())

describe('card credit: which card (docs/rules.md#card-credit)', () => {
  it('neither card_number nor card_token: the platform sentence, nothing stored', async () => {
    const t = setup()
    const before = storeSnapshot(t)
    const r = await t.call('POST', CREDIT, body({}))
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ error_code: 0, error_message: 'Request data is invalid.' })
    expect(messages(r.body)).toEqual(['Identify the card either by card_number or by a card_token.'])
    expect(storeSnapshot(t)).toBe(before)
  })

  it('both: says "not both", nothing stored', async () => {
    const t = setup()
    const card = putCard(t)
    const before = storeSnapshot(t)
    const r = await t.call('POST', CREDIT, body({ card_token: card.id, card_number: '4601541833776519' }))
    expect(r.status).toBe(400)
    expect(messages(r.body)).toEqual([
      'Identify the card either by card_number or by a card_token, not both.',
    ])
    expect(storeSnapshot(t)).toBe(before)
  })

  it('card_number alone (no expiry fields): accepted, paid out, no expiry recorded', async () => {
    const t = setup()
    const r = await t.call('POST', CREDIT, body({ card_number: '4601541833776519' }))
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ payment_id: expect.any(String), result: 'accepted' })
    const payment = t.store.get('payments', String(r.body.payment_id))
    expect(payment).toMatchObject({
      operation: 'credit',
      status: 'settled',
      card: { last4: '6519', exp_month: '', exp_year: '' },
    })
  })

  it('card_number with its expiry: the expiry is taken (month 02 declines, as every test card)', async () => {
    const t = setup()
    const r = await t.call(
      'POST',
      CREDIT,
      body({ card_number: '4111111111111111', card_exp_month: '02', card_exp_year: '2038' }),
    )
    expect(r.body).toEqual({ payment_id: expect.any(String), result: 'accepted' })
    expect(t.store.get('payments', String(r.body.payment_id))).toMatchObject({
      status: 'decline',
      card: { exp_month: '02', exp_year: '2038' },
    })
  })

  it('card_token alone: accepted', async () => {
    const t = setup()
    const card = putCard(t)
    const r = await t.call('POST', CREDIT, body({ card_token: card.id }))
    expect(r.status).toBe(200)
    expect(t.store.get('payments', String(r.body.payment_id))).toMatchObject({
      status: 'settled',
      card_token: card.id,
    })
  })

  it('names the half of an expiry that is missing, and an expiry sent with a card_token', async () => {
    const t = setup()
    const card = putCard(t)
    const before = storeSnapshot(t)
    const half = await t.call('POST', CREDIT, body({ card_number: '4601541833776519', card_exp_month: '01' }))
    expect(messages(half.body)).toEqual([
      'card_exp_year: This value should not be blank when card_exp_month is sent.',
    ])
    const withToken = await t.call('POST', CREDIT, body({ card_token: card.id, card_exp_year: '2038' }))
    expect(messages(withToken.body)).toEqual([
      'card_exp_year: This value belongs to card_number: a card_token carries the expiry of its card.',
    ])
    const expired = await t.call(
      'POST',
      CREDIT,
      body({ card_number: '4601541833776519', card_exp_month: '01', card_exp_year: '2020' }),
    )
    expect(expired.status).toBe(400)
    expect(storeSnapshot(t)).toBe(before)
  })
})
