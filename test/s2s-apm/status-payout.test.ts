import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { commissionOf } from '../../src/core/s2s-apm/calc.js'
import { s2sApmSignatures } from '../../src/core/signatures/index.js'
import { validate } from '../../src/core/validation/index.js'
import {
  calcForm,
  callbackSigned,
  debit2virtualForm,
  FAIL,
  followUp,
  KEY,
  OTHER_KEY,
  PASSWORD,
  paymentHash,
  payoutForm,
  sale,
  setup,
  snapshot,
} from './helpers.js'

describe('S2S APM GET_TRANS_STATUS', () => {
  // Endpoints: "GET_TRANS_STATUS (by `trans_id`)"; docs/rules.md#responses: "S2S statuses are uppercase".
  it('answers the payment status as it moves, dated by its last change, reading only', async () => {
    const t = setup()
    const held = await sale(t, { auth: 'Y', custom_data: { cart: '7' } })
    const ask = async () => (await t.post(followUp('GET_TRANS_STATUS', held.trans_id))).body
    const before = await snapshot(t)
    const first = await ask()
    expect(first).toEqual({
      action: 'GET_TRANS_STATUS',
      result: 'SUCCESS',
      status: 'PENDING',
      order_id: 'APM-2001',
      trans_id: held.trans_id,
      trans_date: '2026-11-02 10:00:00',
      descriptor: '',
      amount: '15.00',
      currency: 'USD',
      brand: 'vcard',
      custom_data: { cart: '7' },
    })
    expect(validate('s2s-apm/get-trans-status-response', first).errors).toEqual([])
    expect(await snapshot(t)).toBe(before)
    await t.clock.advance(60_000)
    await t.post(followUp('CAPTURE', held.trans_id))
    expect(await ask()).toMatchObject({ status: 'SETTLED', trans_date: '2026-11-02 10:01:00' })
  })

  it('reports a decline with its reason', async () => {
    const t = setup()
    const declined = await sale(t, { identifier: FAIL })
    const r = await t.post(followUp('GET_TRANS_STATUS', declined.trans_id))
    expect(r.body).toMatchObject({ result: 'SUCCESS', status: 'DECLINED', decline_reason: 'Declined' })
  })

  // Errors (assumed for S2S APM): "S2S CARD GET_TRANS_STATUS with unknown `trans_id` | 400 | 101000 | Transaction does not exist."
  it('answers an unknown trans_id with 101000 "Transaction does not exist."', async () => {
    const t = setup()
    expect((await t.post(followUp('GET_TRANS_STATUS', 'nope'))).body).toEqual({
      result: 'ERROR',
      http_code: 400,
      error_code: 101000,
      error_message: 'Transaction does not exist.',
    })
  })
})

describe('S2S APM DEBIT2VIRTUAL (docs/rules.md#beyond-the-interface: a debit from the payer through the brand)', () => {
  // docs/rules.md#s2s-apm-actions: "DEBIT2VIRTUAL is a debit from the payer through the brand (needs `payer_return_url`)".
  it('debits success@gmail.com at once: operation purchase, a sale transaction, a signed DEBIT2VIRTUAL callback', async () => {
    const t = setup()
    const r = await sale(t, {}, debit2virtualForm)
    expect(r).toMatchObject({
      action: 'DEBIT2VIRTUAL',
      result: 'SUCCESS',
      status: 'SETTLED',
      order_id: 'APM-2101',
      amount: '15.00',
      brand: 'vcard',
    })
    expect(validate('s2s-apm/debit2virtual-response', r).errors).toEqual([])
    expect(t.payment(r.trans_id)).toMatchObject({
      operation: 'purchase',
      action: 'DEBIT2VIRTUAL',
      auth: false,
    })
    expect(t.payment(r.trans_id).apm.return_url).toBe('https://merchant.example.com/return')
    expect(t.transactions(r.trans_id).map((tx) => [tx.type, tx.status])).toEqual([['sale', 'success']])
    const [callback] = await t.callbacks()
    expect(callback).toMatchObject({ action: 'DEBIT2VIRTUAL', result: 'SUCCESS', status: 'SETTLED' })
    expect(callbackSigned(callback ?? {})).toBe(true)
  })

  it('declines for fail@gmail.com and redirects any other payer', async () => {
    const t = setup()
    expect((await sale(t, { identifier: FAIL }, debit2virtualForm)).status).toBe('DECLINED')
    const other = await sale(t, { identifier: 'wallet-9', order_id: 'D2V-2' }, debit2virtualForm)
    expect(other).toMatchObject({
      result: 'REDIRECT',
      redirect_url: `http://sandbox.test/apm/${other.trans_id}`,
    })
  })

  // S2S APM 3.6.2: "required `identifier, brand, payer_ip, payer_return_url`"; `return_url` stays an alias.
  it('requires payer_return_url, reading return_url as its alias', async () => {
    const t = setup()
    const { payer_return_url: _url, ...without } = debit2virtualForm()
    const refused = await t.post(without)
    expect(refused.body.errors).toEqual([
      { error_code: 100000, error_message: 'payer_return_url: This value should not be blank.' },
    ])
    const alias = await t.post({ ...without, return_url: 'https://merchant.example.com/back' })
    expect(alias.body).toMatchObject({ action: 'DEBIT2VIRTUAL', result: 'SUCCESS' })
  })

  // A debit is the merchant's money: it can be refunded like a SALE.
  it('can be refunded', async () => {
    const t = setup()
    const debit = await sale(t, {}, debit2virtualForm)
    expect((await t.post(followUp('CREDITVOID', debit.trans_id))).body).toMatchObject({ result: 'ACCEPTED' })
  })

  // docs/rules.md#responses: "DEBIT2VIRTUAL, its `_CALC`/`_COMPLETE`, CREDIT2VIRTUAL and CREDIT2CRYPTO are also accepted at `/post`".
  it('is also accepted at /post', async () => {
    const t = setup()
    const r = await t.post(debit2virtualForm({ order_id: 'AT-POST' }), '/post')
    expect(r.body).toMatchObject({ action: 'DEBIT2VIRTUAL', result: 'SUCCESS', order_id: 'AT-POST' })
  })

  it('refuses a zero amount, changing nothing', async () => {
    const t = setup()
    const r = await t.post(debit2virtualForm({ order_amount: '0.00' }))
    expect(r.body.errors).toEqual([
      { error_code: 100000, error_message: 'amount: This value should be greater than 0.' },
    ])
    expect(t.store.list('payments')).toEqual([])
  })
})

describe('S2S APM DEBIT2VIRTUAL_CALC and DEBIT2VIRTUAL_COMPLETE (docs/rules.md#beyond-the-interface)', () => {
  // docs/rules.md#s2s-apm-actions: "DEBIT2VIRTUAL_CALC answers `PREPARE` with `commission`, `total_amount` and a `trans_id`
  // that DEBIT2VIRTUAL_COMPLETE finishes". (sandbox) commission = order_amount x percent / 100, rounded half up.
  it('answers PREPARE with commission, total_amount (3 % by default) and a trans_id; no transaction, no callback', async () => {
    const t = setup()
    const r = await t.post(calcForm())
    expect(r.body).toEqual({
      action: 'DEBIT2VIRTUAL_CALC',
      result: 'SUCCESS',
      status: 'PREPARE',
      order_id: 'APM-2101',
      trans_id: expect.any(String),
      trans_date: '2026-11-02 10:00:00',
      amount: '15.00',
      currency: 'USD',
      commission: '0.45',
      total_amount: '15.45',
    })
    expect(validate('s2s-apm/debit2virtual-calc-response', r.body).errors).toEqual([])
    expect(t.payment(r.body.trans_id)).toMatchObject({ status: 'prepare', action: 'DEBIT2VIRTUAL_CALC' })
    expect(t.transactions(r.body.trans_id)).toEqual([])
    expect(await t.callbacks()).toEqual([])
  })

  it('DEBIT2VIRTUAL_COMPLETE finishes the prepared debit once, signed md5(upper(rev(trans_id)) + password)', async () => {
    const t = setup()
    const id = (await t.post(calcForm())).body.trans_id as string
    const complete = { action: 'DEBIT2VIRTUAL_COMPLETE', client_key: KEY }
    const wrong = await t.post({ ...complete, trans_id: id, hash: s2sApmSignatures.creditvoid(id, PASSWORD) })
    expect(wrong.body.error_message).toBe('Hash is not valid.')
    const hash = s2sApmSignatures.transaction(id, PASSWORD)
    const done = await t.post({ ...complete, trans_id: id, hash }, '/post')
    expect(done.body).toMatchObject({
      action: 'DEBIT2VIRTUAL_COMPLETE',
      result: 'SUCCESS',
      status: 'SETTLED',
      trans_id: id,
    })
    expect(validate('s2s-apm/debit2virtual-response', done.body).errors).toEqual([])
    const [callback] = await t.callbacks()
    expect(callback).toMatchObject({ action: 'DEBIT2VIRTUAL_CALC', status: 'SETTLED', trans_id: id })
    expect(callbackSigned(callback ?? {})).toBe(true)
    const before = await snapshot(t)
    expect((await t.post({ ...complete, trans_id: id, hash })).body.error_message).toBe(
      "This operation is not allowed in the payment's current status.",
    )
    const unknown = 'no-such-debit'
    expect(
      (
        await t.post({
          ...complete,
          trans_id: unknown,
          hash: s2sApmSignatures.transaction(unknown, PASSWORD),
        })
      ).body,
    ).toMatchObject({ error_code: 101000, error_message: 'Transaction does not exist.' })
    expect(await snapshot(t)).toBe(before)
  })

  it("uses the merchant's configured percentage", async () => {
    const t = setup({ commission: 1.5 })
    expect((await t.post(calcForm())).body).toMatchObject({ commission: '0.23', total_amount: '15.23' })
  })

  it.each([
    ['15.00', 'USD', 3, '0.45', '15.45'],
    ['0.50', 'USD', 3, '0.02', '0.52'], // 0.015 rounds half up
    ['0.49', 'USD', 3, '0.01', '0.50'], // 0.0147
    ['1000', 'JPY', 3, '30', '1030'],
    ['10.000', 'KWD', 2.5, '0.250', '10.250'],
    ['99.99', 'EUR', 0, '0.00', '99.99'],
    ['12345678901234.56', 'USD', 100, '12345678901234.56', '24691357802469.12'],
  ])('%s %s at %s %% gives %s and %s', (amount, currency, percent, commission, total) => {
    expect(commissionOf(amount, currency, percent)).toEqual({ commission, total_amount: total })
  })

  it('refuses what the DEBIT2VIRTUAL would refuse: hash, brand, zero amount', async () => {
    const t = setup()
    expect((await t.post({ ...calcForm(), hash: 'a'.repeat(32) })).body.error_message).toBe(
      'Hash is not valid.',
    )
    expect((await t.post(calcForm({ brand: 'card' }))).body.errors).toEqual([
      { error_code: 100000, error_message: 'brand: This method is not available for this action.' },
    ])
    expect((await t.post(calcForm({ order_amount: '0.00' }))).body.errors).toEqual([
      { error_code: 100000, error_message: 'amount: This value should be greater than 0.' },
    ])
    expect((await t.post(calcForm({ client_key: OTHER_KEY }))).body.error_message).toBe('Hash is not valid.')
  })
})

describe('S2S APM CREDIT2VIRTUAL and CREDIT2CRYPTO (docs/rules.md#beyond-the-interface: payouts)', () => {
  // docs/rules.md#s2s-apm-signatures: "CREDIT2VIRTUAL, CREDIT2CRYPTO | md5(upper(rev(order_id + order_amount + order_currency)) + password)";
  // their callbacks "md5(upper(rev(trans_id + order_id + status)) + password)".
  it('pays out to success@gmail.com, signed with the payout formulas, and cannot be refunded', async () => {
    const t = setup()
    const r = await t.post(payoutForm())
    expect(r.body).toMatchObject({
      action: 'CREDIT2VIRTUAL',
      result: 'SUCCESS',
      status: 'SETTLED',
      amount: '20.00',
    })
    expect(validate('s2s-apm/credit2virtual-response', r.body).errors).toEqual([])
    const id = r.body.trans_id as string
    expect(t.payment(id)).toMatchObject({ operation: 'credit', action: 'CREDIT2VIRTUAL' })
    const [callback] = await t.callbacks()
    expect(callback).toMatchObject({ action: 'CREDIT2VIRTUAL', status: 'SETTLED', trans_id: id })
    expect(callback?.hash).toBe(
      createHash('md5')
        .update(`${[...`${id}APM-2201SETTLED`].reverse().join('').toUpperCase()}${PASSWORD}`)
        .digest('hex'),
    )
    expect((await t.post(followUp('CREDITVOID', id))).body.error_message).toBe('Refund is not allowed.')
    // the SALE formula does not sign a payout
    expect(
      (await t.post(payoutForm({ order_id: 'P-2', hash: paymentHash(payoutForm()) }))).body.error_message,
    ).toBe('Hash is not valid.')
  })

  it('declines for fail@gmail.com; is accepted at /post', async () => {
    const t = setup()
    expect((await t.post(payoutForm({ identifier: FAIL }))).body).toMatchObject({ result: 'DECLINED' })
    expect((await t.post(payoutForm({ order_id: 'AT-POST' }), '/post')).body).toMatchObject({
      action: 'CREDIT2VIRTUAL',
      result: 'SUCCESS',
    })
  })

  // S2S APM 3.6.2: CREDIT2CRYPTO `order_currency` "from 3 to 6 characters"; sync result "INIT / UNDEFINED / DECLINED".
  it('CREDIT2CRYPTO answers INIT (PENDING) and reports the final status by callback', async () => {
    const t = setup()
    const r = await t.post(payoutForm({}, 'credit2crypto-request.basic'))
    expect(r.body).toMatchObject({
      action: 'CREDIT2CRYPTO',
      result: 'INIT',
      status: 'PENDING',
      currency: 'BTC',
    })
    expect(validate('s2s-apm/credit2crypto-response', r.body).errors).toEqual([])
    const [callback] = await t.callbacks()
    expect(callback).toMatchObject({ action: 'CREDIT2CRYPTO', result: 'SUCCESS', status: 'SETTLED' })
    // an omitted order_amount drops out of the signature (docs/rules.md#signatures)
    const { order_amount: _a, ...noAmount } = payoutForm({ order_id: 'C-2' }, 'credit2crypto-request.basic')
    const hash = s2sApmSignatures.credit2virtual('C-2', undefined, 'BTC', PASSWORD)
    expect((await t.post({ ...noAmount, hash })).body).toMatchObject({
      action: 'CREDIT2CRYPTO',
      result: 'INIT',
    })
  })
})

describe('S2S APM callback_url (docs/rules.md#callbacks)', () => {
  // "S2S APM on SALE, DEBIT2VIRTUAL, DEBIT2VIRTUAL_CALC, CREDIT2VIRTUAL, CREDIT2CRYPTO: at most 255 characters, a bad
  // URL is a 400, and it replaces the notification URL for every later callback of that payment".
  it('sends the callbacks of a payment to its callback_url and refuses one too long', async () => {
    const t = setup()
    const url = 'https://merchant.example.com/apm-cb'
    const r = await sale(t, { callback_url: url })
    await t.post(followUp('CREDITVOID', r.trans_id, { amount: '1.00' }))
    await t.callbacks()
    expect(t.store.findBy('deliveries', 'payment_id', r.trans_id).map((d) => d.url)).toEqual([url, url])
    const long = `https://x.example/${'a'.repeat(250)}`
    for (const body of [debit2virtualForm({ callback_url: long }), payoutForm({ callback_url: long })]) {
      const refused = await t.post(body)
      expect(refused.status).toBe(400)
      expect(JSON.stringify(refused.body.errors)).toContain('callback_url: ')
    }
  })
})
