import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createTestApp, samplePayment, sampleTransaction } from './app.js'

/** docs/rules.md#control-api: the control API offers "whatever the CLI, the terminal UI and the scenario runner need". */
function seeded() {
  const t = createTestApp()
  for (let i = 1; i <= 25; i++)
    t.store.put(
      'payments',
      samplePayment(i, {
        merchant_key: i % 5 === 0 ? 'other-shop' : 'demo-merchant',
        status: i % 2 ? 'settled' : 'decline',
        order_id: i <= 3 ? 'order-shared' : `order-${i}`,
      }),
    )
  return t
}

const ids = (body: { payments: { id: string }[] }) => body.payments.map((p) => p.id)

describe('GET /sandbox/payments', () => {
  it('lists the newest first, 20 a page by default', async () => {
    const { app } = seeded()
    const r = await request(app).get('/sandbox/payments').expect(200)
    expect(r.body).toMatchObject({ page: 1, per_page: 20, total: 25 })
    expect(ids(r.body)[0]).toBe('pay-025')
    expect(ids(r.body)).toHaveLength(20)
    const last = await request(app).get('/sandbox/payments?page=2').expect(200)
    expect(ids(last.body)).toEqual(['pay-005', 'pay-004', 'pay-003', 'pay-002', 'pay-001'])
    const beyond = await request(app).get('/sandbox/payments?page=9').expect(200)
    expect(beyond.body).toMatchObject({ payments: [], total: 25 })
  })

  it('filters by merchant, order_id and status, together', async () => {
    const { app } = seeded()
    const other = await request(app).get('/sandbox/payments?merchant=other-shop').expect(200)
    expect(ids(other.body)).toEqual(['pay-025', 'pay-020', 'pay-015', 'pay-010', 'pay-005'])
    const order = await request(app).get('/sandbox/payments?order_id=order-shared').expect(200)
    expect(ids(order.body)).toEqual(['pay-003', 'pay-002', 'pay-001'])
    const both = await request(app)
      .get('/sandbox/payments?order_id=order-shared&status=decline&merchant=demo-merchant')
      .expect(200)
    expect(ids(both.body)).toEqual(['pay-002'])
    const paged = await request(app).get('/sandbox/payments?status=settled&per_page=3&page=2').expect(200)
    expect(paged.body).toMatchObject({ page: 2, per_page: 3, total: 13 })
    expect(ids(paged.body)).toEqual(['pay-019', 'pay-017', 'pay-015'])
  })

  // docs/rules.md#errors: validation failures add errors[] in the form "field: message"
  it.each([
    ['per_page=0', 'per_page: This value should be a whole number from 1 to 100.'],
    ['per_page=101', 'per_page: This value should be a whole number from 1 to 100.'],
    ['page=-1', 'page: This value should be a whole number of 1 or more.'],
    [
      'status=paid',
      'status: The value you selected is not a valid choice. Valid values: prepare, 3ds, redirect, pending, settled, decline, refund, reversal, void, chargeback.',
    ],
    ['merchant_key=demo', 'merchant_key: This field was not expected.'],
    [
      'merchant=%20',
      'merchant: This value is not valid. Use 1 to 128 letters, digits, dots, hyphens or underscores.',
    ],
  ])('refuses ?%s with the field named', async (query, message) => {
    const { app } = seeded()
    const r = await request(app).get(`/sandbox/payments?${query}`).expect(400)
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 100000,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: message }],
    })
  })
})

describe('GET /sandbox/payments/:id', () => {
  it('answers the payment with its transactions in time order and its session', async () => {
    const { app, store } = createTestApp()
    store.put('payments', samplePayment(7, { session_id: 'ses-7' }))
    store.put('transactions', sampleTransaction('pay-007', 2, 'capture'))
    store.put('transactions', sampleTransaction('pay-007', 1, 'auth'))
    store.put('transactions', sampleTransaction('pay-008', 1, 'sale'))
    store.put('sessions', {
      id: 'ses-7',
      token: 'tok-7',
      page_token: 'page-7',
      merchant_key: 'demo-merchant',
      operation: 'purchase',
      methods: ['card'],
      request: {},
      hosted_fields: false,
      created_at: 1,
      expires_at: 2,
      status: 'paid',
      payment_id: 'pay-007',
    })
    const r = await request(app).get('/sandbox/payments/pay-007').expect(200)
    expect(r.body.payment).toEqual(samplePayment(7, { session_id: 'ses-7' }))
    expect(r.body.transactions.map((t: { type: string }) => t.type)).toEqual(['auth', 'capture'])
    expect(r.body.session).toMatchObject({ id: 'ses-7', status: 'paid' })
  })

  it('answers an unknown id with 404 in the envelope', async () => {
    const { app } = createTestApp()
    const r = await request(app).get('/sandbox/payments/nope').expect(404)
    expect(r.body).toEqual({ http_code: 404, error_code: 100000, error_message: 'Payment not found.' })
    await request(app).get('/sandbox/payments/%E0%A4%A').expect(404)
  })
})
