import { describe, expect, it } from 'vitest'
import { callbacksModule, callbacksOf } from '../../src/core/callbacks/index.js'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import { SOFT_DECLINE_REASON } from '../../src/core/payments/recurring-test-amounts.js'
import {
  createOperationsGateway,
  MERCHANT,
  putRecurringInitial,
  sign,
  testCard,
  transactionsOf,
} from '../helpers/payments.js'

/**
 * docs/rules.md#recurring-test-amounts: Checkout recurring follows the S2S RECURRING_SALE test
 * amounts, so a merchant's Checkout retry flow is reachable without moving the clock 90 days:
 * an amount ending in `.51` is declined softly ("Soft decline: retry later."), and
 * POST /api/v1/payment/retry charges it again on the chain's card.
 */
const setup = () => createOperationsGateway([checkoutOperationsModule, callbacksModule])

async function recurring(t: ReturnType<typeof setup>, amount: string, initial = putRecurringInitial(t)) {
  const order = { number: `order-${amount}`, amount, description: 'Monthly plan' }
  const token = initial.recurring?.token as string
  return t.call('POST', '/api/v1/payment/recurring', {
    merchant_key: MERCHANT,
    recurring_init_trans_id: initial.id,
    recurring_token: token,
    order,
    hash: sign.recurring(initial.id, token, order),
  })
}

const callbacks = (t: ReturnType<typeof setup>, paymentId: string) =>
  t.sent
    .map((request) => Object.fromEntries(new URLSearchParams(String(request.body))))
    .filter((fields) => fields.id === paymentId)

describe('Checkout recurring test amounts (docs/rules.md#recurring-test-amounts)', () => {
  it('declines an amount ending in .51 softly, with the S2S reason, and reports it by callback', async () => {
    const t = setup()
    const r = await recurring(t, '10.51')
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ status: 'declined', reason: SOFT_DECLINE_REASON })
    const id = String(r.body.payment_id)
    expect(t.store.get('payments', id)).toMatchObject({
      status: 'decline',
      decline_reason: 'Soft decline: retry later.',
    })
    await callbacksOf(t.gateway.ctx).idle()
    expect(callbacks(t, id)).toMatchObject([
      { type: 'recurring', status: 'fail', order_status: 'decline', reason: 'Soft decline: retry later.' },
    ])
  })

  it('retry charges the soft decline again on the chain card: accepted, then settled', async () => {
    const t = setup()
    const id = String((await recurring(t, '0.51')).body.payment_id)
    const retry = await t.call('POST', '/api/v1/payment/retry', {
      merchant_key: MERCHANT,
      payment_id: id,
      hash: sign.payment(id),
    })
    expect(retry.body).toEqual({ payment_id: id, result: 'accepted' })
    expect(t.store.get('payments', id)).toMatchObject({ status: 'settled', amount_captured: '0.51' })
    expect(t.store.get('payments', id)?.scenario).toBeUndefined()
    expect(transactionsOf(t, id)).toMatchObject([
      { type: 'recurring', status: 'fail' },
      { type: 'recurring', status: 'success', amount: '0.51' },
    ])
    await callbacksOf(t.gateway.ctx).idle()
    expect(callbacks(t, id).map((c) => `${c.type}/${c.status}/${c.order_status}`)).toEqual([
      'recurring/fail/decline',
      'recurring/success/settled',
    ])
  })

  it('any other amount takes the chain card outcome: settled, or declined on an expired card', async () => {
    const t = setup()
    expect((await recurring(t, '10.50')).body).toMatchObject({ status: 'settled' })
    expect((await recurring(t, '10.00')).body).toMatchObject({ status: 'settled' })
    const expired = putRecurringInitial(t, { card: testCard('01', '2025') })
    expect((await recurring(t, '10.00', expired)).body).toMatchObject({
      status: 'declined',
      reason: 'Expired card',
    })
  })
})
