import { describe, expect, it } from 'vitest'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import { validate } from '../../src/core/validation/index.js'
import {
  bodies,
  createOperationsGateway,
  putPayment,
  storeSnapshot,
  testCard,
  transactionsOf,
} from '../helpers/payments.js'

const RETRY = '/api/v1/payment/retry'
const setup = () => createOperationsGateway([checkoutOperationsModule])
const secondary = { recurring: { init: false, init_trans_id: 'initial', parent_payment_id: 'initial' } }
const NOT_ALLOWED = {
  http_code: 400,
  error_code: 0,
  error_message: 'Request data is invalid.',
  errors: [{ error_code: 100000, error_message: 'Retry is not allowed.' }],
}

describe('POST /api/v1/payment/retry', () => {
  // docs/rules.md#responses: retry: `{payment_id, result: "accepted"}`
  it('charges a declined recurring payment again and settles it when the card now passes', async () => {
    const t = setup()
    const p = putPayment(t, {
      ...secondary,
      status: 'decline',
      decline_reason: 'Declined by processing.',
      amount_captured: '0.00',
      financial_day: undefined,
    })
    const r = await t.call('POST', RETRY, bodies.void(p.id))
    expect(r.body).toEqual({ payment_id: p.id, result: 'accepted' })
    expect(validate('checkout/retry-response', r.body).valid).toBe(true)
    const stored = t.store.get('payments', p.id)
    expect(stored).toMatchObject({ status: 'settled', amount_captured: '10.00', financial_day: '2026-11-02' })
    expect(stored?.decline_reason).toBeUndefined()
    expect(transactionsOf(t, p.id)).toMatchObject([{ type: 'recurring', status: 'success', amount: '10.00' }])
  })

  it('records a failed attempt and keeps the payment declined when the card still declines', async () => {
    const t = setup()
    const p = putPayment(t, { ...secondary, status: 'decline', card: testCard('01', '2025') })
    expect((await t.call('POST', RETRY, bodies.void(p.id))).body).toEqual({
      payment_id: p.id,
      result: 'accepted',
    })
    expect(t.store.get('payments', p.id)).toMatchObject({ status: 'decline', decline_reason: 'Expired card' })
    expect(transactionsOf(t, p.id)).toMatchObject([{ type: 'recurring', status: 'fail' }])
  })

  it.each([
    ['a settled recurring payment', { ...secondary }],
    ['a declined first payment', { status: 'decline' as const }],
    ['a held authorization', { status: 'pending' as const, auth: true }],
  ])('refuses %s', async (_, overrides) => {
    const t = setup()
    const p = putPayment(t, overrides)
    const before = storeSnapshot(t)
    expect((await t.call('POST', RETRY, bodies.void(p.id))).body).toEqual(NOT_ALLOWED)
    expect(storeSnapshot(t)).toBe(before)
  })
})
