import { describe, expect, it } from 'vitest'
import {
  configWith,
  gatewayWith,
  hpfSession,
  messages,
  OTHER,
  pay,
  paymentOf,
  tokenBody,
} from './session-helpers.js'

describe('req_token (2.1, 2.6)', () => {
  // 2.1 req_token: "Request saving of the card as a token (`card_token`)."
  it('saves an approved card as a card_token of the merchant, masked', async () => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t, { req_token: true }), { card_holder: 'JOHN DOE' })
    const payment = paymentOf(t, r.body.payment_id)
    expect(payment?.card_token).toEqual(expect.any(String))
    const saved = t.store.get('cards', payment?.card_token as string)
    expect(saved).toMatchObject({
      merchant_key: 'demo-merchant',
      card_on_file: false,
      card: { masked: '411111******1111', exp_month: '01', exp_year: '2030', holder: 'JOHN DOE' },
    })
  })

  // 2.6: "When enabled on the MID, cards saved with `req_token` are registered with the acquirer as stored credentials."
  it('marks the saved card as a stored credential on a card-on-file MID', async () => {
    const t = gatewayWith(configWith([{ card_on_file: true }]))
    const r = await pay(t, await hpfSession(t, { req_token: true }))
    const payment = paymentOf(t, r.body.payment_id)
    expect(t.store.get('cards', payment?.card_token as string)?.card_on_file).toBe(true)
  })

  it('saves no card when the payment is declined or req_token is absent', async () => {
    const t = gatewayWith()
    const declined = await pay(t, await hpfSession(t, { req_token: true }), { card_exp_month: '02' })
    expect(paymentOf(t, declined.body.payment_id)?.card_token).toBeUndefined()
    await pay(t, await hpfSession(t))
    expect(t.store.count('cards')).toBe(0)
  })

  // Events: "Callbacks for `debit` carry `card_token` in every callback (including `settled`)"
  it('gives every debit payment a card_token, declined ones too', async () => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t, { operation: 'debit' }), { card_exp_month: '02' }, 'debit')
    const token = paymentOf(t, r.body.payment_id)?.card_token
    expect(token).toEqual(expect.any(String))
    expect(t.store.get('cards', token as string)?.merchant_key).toBe('demo-merchant')
  })
})

describe('recurring_init (2.3)', () => {
  // 2.3: "`recurring_init` ... marks an initial payment; success callbacks return `recurring_init_trans_id`, `recurring_token`"
  it('gives an approved initial payment its recurring token; its own id is the init trans id', async () => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t, { recurring_init: true, schedule_id: 'sch-9' }))
    const payment = paymentOf(t, r.body.payment_id)
    expect(payment?.recurring).toEqual({
      init: true,
      token: expect.any(String),
      init_trans_id: r.body.payment_id,
    })
    expect(payment?.schedule_id).toBe('sch-9')
  })

  it('issues no recurring token to a declined initial payment', async () => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t, { recurring_init: true }), { card_exp_month: '02' })
    expect(paymentOf(t, r.body.payment_id)?.recurring).toEqual({ init: true })
  })

  // 2.3: "Debit supports the same (`recurring_init=true` on debit)."
  it('works on debit too', async () => {
    const t = gatewayWith()
    const r = await pay(t, await hpfSession(t, { operation: 'debit', recurring_init: true }), {}, 'debit')
    expect(paymentOf(t, r.body.payment_id)?.recurring?.token).toEqual(expect.any(String))
  })
})

describe('paying with the session card_token (2.1)', () => {
  /** A card saved by an approved req_token payment of the demo merchant. */
  async function savedToken(t: ReturnType<typeof gatewayWith>) {
    const ok = await pay(t, await hpfSession(t, { req_token: true }), { card_number: '5555555555554444' })
    return paymentOf(t, ok.body.payment_id)?.card_token as string
  }

  // (sandbox) with `card_token` on the session the body may carry no card: the saved card is used
  it('pays with the saved card when the body sends no card number', async () => {
    const t = gatewayWith()
    const cardToken = await savedToken(t)
    const token = await hpfSession(t, { card_token: cardToken })
    const r = await t.call('POST', '/api/v1/processing/purchase/card', { card_cvv2: '123' }, { Token: token })
    expect(r.body.status).toBe('settled')
    const payment = paymentOf(t, r.body.payment_id)
    expect(payment).toMatchObject({ card_token: cardToken, card: { last4: '4444', brand: 'mastercard' } })
  })

  it('still asks for the security code, and lets an entered card win over the token', async () => {
    const t = gatewayWith()
    const cardToken = await savedToken(t)
    const token = await hpfSession(t, { card_token: cardToken })
    const noCvv = await t.call('POST', '/api/v1/processing/purchase/card', {}, { Token: token })
    expect(messages(noCvv.body)).toEqual(['card_cvv2: This value should not be blank.'])
    const entered = await pay(t, token, { card_exp_month: '02' })
    expect(paymentOf(t, entered.body.payment_id)?.card).toMatchObject({ last4: '1111', exp_month: '02' })
  })

  // docs/engine.md: "A merchant only sees its own records"
  it("refuses another merchant's card token as unknown", async () => {
    const t = gatewayWith()
    const cardToken = await savedToken(t)
    const r = await t.call('POST', '/api/v1/session/token', tokenBody({ card_token: cardToken }, OTHER))
    expect(r.status).toBe(400)
    expect(messages(r.body)).toEqual(['card_token: Card token is invalid or not found.'])
    expect(t.store.findBy('sessions', 'merchant_key', OTHER.key)).toEqual([])
  })
})
