import { describe, expect, it } from 'vitest'
import { checkoutSignatures, s2sCardSignatures } from '../../src/core/signatures/index.js'
import { cardPayment, DEMO, inProcessClient, s2sSale, supportGateway } from './harness.js'

const prepare = (t: ReturnType<typeof supportGateway>, id: string, body: Record<string, unknown>) =>
  t.call('POST', `/sandbox/payments/${id}/merchant-request`, body)

/** Sends a prepared request to the merchant endpoint it names, as the console does. */
async function send(t: ReturnType<typeof supportGateway>, prepared: Record<string, unknown>) {
  const body = prepared.body as string
  const isJson = prepared.content_type === 'application/json'
  return t.call('POST', prepared.path as string, isJson ? JSON.parse(body) : body)
}

describe('support control route: follow-ups prepared as the merchant would send them', () => {
  // docs/rules.md#checkout-signatures: "capture, refund | payment_id + amount + password" with hash = sha1(md5(upper(FIELDS)))
  it('prepares a signed Checkout capture that the capture endpoint accepts: the held payment settles', async () => {
    const t = supportGateway()
    const id = await cardPayment(t, { auth: true })
    const r = await prepare(t, id, { action: 'capture', amount: '20.00' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      api: 'checkout',
      action: 'capture',
      method: 'POST',
      path: '/api/v1/payment/capture',
    })
    expect(JSON.parse(r.body.body as string)).toEqual({
      merchant_key: DEMO.key,
      payment_id: id,
      amount: '20.00',
      hash: checkoutSignatures.amountOperation(id, '20.00', DEMO.password),
    })
    expect(r.body.curl).toContain("'http://sandbox.test/api/v1/payment/capture'")
    expect(t.store.get('payments', id)?.status).toBe('pending') // prepared, not sent
    const sent = await send(t, r.body)
    expect(sent.body).toMatchObject({ payment_id: id, status: 'settled', trans_status: 'SUCCESS' })
  })

  // docs/rules.md#checkout-signatures: "void, retry, status by payment_id | payment_id + password"
  it('prepares the status lookup and a full refund without an amount field', async () => {
    const t = supportGateway()
    const id = await cardPayment(t)
    const status = await prepare(t, id, { action: 'status' })
    expect(JSON.parse(status.body.body as string)).toEqual({
      merchant_key: DEMO.key,
      payment_id: id,
      hash: checkoutSignatures.paymentOperation(id, DEMO.password),
    })
    expect((await send(t, status.body)).body).toMatchObject({ payment_id: id, status: 'settled' })
    const refund = await prepare(t, id, { action: 'refund', amount: '' })
    expect(refund.status).toBe(400) // an empty amount is not an amount; omit it for the full amount
    const full = await prepare(t, id, { action: 'refund' })
    expect(JSON.parse(full.body.body as string)).not.toHaveProperty('amount')
    expect((await send(t, full.body)).body).toEqual({ payment_id: id, result: 'accepted' })
    expect(t.store.get('payments', id)?.status).toBe('refund')
  })

  // docs/rules.md#s2s-card-formulas: "CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS ... md5(upper(rev(payer_email) + password + trans_id + rev(first6 + last4)))"
  it('prepares S2S CARD forms over the original payer e-mail and card, accepted at /post', async () => {
    const t = supportGateway()
    const id = await s2sSale(t)
    const r = await prepare(t, id, { action: 'refund', amount: '4.00' })
    expect(r.body).toMatchObject({
      api: 's2s-card',
      path: '/post',
      content_type: 'application/x-www-form-urlencoded',
    })
    const form = Object.fromEntries(new URLSearchParams(r.body.body as string))
    expect(form).toEqual({
      action: 'CREDITVOID',
      client_key: DEMO.key,
      trans_id: id,
      amount: '4.00',
      hash: s2sCardSignatures.transaction('doe@example.com', DEMO.password, id, {
        cardNumber: '4111111111111111',
      }),
    })
    expect((await send(t, r.body)).body).toMatchObject({
      action: 'CREDITVOID',
      result: 'ACCEPTED',
      trans_id: id,
    })
  })

  it('refuses an unknown action or a malformed amount, and an unknown payment', async () => {
    const t = supportGateway()
    const id = await cardPayment(t)
    const bad = await prepare(t, id, { action: 'chargeback', amount: '1,00' })
    expect(bad.body.errors).toEqual([
      {
        error_code: 100000,
        error_message:
          'action: The value you selected is not a valid choice. Use capture, refund, void or status.',
      },
      {
        error_code: 100000,
        error_message:
          'amount: This value is not a valid amount. Use digits with a dot separator, e.g. 10.00.',
      },
    ])
    expect((await prepare(t, 'missing', { action: 'void' })).status).toBe(404)
  })

  it("is what the console client prepares and sends: the answer is the gateway's own", async () => {
    const t = supportGateway()
    const client = inProcessClient(t)
    const id = await cardPayment(t)
    const request = await client.merchantRequest(id, 'void')
    const answer = await client.send(request)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ status: 'SUCCESS', payment_status: 'void', payment_id: id })
  })
})
