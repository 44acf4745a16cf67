import { describe, expect, it } from 'vitest'
import { chargeRecurring } from '../../src/core/s2s-card/recurring.js'
import { validate } from '../../src/core/validation/index.js'
import {
  callbacksOf,
  followUp,
  KEY,
  OTHER_KEY,
  paid,
  type S2sGateway,
  saleForm,
  saleHash,
  setup,
  snapshot,
} from './helpers.js'

const INCORRECT = {
  result: 'ERROR',
  http_code: 400,
  error_code: 100000,
  error_message: 'Incorrect transaction',
}

/** A RECURRING_SALE (or _DEBIT) of the chain `initial`, signed over the initial payment's e-mail and card. */
function secondary(
  initial: { trans_id: string; recurring_token?: unknown },
  extra: Record<string, unknown> = {},
) {
  return {
    action: 'RECURRING_SALE',
    client_key: KEY,
    order_id: 'ORDER-1401',
    order_amount: '5.00',
    order_description: 'Monthly subscription',
    recurring_first_trans_id: initial.trans_id,
    recurring_token: initial.recurring_token,
    hash: saleHash(),
    ...extra,
  }
}

const initialSale = (t: S2sGateway, extra: Record<string, unknown> = {}) =>
  paid(t, { recurring_init: 'Y', ...extra })

describe('recurring_init=Y', () => {
  // 2.3: "`recurring_init` (... `recurring_init=Y` on S2S) marks an initial payment; success callbacks return
  // `recurring_init_trans_id`, `recurring_token` and `schedule_id` (when used)."
  it('answers a recurring_token, and the success callback carries the trio', async () => {
    const t = setup()
    const r = await initialSale(t, { schedule_id: 'sch-1' })
    expect(r).toMatchObject({ result: 'SUCCESS', recurring_token: expect.any(String), schedule_id: 'sch-1' })
    expect(callbacksOf(t, r.trans_id)[0]).toMatchObject({
      recurring_init_trans_id: r.trans_id,
      recurring_token: r.recurring_token,
      schedule_id: 'sch-1',
    })
  })

  it('gives no token to a declined initial payment', async () => {
    const t = setup()
    const r = await initialSale(t, { card_exp_month: '02' })
    expect(r.recurring_token).toBeUndefined()
  })
})

describe('RECURRING_SALE', () => {
  // docs/rules.md#s2s-card-actions: "S2S secondary payments take `recurring_first_trans_id` and `recurring_token`"
  it("charges the initial payment's card with no card data, and this request's custom_data comes back in its callback", async () => {
    const t = setup()
    const initial = await initialSale(t, { custom_data: { from: 'initial' } })
    const r = await t.post(secondary(initial, { custom_data: { period: '2026-12' } }))
    expect(r.body).toEqual({
      action: 'RECURRING_SALE',
      result: 'SUCCESS',
      status: 'SETTLED',
      order_id: 'ORDER-1401',
      trans_id: expect.any(String),
      trans_date: '2026-11-02 10:00:00',
      descriptor: 'PAYSANDBOX',
      amount: '5.00',
      currency: 'USD',
    })
    expect(validate('s2s-card/recurring-sale-response', r.body).valid).toBe(true)
    const id = r.body.trans_id as string
    expect(t.payment(id)).toMatchObject({
      operation: 'purchase',
      card: { masked: '411111******1111' },
      recurring: { init: false, parent_payment_id: initial.trans_id },
    })
    // 2.1 custom_data: "on secondary recurring requests (in which case the callback returns the recurring request's value)"
    const [callback] = callbacksOf(t, id)
    expect(callback).toMatchObject({
      action: 'RECURRING_SALE',
      result: 'SUCCESS',
      'custom_data[period]': '2026-12',
    })
    expect(callback?.['custom_data[from]']).toBeUndefined()
  })

  // docs/rules.md#beyond-the-interface: "`recurring_init_trans_id` is accepted as an alias"
  it('accepts recurring_init_trans_id as the alias of recurring_first_trans_id', async () => {
    const t = setup()
    const initial = await initialSale(t)
    const body = secondary(initial, {
      recurring_first_trans_id: undefined,
      recurring_init_trans_id: initial.trans_id,
    })
    expect((await t.post(body)).body).toMatchObject({ result: 'SUCCESS', status: 'SETTLED' })
  })

  // Errors: "| S2S CARD RECURRING_SALE with an unknown initial pair | 400 | 100000 | Incorrect transaction |"
  it.each([
    ['an unknown trans_id', { recurring_first_trans_id: 'nope' }],
    ['a wrong token', { recurring_token: 'nope' }],
  ])('answers Incorrect transaction for %s, changing nothing', async (_, change) => {
    const t = setup()
    const initial = await initialSale(t)
    const before = snapshot(t)
    const r = await t.post(secondary(initial, change))
    expect(r.status).toBe(400)
    expect(r.body).toEqual(INCORRECT)
    expect(snapshot(t)).toBe(before)
  })

  it("answers Incorrect transaction for a payment that started no chain, or another merchant's chain", async () => {
    const t = setup()
    const plain = await paid(t)
    expect((await t.post(secondary({ trans_id: plain.trans_id, recurring_token: 'x' }))).body).toEqual(
      INCORRECT,
    )
    const initial = await initialSale(t)
    expect((await t.post({ ...secondary(initial), client_key: OTHER_KEY })).body).toEqual(INCORRECT)
  })

  it("refuses a hash not made from the initial payment's e-mail and card", async () => {
    const t = setup()
    const initial = await initialSale(t)
    const r = await t.post(secondary(initial, { hash: saleHash('someone@example.com') }))
    expect(r.body).toMatchObject({ result: 'ERROR', error_message: 'Hash is not valid.' })
  })

  // 2.1.1: "Otherwise it must be greater than 0."
  it('refuses a zero amount and wrong decimals for the initial currency', async () => {
    const t = setup()
    const initial = await initialSale(t)
    const zero = await t.post(secondary(initial, { order_amount: '0.00' }))
    expect(zero.body.errors).toEqual([
      { error_code: 100000, error_message: 'amount: This value should be greater than 0.' },
    ])
    const decimals = await t.post(secondary(initial, { order_amount: '5.001' }))
    expect(JSON.stringify(decimals.body.errors)).toContain('order_amount: ')
  })

  it('holds the secondary payment with auth=Y until it is captured', async () => {
    const t = setup()
    const initial = await initialSale(t)
    const r = await t.post(secondary(initial, { auth: 'Y' }))
    expect(r.body).toMatchObject({ result: 'SUCCESS', status: 'PENDING' })
    const id = r.body.trans_id as string
    const captured = await t.post(followUp('CAPTURE', id))
    expect(captured.body).toMatchObject({ result: 'SUCCESS', status: 'SETTLED' })
  })

  // (sandbox, as Checkout recurring) the stored card declines once it has expired on the sandbox clock.
  it('declines once the stored card has expired', async () => {
    const t = setup()
    const initial = await initialSale(t, { card_exp_year: '2026', card_exp_month: '11' })
    await t.clock.advance(60 * 24 * 60 * 60 * 1000)
    const r = await t.post(secondary(initial))
    expect(r.body).toMatchObject({ result: 'DECLINED', status: 'DECLINED', decline_reason: 'Expired card' })
  })

  it('is refused on a chain started by a DEBIT', async () => {
    const t = setup()
    const debit = await t.post(saleForm({ action: 'DEBIT', recurring_init: 'Y' }))
    expect((await t.post(secondary(debit.body as never))).body).toEqual(INCORRECT)
  })
})

describe('RECURRING_DEBIT', () => {
  // 2.3: "S2S CARD actions: `RECURRING_SALE`, `RECURRING_DEBIT`"; Events: debit callbacks carry `card_token`.
  it("charges a debit chain, as a debit with the chain's card_token", async () => {
    const t = setup()
    const initial = await t.post(saleForm({ action: 'DEBIT', recurring_init: 'Y' }))
    const r = await t.post(secondary(initial.body as never, { action: 'RECURRING_DEBIT' }))
    expect(r.body).toMatchObject({
      action: 'RECURRING_DEBIT',
      result: 'SUCCESS',
      card_token: initial.body.card_token,
    })
    expect(validate('s2s-card/recurring-debit-response', r.body).valid).toBe(true)
    expect(t.payment(r.body.trans_id).operation).toBe('debit')
    expect(callbacksOf(t, r.body.trans_id as string)[0]).toMatchObject({ action: 'RECURRING_DEBIT' })
  })

  it('answers Incorrect transaction for a sale chain or an unknown pair', async () => {
    const t = setup()
    const sale = await initialSale(t)
    expect((await t.post(secondary(sale, { action: 'RECURRING_DEBIT' }))).body).toEqual(INCORRECT)
    const unknown = secondary({ trans_id: 'nope', recurring_token: 'nope' }, { action: 'RECURRING_DEBIT' })
    expect((await t.post(unknown)).body).toEqual(INCORRECT)
  })
})

describe("chargeRecurring (the schedule runner's entry)", () => {
  it("charges with no request: the initial order, the schedule id and the chain's callback_url", async () => {
    const t = setup()
    const initial = await initialSale(t, { callback_url: 'https://merchant.example.com/chain' })
    const payment = chargeRecurring(t.gateway.ctx, t.payment(initial.trans_id), {
      amount: '7.00',
      schedule_id: 'sch-9',
      custom_data: { run: '3' },
    })
    expect(payment).toMatchObject({
      status: 'settled',
      action: 'RECURRING_SALE',
      order: { number: 'ORDER-1001', amount: '7.00', currency: 'USD' },
      schedule_id: 'sch-9',
      callback_url: 'https://merchant.example.com/chain',
    })
    const [delivery] = t.store.findBy('deliveries', 'payment_id', payment.id)
    expect(delivery?.fields).toMatchObject({ action: 'RECURRING_SALE', 'custom_data[run]': '3' })
  })

  it('throws the catalogue row for a payment that is no initial payment, storing nothing', async () => {
    const t = setup()
    const plain = await paid(t)
    const before = snapshot(t)
    expect(() => chargeRecurring(t.gateway.ctx, t.payment(plain.trans_id), { amount: '1.00' })).toThrow(
      'Incorrect transaction',
    )
    expect(snapshot(t)).toBe(before)
  })
})
