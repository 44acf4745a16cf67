import { describe, expect, it } from 'vitest'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import { DAY } from '../../src/core/ports/clock.js'
import { validate } from '../../src/core/validation/index.js'
import {
  createOperationsGateway,
  MERCHANT,
  OTHER_MERCHANT,
  OTHER_PASSWORD,
  putPayment,
  putRecurringInitial,
  sign,
  storeSnapshot,
  testCard,
  transactionsOf,
} from '../helpers/payments.js'

const RECURRING = '/api/v1/payment/recurring'
const setup = () => createOperationsGateway([checkoutOperationsModule])
const INCORRECT = {
  http_code: 400,
  error_code: 0,
  error_message: 'Request data is invalid.',
  errors: [{ error_code: 100000, error_message: 'Incorrect transaction' }],
}

const order = { number: 'order-2', amount: '5.00', description: 'Monthly plan' }
function body(initId: string, token: string, extra: Record<string, unknown> = {}, o = order) {
  return {
    merchant_key: MERCHANT,
    recurring_init_trans_id: initId,
    recurring_token: token,
    order: o,
    hash: sign.recurring(initId, token, o),
    ...extra,
  }
}
const tokenOf = (p: { recurring?: { token?: string } }) => p.recurring?.token as string

describe('POST /api/v1/payment/recurring', () => {
  // 2.3: "Secondary payments use the recurring request with `recurring_init_trans_id` and
  // `recurring_token`, without card data."
  it("charges the initial payment's stored card and stores this request's custom_data", async () => {
    const t = setup()
    const initial = putRecurringInitial(t, { custom_data: { from: 'initial' }, card_token: 'ct-1' })
    const r = await t.call(
      'POST',
      RECURRING,
      body(initial.id, tokenOf(initial), { custom_data: { period: '2026-12' } }),
    )
    expect(r.status).toBe(200)
    const id = r.body.payment_id as string
    // docs/rules.md#responses: recurring: `{status: "settled"|"declined", reason?, payment_id, date, schedule_id?, order}`
    expect(r.body).toEqual({
      status: 'settled',
      payment_id: id,
      date: '2026-11-02 10:00:00',
      order: { ...order, currency: 'USD' },
    })
    expect(validate('checkout/recurring-response', r.body).valid).toBe(true)
    expect(id).not.toBe(initial.id)
    // 2.1 custom_data: "on secondary recurring requests (in which case the callback returns the recurring request's value)"
    expect(t.store.get('payments', id)).toMatchObject({
      status: 'settled',
      operation: 'purchase',
      amount_captured: '5.00',
      financial_day: '2026-11-02',
      custom_data: { period: '2026-12' },
      card: initial.card,
      card_token: 'ct-1',
      recurring: { init: false, init_trans_id: initial.id, parent_payment_id: initial.id },
    })
    expect(transactionsOf(t, id)).toMatchObject([{ type: 'recurring', status: 'success', amount: '5.00' }])
    expect(t.store.get('payments', initial.id)).toEqual(initial)
  })

  it('returns the schedule of the request, or of the initial payment', async () => {
    const t = setup()
    const initial = putRecurringInitial(t, { schedule_id: 'sched-1' })
    const own = await t.call('POST', RECURRING, body(initial.id, tokenOf(initial)))
    expect(own.body).toMatchObject({ schedule_id: 'sched-1' })
    const sent = await t.call(
      'POST',
      RECURRING,
      body(initial.id, tokenOf(initial), { schedule_id: 'sched-2' }),
    )
    expect(sent.body).toMatchObject({ schedule_id: 'sched-2' })
  })

  it('keeps a debit chain a debit', async () => {
    const t = setup()
    const initial = putRecurringInitial(t, { operation: 'debit' })
    const r = await t.call('POST', RECURRING, body(initial.id, tokenOf(initial)))
    expect(t.store.get('payments', r.body.payment_id as string)?.operation).toBe('debit')
  })

  // docs/rules.md#test-cards: "02 decline"
  it('declines when the stored card declines, with the reason', async () => {
    const t = setup()
    const initial = putRecurringInitial(t, { card: testCard('02') })
    const r = await t.call('POST', RECURRING, body(initial.id, tokenOf(initial)))
    expect(r.body).toMatchObject({ status: 'declined', reason: 'Declined by processing.' })
    expect(validate('checkout/recurring-response', r.body).valid).toBe(true)
    const stored = t.store.get('payments', r.body.payment_id as string)
    expect(stored).toMatchObject({
      status: 'decline',
      decline_reason: 'Declined by processing.',
      amount_captured: '0.00',
    })
  })

  it('declines once the stored card has expired on the sandbox clock', async () => {
    const t = setup()
    const initial = putRecurringInitial(t, { card: testCard('11', '2026') })
    const before = await t.call('POST', RECURRING, body(initial.id, tokenOf(initial)))
    expect(before.body).toMatchObject({ status: 'settled' })
    await t.clock.advance(30 * DAY) // 2026-12-02
    const after = await t.call('POST', RECURRING, body(initial.id, tokenOf(initial)))
    expect(after.body).toMatchObject({ status: 'declined', reason: 'Expired card' })
  })

  // Errors: "S2S CARD RECURRING_SALE with an unknown initial pair | 400 | 100000 | Incorrect transaction"
  // (the Checkout row CHECKOUT_RECURRING_INCORRECT_TRANSACTION follows it)
  it.each([
    ['a wrong token', (id: string, _token: string) => [id, 'wrong-token']],
    ['an unknown initial payment', (_id: string, token: string) => ['no-such-payment', token]],
  ])('answers "Incorrect transaction" for %s', async (_, pair) => {
    const t = setup()
    const initial = putRecurringInitial(t)
    const before = storeSnapshot(t)
    const [id, token] = pair(initial.id, tokenOf(initial)) as [string, string]
    const r = await t.call('POST', RECURRING, body(id, token))
    expect(r.body).toEqual(INCORRECT)
    expect(storeSnapshot(t)).toBe(before)
  })

  it('answers "Incorrect transaction" for a payment that started no chain', async () => {
    const t = setup()
    const plain = putPayment(t, { recurring: { init: false, token: 'leaked' } })
    expect((await t.call('POST', RECURRING, body(plain.id, 'leaked'))).body).toEqual(INCORRECT)
  })

  it("answers another merchant's chain exactly as an unknown one", async () => {
    const t = setup()
    const initial = putRecurringInitial(t)
    const token = tokenOf(initial)
    const r = await t.call('POST', RECURRING, {
      ...body(initial.id, token),
      merchant_key: OTHER_MERCHANT,
      hash: sign.recurring(initial.id, token, order, OTHER_PASSWORD),
    })
    expect(r.body).toEqual(INCORRECT)
  })

  it('uses the initial currency when none is sent, and checks the amount against it', async () => {
    const t = setup()
    const initial = putRecurringInitial(t, {
      order: { number: 'jpy-1', amount: '1000', currency: 'JPY', description: 'd' },
      amount_captured: '1000',
    })
    // docs/rules.md#amounts: JPY is sent as 100.00; a fraction JPY cannot carry is refused
    const bad = await t.call(
      'POST',
      RECURRING,
      body(initial.id, tokenOf(initial), {}, { ...order, amount: '5.50' }),
    )
    expect(bad.body).toMatchObject({
      errors: [
        {
          error_message:
            'order.amount: This value is not valid. JPY has no minor unit: send the amount with two zero decimals, for example 100.00.',
        },
      ],
    })
    const o = { number: 'order-3', amount: '500', description: 'Monthly plan' }
    const good = await t.call('POST', RECURRING, body(initial.id, tokenOf(initial), {}, o))
    expect(good.body).toMatchObject({ status: 'settled', order: { amount: '500', currency: 'JPY' } })
  })

  it('refuses a zero amount', async () => {
    const t = setup()
    const initial = putRecurringInitial(t)
    const o = { ...order, amount: '0.00' }
    const r = await t.call('POST', RECURRING, body(initial.id, tokenOf(initial), {}, o))
    expect(r.body).toMatchObject({
      errors: [{ error_message: 'amount: This value should be greater than 0.' }],
    })
  })
})
