import { describe, expect, it } from 'vitest'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import type { TestGateway } from '../helpers/engine.js'
import {
  bodies,
  createOperationsGateway,
  MERCHANT,
  OTHER_MERCHANT,
  OTHER_PASSWORD,
  putAuthorized,
  putCard,
  putPayment,
  putRecurringInitial,
  sign,
  storeSnapshot,
} from '../helpers/payments.js'

const setup = () => createOperationsGateway([checkoutOperationsModule])
const WRONG_HASH = 'a'.repeat(40)

/** A request each endpoint would accept, against records it creates. */
const VALID: Record<string, (t: TestGateway) => Record<string, unknown>> = {
  '/api/v1/payment/capture': (t) => bodies.capture(putAuthorized(t).id),
  '/api/v1/payment/void': (t) => bodies.void(putPayment(t).id),
  '/api/v1/payment/refund': (t) => bodies.refund(putPayment(t).id, '1.00'),
  '/api/v1/payment/retry': (t) =>
    bodies.void(putPayment(t, { status: 'decline', recurring: { init: false, parent_payment_id: 'x' } }).id),
  '/api/v1/payment/status': (t) => {
    const id = putPayment(t).id
    return { merchant_key: MERCHANT, payment_id: id, hash: sign.payment(id) }
  },
  '/api/v1/payment/recurring': (t) => {
    const initial = putRecurringInitial(t)
    const token = initial.recurring?.token as string
    const order = { number: 'o-2', amount: '1.00', description: 'd' }
    return {
      merchant_key: MERCHANT,
      recurring_init_trans_id: initial.id,
      recurring_token: token,
      order,
      hash: sign.recurring(initial.id, token, order),
    }
  },
  '/api/v1/payment/card/credit': (t) => {
    const o = { order_id: 'po-1', order_amount: '1.00', order_currency: 'USD', order_description: 'd' }
    return { merchant_key: MERCHANT, ...o, card_token: putCard(t).id, hash: sign.credit(o) }
  },
}
const PATHS = Object.keys(VALID)

// docs/engine.md: "Validate first, then authenticate, then look things up: a bad request, a wrong key
// or hash, and an unknown id all change nothing."
describe.each(PATHS)('%s', (path) => {
  // docs/rules.md#errors: a bad hash is the errors[] item `hash: Hash is not valid.` of a 400 answer
  it('refuses a wrong hash with 400 and the item hash: Hash is not valid., changing nothing', async () => {
    const t = setup()
    const body = VALID[path]?.(t) ?? {}
    const before = storeSnapshot(t)
    const r = await t.call('POST', path, { ...body, hash: WRONG_HASH })
    expect(r.status).toBe(400)
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'hash: Hash is not valid.' }],
    })
    expect(storeSnapshot(t)).toBe(before)
  })

  // docs/rules.md#errors: an unknown merchant key is the item `merchant_key: This value is not correct.`
  it('refuses an unknown merchant_key with 400 and the merchant_key item, changing nothing', async () => {
    const t = setup()
    const body = VALID[path]?.(t) ?? {}
    const before = storeSnapshot(t)
    const r = await t.call('POST', path, { ...body, merchant_key: 'nobody' })
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'merchant_key: This value is not correct.' }],
    })
    expect(storeSnapshot(t)).toBe(before)
  })

  it('answers malformed JSON and a missing hash with structured 400s', async () => {
    const t = setup()
    const body = VALID[path]?.(t) ?? {}
    const malformed = await t.call('POST', path, '{"merchant_key":', { 'content-type': 'application/json' })
    expect(malformed.body).toMatchObject({
      http_code: 400,
      error_code: 0,
      errors: [{ error_message: 'Request body could not be parsed.' }],
    })
    const { hash: _hash, ...unsigned } = body
    const r = await t.call('POST', path, unsigned)
    expect(r.body).toMatchObject({ errors: [{ error_message: 'hash: This value should not be blank.' }] })
  })

  it('accepts the valid request (so the refusals above are about the hash and key only)', async () => {
    const t = setup()
    const r = await t.call('POST', path, VALID[path]?.(t) ?? {})
    expect(r.status).toBe(200)
  })
})

// Errors: "payment, schedule and recurring entities keep 100000 with their own messages"
// (CHECKOUT_PAYMENT_NOT_FOUND: "Payment not found.")
describe.each([
  '/api/v1/payment/capture',
  '/api/v1/payment/void',
  '/api/v1/payment/refund',
  '/api/v1/payment/retry',
])("%s on another merchant's payment", (path) => {
  it('answers exactly as for a payment that does not exist', async () => {
    const t = setup()
    const theirs = putAuthorized(t, { merchant_key: OTHER_MERCHANT })
    const before = storeSnapshot(t)
    const missing = await t.call('POST', path, bodies.capture('no-such-payment'))
    const expected = {
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'Payment not found.' }],
    }
    expect(missing.body).toEqual(expected)
    // Signed correctly by the other merchant, for the other merchant's payment, but under our key.
    const hash =
      path.endsWith('capture') || path.endsWith('refund') ? sign.amount(theirs.id) : sign.payment(theirs.id)
    const foreign = await t.call('POST', path, { merchant_key: MERCHANT, payment_id: theirs.id, hash })
    expect(foreign.body).toEqual(expected)
    expect(storeSnapshot(t)).toBe(before)
    // And the other merchant reaching ours.
    const ours = putPayment(t)
    const beforeOurs = storeSnapshot(t)
    const byThem = {
      merchant_key: OTHER_MERCHANT,
      payment_id: ours.id,
      hash:
        path.endsWith('capture') || path.endsWith('refund')
          ? sign.amount(ours.id, undefined, OTHER_PASSWORD)
          : sign.payment(ours.id, OTHER_PASSWORD),
    }
    expect((await t.call('POST', path, byThem)).body).toEqual(expected)
    expect(storeSnapshot(t)).toBe(beforeOurs)
  })
})

// The S2S APIs have their own trans_id lookups: a Checkout operation does not reach an S2S payment.
it('does not reach payments made through S2S', async () => {
  const t = setup()
  const p = putPayment(t, { api: 's2s-card' })
  const r = await t.call('POST', '/api/v1/payment/refund', bodies.refund(p.id))
  expect(r.body).toEqual({
    http_code: 400,
    error_code: 0,
    error_message: 'Request data is invalid.',
    errors: [{ error_code: 100000, error_message: 'Payment not found.' }],
  })
})
