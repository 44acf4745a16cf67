import { describe, expect, it } from 'vitest'
import {
  approveApm,
  declineApm,
  expireApm,
  leavePending,
  outcomeAllowed,
} from '../../src/core/apm/outcomes.js'
import { validate } from '../../src/core/validation/index.js'
import { callbackSigned, debit2virtualForm, followUp, sale, setup, snapshot } from '../s2s-apm/helpers.js'

/** A payment of another brand, waiting on its simulator page (status redirect). */
async function waiting(t: ReturnType<typeof setup>, overrides: Record<string, unknown> = {}) {
  const r = await sale(t, { brand: 'sepa', ...overrides })
  expect(r.status).toBe('REDIRECT')
  return r.trans_id
}

const steps = (t: ReturnType<typeof setup>, id: string) =>
  t.transactions(id).map((tx) => [tx.type, tx.status, tx.decline_reason ?? null])

describe('APM outcomes from the simulator page (docs/rules.md#simulated-connectors: approve, decline, leave pending, expire)', () => {
  it('approve: REDIRECT_RESULT approved settles; the page transaction closes; one SALE SUCCESS callback', async () => {
    const t = setup()
    const id = await waiting(t)
    const payment = approveApm(t.gateway.ctx, id)
    expect(payment).toMatchObject({
      status: 'settled',
      amount_captured: '15.00',
      financial_day: '2026-11-02',
    })
    expect(steps(t, id)).toEqual([
      ['redirect', 'success', null],
      ['sale', 'success', null],
    ])
    const callbacks = await t.callbacks()
    expect(callbacks.map((c) => [c.action, c.result, c.status])).toEqual([
      ['SALE', 'REDIRECT', 'REDIRECT'],
      ['SALE', 'SUCCESS', 'SETTLED'],
    ])
    expect(callbacks.every(callbackSigned)).toBe(true)
  })

  it('approve with auth=Y holds the funds (PENDING) until CAPTURE', async () => {
    const t = setup()
    const id = await waiting(t, { auth: 'Y' })
    expect(approveApm(t.gateway.ctx, id).status).toBe('pending')
    expect(steps(t, id).at(-1)).toEqual(['auth', 'success', null])
    expect((await t.post(followUp('CAPTURE', id))).body.status).toBe('SETTLED')
  })

  it('decline: REDIRECT_RESULT declined, with the given reason or "Declined"', async () => {
    const t = setup()
    const id = await waiting(t)
    expect(declineApm(t.gateway.ctx, id, 'Insufficient funds')).toMatchObject({
      status: 'decline',
      decline_reason: 'Insufficient funds',
    })
    expect(steps(t, id)).toEqual([
      ['redirect', 'fail', null],
      ['sale', 'fail', 'Insufficient funds'],
    ])
    const other = await waiting(t, { order_id: 'second' })
    expect(declineApm(t.gateway.ctx, other).decline_reason).toBe('Declined')
    const callbacks = await t.callbacks()
    expect(callbacks.filter((c) => c.result === 'DECLINED').map((c) => c.decline_reason)).toEqual([
      'Insufficient funds',
      'Declined',
    ])
  })

  it('expire: EXPIRE declines with "Payment expired"', async () => {
    const t = setup()
    const id = await waiting(t, { auth: 'Y' })
    expect(expireApm(t.gateway.ctx, id)).toMatchObject({
      status: 'decline',
      decline_reason: 'Payment expired',
    })
    expect(steps(t, id)).toEqual([
      ['redirect', 'fail', null],
      ['auth', 'fail', 'Payment expired'],
    ])
  })

  it('pending: the provider has not answered (UNDEFINED callback), then its answer finishes the same transaction', async () => {
    const t = setup()
    const id = await waiting(t)
    expect(leavePending(t.gateway.ctx, id).status).toBe('pending')
    expect(steps(t, id)).toEqual([
      ['redirect', 'success', null],
      ['sale', 'undefined', null],
    ])
    // Not a held authorization: no capture, no void.
    // docs/rules.md#business-codes: the platform's row 208003 as an errors[] item of the S2S ERROR envelope.
    const capture = await t.post(followUp('CAPTURE', id))
    expect(capture.body.errors).toEqual([
      {
        error_code: 208003,
        error_message: 'Not acceptable to request the capture for payment not in pending status.',
      },
    ])
    expect(approveApm(t.gateway.ctx, id).status).toBe('settled')
    expect(steps(t, id)).toEqual([
      ['redirect', 'success', null],
      ['sale', 'success', null],
    ])
    const callbacks = await t.callbacks()
    expect(callbacks.map((c) => [c.result, c.status])).toEqual([
      ['REDIRECT', 'REDIRECT'],
      ['UNDEFINED', 'PENDING'],
      ['SUCCESS', 'SETTLED'],
    ])
    for (const callback of callbacks)
      expect(validate('callbacks/s2s-apm-callback', callback, { pathStyle: 'bracket' }).errors).toEqual([])
  })

  it.each([
    ['decline', declineApm, 'Declined'],
    ['expire', expireApm, 'Payment expired'],
  ] as const)('pending then %s declines the waiting payment', async (_, operation, reason) => {
    const t = setup()
    const id = await waiting(t)
    leavePending(t.gateway.ctx, id)
    expect(operation(t.gateway.ctx, id)).toMatchObject({ status: 'decline', decline_reason: reason })
    expect(steps(t, id).at(-1)).toEqual(['sale', 'fail', reason])
  })

  it('works for DEBIT2VIRTUAL too: a debit from the payer through the brand (docs/rules.md#beyond-the-interface)', async () => {
    const t = setup()
    const r = await t.post(debit2virtualForm({ brand: 'bts-ars', identifier: 'acct-1' }))
    expect(r.body).toMatchObject({ action: 'DEBIT2VIRTUAL', result: 'REDIRECT' })
    expect(approveApm(t.gateway.ctx, String(r.body.trans_id)).status).toBe('settled')
    // The payer is charged: the charge is a sale-like transaction, as on SALE.
    expect(steps(t, String(r.body.trans_id)).at(-1)).toEqual(['sale', 'success', null])
    expect((await t.callbacks()).at(-1)).toMatchObject({ action: 'DEBIT2VIRTUAL', result: 'SUCCESS' })
  })
})

describe('APM outcomes the state table refuses', () => {
  it('refuses every outcome once the payment left the page, changing nothing', async () => {
    const t = setup()
    const settled = await sale(t) // vcard success@gmail.com: settled at once
    const before = await snapshot(t)
    for (const operation of [approveApm, declineApm, leavePending, expireApm])
      expect(() => operation(t.gateway.ctx, settled.trans_id)).toThrow(
        "This operation is not allowed in the payment's current status.",
      )
    expect(await snapshot(t)).toBe(before)
  })

  // A held authorization is already PENDING: "leave pending" cannot mean anything else for it.
  it('refuses pending for a held authorization, and approve of an approved hold', async () => {
    const t = setup()
    const id = await waiting(t, { auth: 'Y' })
    const payment = t.payment(id)
    expect(outcomeAllowed(payment, 'pending')).toBe(false)
    expect(() => leavePending(t.gateway.ctx, id)).toThrow(
      "This operation is not allowed in the payment's current status.",
    )
    approveApm(t.gateway.ctx, id)
    expect(() => approveApm(t.gateway.ctx, id)).toThrow(
      "This operation is not allowed in the payment's current status.",
    )
    expect(t.payment(id).status).toBe('pending')
  })

  it('answers an unknown id with "Payment not found." and a payment of no APM with the payer-action row', () => {
    const t = setup()
    expect(() => approveApm(t.gateway.ctx, 'nope')).toThrow('Payment not found.')
    t.store.put('payments', {
      id: 'card-payment',
      api: 'checkout',
      merchant_key: 'demo-merchant',
      mid_id: 'demo-mid',
      operation: 'purchase',
      method: 'card',
      order_id: 'o',
      order: { number: 'o', amount: '1.00', currency: 'USD', description: 'd' },
      status: 'redirect',
      auth: false,
      amount_captured: '0.00',
      amount_refunded: '0.00',
      created_at: 0,
      updated_at: 0,
    })
    expect(() => approveApm(t.gateway.ctx, 'card-payment')).toThrow(
      'The payment is not waiting for this payer action.',
    )
  })
})
