import { describe, expect, it } from 'vitest'
import { DAY } from '../../src/core/ports/clock.js'
import { validate } from '../../src/core/validation/index.js'
import { followUp, KEY, OTHER_KEY, orderHash, paid, saleForm, saleHash, setup, snapshot } from './helpers.js'

const byOrder = (orderId: string, extra: Record<string, unknown> = {}) => ({
  action: 'GET_TRANS_STATUS_BY_ORDER',
  client_key: KEY,
  order_id: orderId,
  hash: orderHash(orderId),
  ...extra,
})

describe('GET_TRANS_STATUS', () => {
  // S2S CARD actions: "GET_TRANS_STATUS (by `trans_id`)"; docs/rules.md#responses: "S2S statuses are uppercase."
  it('answers the payment status, also after a refund, and changes nothing', async () => {
    const t = setup()
    const { trans_id } = await paid(t)
    await t.post(followUp('CREDITVOID', trans_id, { amount: '1.00' }))
    const before = snapshot(t)
    const r = await t.post(followUp('GET_TRANS_STATUS', trans_id))
    expect(r.body).toEqual({
      action: 'GET_TRANS_STATUS',
      result: 'SUCCESS',
      status: 'REFUND',
      order_id: 'ORDER-1001',
      trans_id,
      trans_date: '2026-11-02 10:00:00',
      descriptor: 'PAYSANDBOX',
      amount: '10.00',
      currency: 'USD',
    })
    expect(validate('s2s-card/get-trans-status-response', r.body).valid).toBe(true)
    expect(snapshot(t)).toBe(before)
  })

  it('answers a declined payment with result SUCCESS, status DECLINED and its reason', async () => {
    const t = setup()
    const { trans_id } = await paid(t, { card_exp_month: '02' })
    const r = await t.post(followUp('GET_TRANS_STATUS', trans_id))
    expect(r.body).toMatchObject({
      result: 'SUCCESS',
      status: 'DECLINED',
      decline_reason: 'Declined by processing.',
    })
    expect(validate('s2s-card/get-trans-status-response', r.body).valid).toBe(true)
  })

  // Endpoints: "Status responses can include, when enabled in Protocol Mapping, `card` (masked number) and
  // `card_expiration_date` (`MM/YYYY`), ARN (omitted when missing), and the other mapped attributes"
  it('adds what the Protocol Mapping enables, with ARN omitted when missing', async () => {
    const t = setup({
      mapping: {
        callback_fields: {
          card: true,
          card_expiration_date: true,
          arn: true,
          initiator: true,
          sequence: true,
          source: true,
        },
        payer_attributes: { payer_email: true, payer_city: true },
      },
    })
    const { trans_id } = await paid(t)
    const r = await t.post(followUp('GET_TRANS_STATUS', trans_id))
    expect(r.body).toMatchObject({
      card: '411111******1111',
      card_expiration_date: '01/2039',
      RRN: expect.stringMatching(/^[0-9]{12}$/),
      initiator: 'cardholder',
      sequence: 'initial',
      source: 'ecommerce',
      payer_email: 'doe@example.com',
      payer_city: 'New York',
    })
    expect(r.body).not.toHaveProperty('ARN')
    expect(r.body).not.toHaveProperty('payer_language')
    expect(validate('s2s-card/get-trans-status-response', r.body).valid).toBe(true)
  })

  it('leaves the mapped attributes out by default ("enabled per Protocol Mapping, default off")', async () => {
    const t = setup()
    const { trans_id } = await paid(t)
    const r = await t.post(followUp('GET_TRANS_STATUS', trans_id))
    for (const key of ['card', 'initiator', 'sequence', 'source', 'payer_email', 'RRN'])
      expect(r.body).not.toHaveProperty(key)
  })

  // 2.6: "S2S CARD SALE and DEBIT accept `payer_present`. ... may carry `initiator`, `sequence`, `source`"
  it('reports payer_present=N as a merchant-initiated payment', async () => {
    const t = setup({ mapping: { callback_fields: { initiator: true } } })
    const { trans_id } = await paid(t, { payer_present: 'N' })
    expect((await t.post(followUp('GET_TRANS_STATUS', trans_id))).body.initiator).toBe('merchant')
  })

  it('returns the recurring token and the saved card token', async () => {
    const t = setup()
    const r = await paid(t, { recurring_init: 'Y', req_token: 'Y' })
    const status = await t.post(followUp('GET_TRANS_STATUS', r.trans_id))
    expect(status.body).toMatchObject({ recurring_token: r.recurring_token, card_token: r.card_token })
  })
})

describe('GET_TRANS_STATUS_BY_ORDER', () => {
  // S2S CARD actions: "GET_TRANS_STATUS_BY_ORDER (by `order_id`)"
  it("answers the order's newest payment", async () => {
    const t = setup()
    await paid(t, { card_exp_month: '02' })
    await t.clock.advance(DAY)
    const second = await paid(t)
    const r = await t.post(byOrder('ORDER-1001'))
    expect(r.body).toMatchObject({
      action: 'GET_TRANS_STATUS_BY_ORDER',
      result: 'SUCCESS',
      status: 'SETTLED',
      trans_id: second.trans_id,
    })
    expect(validate('s2s-card/get-trans-status-by-order-response', r.body).valid).toBe(true)
  })

  // docs/rules.md#s2s-card-formulas: "| GET_TRANS_STATUS_BY_ORDER | md5(upper(rev(payer_email) + password + order_id + rev(first6 + last4))) |"
  it('accepts the hash of any payment of the order, and refuses another', async () => {
    const t = setup()
    await paid(t, { payer_email: 'first@example.com', hash: saleHash('first@example.com') })
    await paid(t, { card_number: '5555555555554444', hash: saleHash('doe@example.com', '5555555555554444') })
    const first = await t.post(byOrder('ORDER-1001', { hash: orderHash('ORDER-1001', 'first@example.com') }))
    expect(first.body.result).toBe('SUCCESS')
    const wrong = await t.post(byOrder('ORDER-1001', { hash: orderHash('ORDER-1001', 'x@example.com') }))
    expect(wrong.body).toMatchObject({ result: 'ERROR', http_code: 401, error_message: 'Hash is not valid.' })
  })

  // Errors: "| S2S CARD GET_TRANS_STATUS_BY_ORDER with unknown `order_id` | 400 | 101000 | Order does not exist. |"
  it("answers Order does not exist. for an unknown order and another merchant's order", async () => {
    const t = setup()
    await paid(t)
    const expected = {
      result: 'ERROR',
      http_code: 400,
      error_code: 101000,
      error_message: 'Order does not exist.',
    }
    expect((await t.post(byOrder('ORDER-404'))).body).toEqual(expected)
    expect((await t.post(byOrder('ORDER-1001', { client_key: OTHER_KEY }))).body).toEqual(expected)
  })

  it('does not see Checkout-style or other-API orders: only the S2S CARD payments of the merchant', async () => {
    const t = setup()
    const r = await t.post(saleForm({ order_id: 'ORDER-7' }))
    t.store.put('payments', {
      ...t.payment(r.body.trans_id),
      id: 'apm-1',
      api: 's2s-apm',
      order_id: 'ORDER-8',
    })
    expect((await t.post(byOrder('ORDER-8'))).body).toMatchObject({ error_code: 101000 })
  })
})
