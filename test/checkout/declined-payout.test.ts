import { describe, expect, it } from 'vitest'
import { callbacksModule } from '../../src/core/callbacks/index.js'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import { maskCard } from '../../src/core/engine/format.js'
import { createTestGateway, type TestGateway } from '../helpers/engine.js'
import { MERCHANT, putCard, sign, testCard, transactionsOf, twoMerchantConfig } from '../helpers/payments.js'

/**
 * docs/rules.md#declined-payout (sandbox): card 4601541833776527 is declined as a payout recipient,
 * whatever its expiry. A Checkout card credit to it is answered accepted (docs/rules.md#card-credit:
 * "The response only confirms that the payout was accepted") and declined by its type=credit callback.
 */

const CREDIT = '/api/v1/payment/card/credit'
const DECLINED = '4601541833776527'
const order = {
  order_id: 'payout-d1',
  order_amount: '25.00',
  order_currency: 'EUR',
  order_description: 'Payout',
}
const body = (card: Record<string, unknown>) => ({
  merchant_key: MERCHANT,
  ...order,
  ...card,
  hash: sign.credit(order),
})
const setup = () => createTestGateway([checkoutOperationsModule, callbacksModule], twoMerchantConfig())

const creditCallbacks = (t: TestGateway, paymentId: string) =>
  t.store
    .findBy('deliveries', 'payment_id', paymentId)
    .map((d) => d.fields)
    .filter((f) => f.type === 'credit')

async function expectDeclined(t: TestGateway, card: Record<string, unknown>) {
  const r = await t.call('POST', CREDIT, body(card))
  expect(r.status).toBe(200)
  expect(r.body).toEqual({ payment_id: expect.any(String), result: 'accepted' })
  const id = String(r.body.payment_id)
  expect(t.store.get('payments', id)).toMatchObject({
    operation: 'credit',
    status: 'decline',
    decline_reason: 'Declined by processing.',
  })
  expect(transactionsOf(t, id)).toMatchObject([{ type: 'credit', status: 'fail' }])
  expect(creditCallbacks(t, id)).toEqual([
    expect.objectContaining({
      type: 'credit',
      status: 'fail',
      order_status: 'decline',
      order_number: 'payout-d1',
    }),
  ])
  return id
}

describe('a payout to the declining test recipient (docs/rules.md#declined-payout)', () => {
  it('by card number alone: accepted, then declined by its type=credit callback', async () => {
    await expectDeclined(setup(), { card_number: DECLINED })
  })

  it('by card number with an expiry that would succeed (month 01): declined all the same', async () => {
    await expectDeclined(setup(), { card_number: DECLINED, card_exp_month: '01', card_exp_year: '2038' })
  })

  it('by the card_token of a card saved from it: declined', async () => {
    const t = setup()
    const saved = putCard(t, {
      card: { ...testCard('01', '2038'), masked: maskCard(DECLINED), bin: '460154', last4: '6527' },
    })
    await expectDeclined(t, { card_token: saved.id })
  })

  it('the platform recipient 4601541833776519 still succeeds: its callback reports success', async () => {
    const t = setup()
    const r = await t.call('POST', CREDIT, body({ card_number: '4601541833776519' }))
    const id = String(r.body.payment_id)
    expect(t.store.get('payments', id)?.status).toBe('settled')
    expect(creditCallbacks(t, id)).toEqual([expect.objectContaining({ status: 'success' })])
  })
})
