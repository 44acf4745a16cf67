import { describe, expect, it } from 'vitest'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import type { Session } from '../../src/core/engine/model.js'
import { MINUTE } from '../../src/core/ports/clock.js'
import { validate } from '../../src/core/validation/index.js'
import type { TestGateway } from '../helpers/engine.js'
import {
  createOperationsGateway,
  MERCHANT,
  OTHER_MERCHANT,
  OTHER_PASSWORD,
  putPayment,
  putRecurringInitial,
  sign,
  storeSnapshot,
} from '../helpers/payments.js'

const STATUS = '/api/v1/payment/status'
const setup = (mapping: Record<string, unknown> = {}) =>
  createOperationsGateway([checkoutOperationsModule], mapping)
const byPayment = (id: string, extra: Record<string, unknown> = {}) => ({
  merchant_key: MERCHANT,
  payment_id: id,
  hash: sign.payment(id),
  ...extra,
})
const byOrder = (orderId: string, extra: Record<string, unknown> = {}) => ({
  merchant_key: MERCHANT,
  order_id: orderId,
  hash: sign.order(orderId),
  ...extra,
})

/** Three attempts of order-A, one minute apart: settled newest, then declined, then declined. */
async function threeAttempts(t: TestGateway) {
  const order = { number: 'order-A', amount: '10.00', currency: 'USD', description: 'Important gift' }
  const first = putPayment(t, { order, status: 'decline', decline_reason: 'Declined by processing.' })
  await t.clock.advance(MINUTE)
  const second = putPayment(t, { order, status: 'decline', decline_reason: 'Declined by processing.' })
  await t.clock.advance(MINUTE)
  const third = putPayment(t, { order })
  return [third, second, first]
}

describe('POST /api/v1/payment/status by payment_id', () => {
  // docs/rules.md#responses: status: `{payment_id, date, status, reason?, recurring_token?, schedule_id?, order, customer}`
  it('answers one record', async () => {
    const t = setup()
    const p = putRecurringInitial(t, { schedule_id: 'sched-1', moto_type: 'phone_moto' })
    const r = await t.call('POST', STATUS, byPayment(p.id))
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      payment_id: p.id,
      date: '2026-11-02 10:00:00',
      status: 'settled',
      recurring_token: p.recurring?.token,
      schedule_id: 'sched-1',
      order: { number: p.order.number, amount: '10.00', currency: 'USD', description: 'Important gift' },
      // docs/rules.md#responses: customer{name, email}; the name on the card when the session gave none
      customer: { name: 'John Doe' },
      // 2.5: "`moto_type` is returned in the SALE response, the callback and the status response."
      moto_type: 'phone_moto',
    })
    expect(validate('checkout/status-response', r.body).valid).toBe(true)
  })

  it('gives the decline reason and the customer sent with the session', async () => {
    const t = setup()
    const session = {
      id: 'session-1',
      request: { customer: { name: 'John Doe', email: 'doe@example.com' } },
    } as unknown as Session
    t.store.put('sessions', session)
    const p = putPayment(t, {
      session_id: 'session-1',
      status: 'decline',
      decline_reason: 'Declined by processing.',
    })
    const r = await t.call('POST', STATUS, byPayment(p.id))
    expect(r.body).toMatchObject({
      status: 'decline',
      reason: 'Declined by processing.',
      customer: { name: 'John Doe', email: 'doe@example.com' },
    })
  })

  // Errors: "Checkout GET_TRANS_STATUS with unknown `payment_id` | 400 | 101000 | Payment does not exist."
  it("answers an unknown payment and another merchant's payment alike", async () => {
    const t = setup()
    const p = putPayment(t)
    const missing = { http_code: 400, error_code: 101000, error_message: 'Payment does not exist.' }
    const unknown = await t.call('POST', STATUS, byPayment('no-such-payment'))
    expect(unknown.status).toBe(400)
    expect(unknown.body).toEqual(missing)
    const other = await t.call('POST', STATUS, {
      merchant_key: OTHER_MERCHANT,
      payment_id: p.id,
      hash: sign.payment(p.id, OTHER_PASSWORD),
    })
    expect(other.body).toEqual(missing)
  })

  it('refuses `size` with payment_id', async () => {
    const t = setup()
    const p = putPayment(t)
    const r = await t.call('POST', STATUS, byPayment(p.id, { size: 2 }))
    expect(r.body).toMatchObject({
      error_message: 'Request data is invalid.',
      errors: [{ error_message: 'size: This field is only accepted with order_id.' }],
    })
  })
})

describe('POST /api/v1/payment/status by order_id', () => {
  // Endpoints: "omitted gives one object (newest payment); 1 gives an array of one object; 2 to 100
  // gives an array of up to that many most recent attempts"
  it('answers the newest payment as one object when size is omitted', async () => {
    const t = setup()
    const [newest] = await threeAttempts(t)
    const r = await t.call('POST', STATUS, byOrder('order-A'))
    expect(Array.isArray(r.body)).toBe(false)
    expect(r.body).toMatchObject({ payment_id: newest?.id, status: 'settled', date: '2026-11-02 10:02:00' })
  })

  it.each([
    [1, 1],
    [2, 2],
    [100, 3],
  ])('size %i answers an array of %i, newest first', async (size, length) => {
    const t = setup()
    const attempts = await threeAttempts(t)
    const r = await t.call('POST', STATUS, byOrder('order-A', { size }))
    expect(r.status).toBe(200)
    expect(Array.isArray(r.body)).toBe(true)
    expect(r.body.map((x) => x.payment_id)).toEqual(attempts.slice(0, length).map((p) => p.id))
    expect(validate('checkout/status-response', r.body).valid).toBe(true)
  })

  // Errors: "`size` above 100 | not shown | not shown | size should be within 1..100"
  it.each([101, 0, -1, 1.5, '101'])(
    'size %o answers "size should be within 1..100" and nothing else',
    async (size) => {
      const t = setup()
      await threeAttempts(t)
      const r = await t.call('POST', STATUS, byOrder('order-A', { size }))
      expect(r.status).toBe(400)
      expect(r.body).toEqual({
        http_code: 400,
        error_code: 100000,
        error_message: 'size should be within 1..100',
      })
    },
  )

  // Errors: "Checkout GET_TRANS_STATUS with unknown `order_id` | 400 | 101000 | Order does not exist."
  it("answers an unknown order and another merchant's order alike", async () => {
    const t = setup()
    await threeAttempts(t)
    const missing = { http_code: 400, error_code: 101000, error_message: 'Order does not exist.' }
    expect((await t.call('POST', STATUS, byOrder('order-B'))).body).toEqual(missing)
    const other = await t.call('POST', STATUS, {
      merchant_key: OTHER_MERCHANT,
      order_id: 'order-A',
      hash: sign.order('order-A', OTHER_PASSWORD),
    })
    expect(other.body).toEqual(missing)
  })

  it('signs with order_id + password, not payment_id', async () => {
    const t = setup()
    const [newest] = await threeAttempts(t)
    const before = storeSnapshot(t)
    const r = await t.call('POST', STATUS, {
      ...byOrder('order-A'),
      hash: sign.payment(newest?.id as string),
    })
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ error_code: 0, errors: [{ error_message: 'hash: Hash is not valid.' }] })
    expect(storeSnapshot(t)).toBe(before)
  })
})

describe('Protocol Mapping fields in status answers', () => {
  // Endpoints: "Status responses can include, when enabled in Protocol Mapping, `card` (masked number) and
  // `card_expiration_date` (`MM/YYYY`), ARN (omitted when missing), and the other mapped attributes"
  it('adds the enabled fields only', async () => {
    const t = setup({
      callback_fields: { card: true, card_expiration_date: true, arn: true, card_token: true },
      payer_attributes: { payer_email: true, payer_phone: false },
      return_additional_parameters: ['payment_method', 'brand'],
    })
    const p = putPayment(t, {
      card_token: 'ct-9',
      payer: { payer_email: 'doe@example.com', payer_phone: '123' },
    })
    const r = await t.call('POST', STATUS, byPayment(p.id))
    expect(r.body).toMatchObject({
      card: '411111******1111',
      card_expiration_date: '01/2030',
      card_token: 'ct-9',
      payer_email: 'doe@example.com',
      payment_method: 'card',
      brand: 'visa',
    })
    expect(r.body).not.toHaveProperty('ARN')
    expect(r.body).not.toHaveProperty('payer_phone')
    expect(validate('checkout/status-response', r.body).valid).toBe(true)
  })

  it('adds none of them by default ("enabled per Protocol Mapping, default off")', async () => {
    const t = setup()
    const p = putPayment(t, { card_token: 'ct-9', payer: { payer_email: 'doe@example.com' } })
    const r = await t.call('POST', STATUS, byPayment(p.id))
    for (const key of [
      'card',
      'card_expiration_date',
      'card_token',
      'payer_email',
      'payment_method',
      'brand',
    ])
      expect(r.body).not.toHaveProperty(key)
  })
})
