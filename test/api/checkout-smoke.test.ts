import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { createTestApp } from './app.js'

const PASSWORD = 'demo-password-0123456789abcdef'
const order = { number: 'smoke-1', amount: '10.00', currency: 'USD', description: 'Smoke test' }
const session = (extra: Record<string, unknown> = {}) => ({
  merchant_key: 'demo-merchant',
  operation: 'purchase',
  methods: ['card'],
  order,
  success_url: 'https://merchant.example/success',
  hash: checkoutSignatures.session(order, PASSWORD),
  ...extra,
})

/** The Checkout module through HTTP: what a merchant's backend does against `paysandbox serve`. */
describe('Checkout through express', () => {
  // docs/rules.md#responses: session: `{"redirect_url": "{base_url}/auth/<session token>"}`
  it('creates a session and answers the hosted page address', async () => {
    const { app, store } = createTestApp()
    const r = await request(app).post('/api/v1/session').send(session()).expect(200)
    expect(r.body).toEqual({
      redirect_url: expect.stringMatching(/^http:\/\/sandbox\.test\/auth\/[0-9a-f]+$/),
    })
    expect(store.count('sessions')).toBe(1)
  })

  // Authentication 1: "Every Checkout request carries ... a request signature in `hash`"
  // docs/rules.md#errors: a bad hash is the item `hash: Hash is not valid.` of a 400 answer
  it('refuses a wrong hash with the platform envelope and stores nothing', async () => {
    const { app, store } = createTestApp()
    const r = await request(app)
      .post('/api/v1/session')
      .send(session({ hash: 'f'.repeat(40) }))
      .expect(400)
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'hash: Hash is not valid.' }],
    })
    expect(store.count('sessions')).toBe(0)
  })

  // Endpoints: session token, Hosted Payment Fields payment (header `Token`), then the status lookup by payment_id
  it('pays a session through Hosted Payment Fields and answers its status', async () => {
    const { app } = createTestApp()
    const token = await request(app)
      .post('/api/v1/session/token')
      .send(session({ return_url: 'https://merchant.example/return' }))
      .expect(200)
    const paid = await request(app)
      .post('/api/v1/processing/purchase/card')
      .set('Token', token.body.token)
      .send({
        card_number: '4111111111111111',
        card_exp_month: '01',
        card_exp_year: '2030',
        card_cvv2: '123',
      })
      .expect(200)
    expect(paid.body).toMatchObject({ payment_id: expect.any(String), status: 'settled' })
    const id = paid.body.payment_id as string
    const status = await request(app)
      .post('/api/v1/payment/status')
      .send({
        merchant_key: 'demo-merchant',
        payment_id: id,
        hash: checkoutSignatures.paymentOperation(id, PASSWORD),
      })
      .expect(200)
    expect(status.body).toMatchObject({ payment_id: id, status: 'settled', order })
    const listed = await request(app).get('/sandbox/payments?merchant=demo-merchant').expect(200)
    expect(listed.body.payments.map((p: { id: string }) => p.id)).toEqual([id])
    // Engine rules: "Never a full card number in the store": nor in what the control API shows of it.
    const detail = await request(app).get(`/sandbox/payments/${id}`).expect(200)
    expect(detail.text).not.toContain('4111111111111111')
    expect(detail.body.payment.card.masked).toBe('411111******1111')
  })
})
