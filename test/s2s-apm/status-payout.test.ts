import { describe, expect, it } from 'vitest'
import { commissionOf } from '../../src/core/s2s-apm/calc.js'
import { validate } from '../../src/core/validation/index.js'
import {
  calcForm,
  callbackSigned,
  debit2virtualForm,
  FAIL,
  followUp,
  OTHER_KEY,
  sale,
  setup,
  snapshot,
} from './helpers.js'

describe('S2S APM GET_TRANS_STATUS', () => {
  // Endpoints: "GET_TRANS_STATUS (by `trans_id`)"; decisions.md §2: "S2S statuses are uppercase".
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

describe('S2S APM DEBIT2VIRTUAL (payout to the payer account)', () => {
  it('pays out at once to success@gmail.com: operation credit, a credit transaction, a DEBIT2VIRTUAL callback', async () => {
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
    expect(t.payment(r.trans_id)).toMatchObject({ operation: 'credit', action: 'DEBIT2VIRTUAL', auth: false })
    expect(t.transactions(r.trans_id).map((tx) => [tx.type, tx.status])).toEqual([['credit', 'success']])
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

  // The money went to the payer's account: nothing to give back or cancel.
  it('cannot be refunded or voided', async () => {
    const t = setup()
    const payout = await sale(t, {}, debit2virtualForm)
    const before = await snapshot(t)
    expect((await t.post(followUp('CREDITVOID', payout.trans_id))).body.error_message).toBe(
      'Refund is not allowed',
    )
    expect((await t.post(followUp('VOID', payout.trans_id))).body.error_message).toBe('Void is not allowed.')
    expect(await snapshot(t)).toBe(before)
  })

  it('takes payout-only methods that a SALE refuses, and ignores auth', async () => {
    const t = setup()
    const payout = await sale(
      t,
      {
        brand: 'smlpz-out-india',
        auth: 'Y',
        parameters: { paymentMethod: 'IMPS', cashAccount: '1234', ifscCode: 'HDFC0000001' },
      },
      debit2virtualForm,
    )
    expect(payout).toMatchObject({ result: 'REDIRECT', brand: 'smlpz-out-india' })
    expect(t.payment(payout.trans_id).auth).toBe(false)
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

describe('S2S APM DEBIT2VIRTUAL_CALC', () => {
  // (sandbox) commission = order_amount x percent / 100, rounded half up; total_amount = order_amount + commission.
  it('answers commission and total_amount of the fixture (3 % by default) and creates nothing', async () => {
    const t = setup()
    const before = await snapshot(t)
    const r = await t.post(calcForm())
    expect(r.body).toEqual({
      action: 'DEBIT2VIRTUAL_CALC',
      result: 'SUCCESS',
      order_id: 'APM-2101',
      amount: '15.00',
      currency: 'USD',
      commission: '0.45',
      total_amount: '15.45',
    })
    expect(validate('s2s-apm/debit2virtual-calc-response', r.body).errors).toEqual([])
    expect(await snapshot(t)).toBe(before)
    expect(await t.callbacks()).toEqual([])
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
