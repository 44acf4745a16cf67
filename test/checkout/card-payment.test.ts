import { describe, expect, it } from 'vitest'
import { validate } from '../../src/core/validation/index.js'
import {
  configWith,
  counts,
  gatewayWith,
  hpfSession,
  messages,
  pay,
  paymentOf,
  recordEvents,
  sessionByToken,
} from './session-helpers.js'

const invalidWith = (...items: string[]) => ({
  http_code: 400,
  error_code: 0,
  error_message: 'Request data is invalid.',
  errors: items.map((error_message) => ({ error_code: 100000, error_message })),
})

describe('POST /api/v1/processing/{purchase,debit}/card: test cards (docs/rules.md#test-data)', () => {
  // docs/rules.md#test-cards: "the expiry month picks the outcome: 01 success (PENDING with auth)"
  it("01 settles a sale: amount captured on today's financial day, one sale transaction", async () => {
    const t = gatewayWith()
    const token = await hpfSession(t)
    const r = await pay(t, token)
    expect(r.status).toBe(200)
    expect(validate('checkout/hpf-card-payment-response', r.body).valid).toBe(true)
    // docs/rules.md#hosted-payment-fields: `result` (success here), the payment id, and what return_url would receive
    expect(r.body).toEqual({
      result: 'success',
      payment_id: expect.any(String),
      status: 'settled',
      return_url_query_params: expect.objectContaining({ payment_id: r.body.payment_id }),
    })
    const payment = paymentOf(t, r.body.payment_id)
    expect(payment).toMatchObject({
      api: 'checkout',
      method: 'card',
      operation: 'purchase',
      order_id: 'order-1',
      auth: false,
      amount_captured: '10.00',
      amount_refunded: '0.00',
      financial_day: '2026-11-02',
      card: { masked: '411111******1111', bin: '411111', last4: '1111', brand: 'visa', exp_month: '01' },
    })
    const txs = t.store.findBy('transactions', 'payment_id', String(r.body.payment_id))
    expect(txs.map((x) => [x.type, x.status, x.amount])).toEqual([['sale', 'success', '10.00']])
    expect(sessionByToken(t, token)).toMatchObject({ payment_id: r.body.payment_id, status: 'paid' })
  })

  it('01 with auth=true is held: PENDING, nothing captured, no financial day', async () => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t, { auth: true }))
    expect(r.body.status).toBe('pending')
    const payment = paymentOf(t, r.body.payment_id)
    expect(payment).toMatchObject({ auth: true, amount_captured: '0.00' })
    expect(payment?.financial_day).toBeUndefined()
    expect(
      t.store.findBy('transactions', 'payment_id', String(r.body.payment_id)).map((x) => x.type),
    ).toEqual(['auth'])
  })

  // docs/rules.md#test-cards: "02 decline"
  it('02 declines with a reason and a failed transaction', async () => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t), { card_exp_month: '02' })
    expect(r.body).toMatchObject({
      result: 'decline',
      payment_id: expect.any(String),
      status: 'decline',
      decline_message: 'Declined by processing.',
      reason: 'Declined by processing.',
    })
    expect(validate('checkout/hpf-card-payment-response', r.body).valid).toBe(true)
    const txs = t.store.findBy('transactions', 'payment_id', String(r.body.payment_id))
    expect(txs.map((x) => [x.type, x.status, x.decline_reason])).toEqual([
      ['sale', 'fail', 'Declined by processing.'],
    ])
    expect(paymentOf(t, r.body.payment_id)?.amount_captured).toBe('0.00')
  })

  // docs/rules.md#test-cards: "03 authorization succeeds then capture is declined"; docs/engine.md: `scenario: 'capture-declined'`
  it('03 authorizes a held payment and marks its capture to be declined; a sale of 03 is declined', async () => {
    const t = gatewayWith()
    const held = await pay(t, await hpfSession(t, { auth: true }), { card_exp_month: '03' })
    expect(held.body.status).toBe('pending')
    expect(paymentOf(t, held.body.payment_id)?.scenario).toBe('capture-declined')
    const sold = await pay(t, await hpfSession(t), { card_exp_month: '03' })
    expect(sold.body).toMatchObject({ status: 'decline', reason: 'Capture declined' })
  })

  // docs/rules.md#test-cards: "05 3DS then success, 06 3DS then decline"
  it.each(['05', '06'])('%s leaves the payment in 3ds with the ACS page to visit', async (month) => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t), { card_exp_month: month })
    expect(r.body).toMatchObject({
      result: 'redirect',
      payment_id: expect.any(String),
      status: '3ds',
      redirect_url: `http://sandbox.test/acs/${r.body.payment_id}`,
      redirect_params: [],
      redirect_method: 'GET',
    })
    expect(validate('checkout/hpf-card-payment-response', r.body).valid).toBe(true)
    expect(paymentOf(t, r.body.payment_id)?.three_ds).toMatchObject({ required: true })
    const txs = t.store.findBy('transactions', 'payment_id', String(r.body.payment_id))
    expect(txs.map((x) => [x.type, x.status])).toEqual([['3ds', 'waiting']])
  })

  // docs/rules.md#test-cards: "12 redirect then success (year 2039: redirect then decline)"
  it.each(['2030', '2039'])('12/%s leaves the payment in redirect with the simulator page', async (year) => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t), { card_exp_month: '12', card_exp_year: year })
    expect(r.body).toMatchObject({
      result: 'redirect',
      payment_id: expect.any(String),
      status: 'redirect',
      redirect_url: `http://sandbox.test/redirect-sim/${r.body.payment_id}`,
    })
  })

  // docs/rules.md#test-cards: "`1111222233334444`: "Brand of card does not support.""
  it('1111222233334444 is declined: Brand of card does not support.', async () => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t), { card_number: '1111222233334444' })
    expect(r.body).toMatchObject({ status: 'decline', reason: 'Brand of card does not support.' })
  })

  // docs/engine.md: "Any other number that passes Luhn behaves as month 01 (sandbox)."
  it('another Luhn-valid card behaves as the test card', async () => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t), { card_number: '5555555555554444' })
    expect(r.body.status).toBe('settled')
    expect(paymentOf(t, r.body.payment_id)?.card).toMatchObject({ brand: 'mastercard', last4: '4444' })
  })

  // Endpoints: "/api/v1/processing/debit/card | Same, for a session created with `operation=debit`."
  it('pays a debit session on the debit endpoint with a debit transaction', async () => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t, { operation: 'debit' }), {}, 'debit')
    expect(r.body.status).toBe('settled')
    const txs = t.store.findBy('transactions', 'payment_id', String(r.body.payment_id))
    expect(txs.map((x) => x.type)).toEqual(['debit'])
  })
})

describe('card checks', () => {
  // docs/rules.md#beyond-the-interface body; (sandbox) Luhn and expiry are field errors
  it('answers a bad check digit, an expired card and a missing security code as field errors', async () => {
    const t = gatewayWith()
    const token = await hpfSession(t)
    const before = counts(t)
    const r = await pay(t, token, {
      card_number: '4111111111111112',
      card_exp_year: '2026',
      card_exp_month: '10',
      card_cvv2: undefined,
    })
    expect(r.status).toBe(400)
    expect(r.body).toEqual(
      invalidWith(
        'card_number: This value is not a valid card number.',
        'card_exp_month: This card has expired.',
        'card_cvv2: This value should not be blank.',
      ),
    )
    expect(counts(t)).toEqual(before)
  })

  it('accepts a card expiring in the current month', async () => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t), { card_exp_month: '11', card_exp_year: '2026' })
    expect(r.body.status).toBe('settled')
  })

  it('answers schema problems with the request messages', async () => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t), { card_number: '4111 1111', card_exp_month: '13' })
    expect(messages(r.body)).toEqual([
      'card_number: This value is not a valid card number.',
      'card_exp_month: This value is not valid. Use two digits from 01 to 12.',
    ])
  })

  // 2.5: "For a MOTO value: the card security code is optional"
  it('takes a MOTO payment without a security code', async () => {
    const t = gatewayWith(configWith([{ moto: true }]))
    const r = await pay(t, await hpfSession(t, { moto_type: 'phone_moto' }), { card_cvv2: undefined })
    expect(r.body.status).toBe('settled')
    expect(paymentOf(t, r.body.payment_id)?.moto_type).toBe('phone_moto')
  })

  // docs/engine.md: "Never a full number or a security code in the store, a log line, an event or an error message."
  it('never stores the full card number or the security code', async () => {
    const t = gatewayWith()
    const events = recordEvents(t)
    await pay(t, await hpfSession(t, { req_token: true }), { card_cvv2: '987' })
    const everything = JSON.stringify([
      t.store.list('payments'),
      t.store.list('transactions'),
      t.store.list('cards'),
      t.store.list('sessions'),
      events,
    ])
    expect(everything).not.toContain('4111111111111111')
    expect(everything).not.toContain('"987"')
    expect(everything).not.toContain('cvv')
  })
})
