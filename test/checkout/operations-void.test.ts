import { describe, expect, it } from 'vitest'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import { HOUR, SECOND } from '../../src/core/ports/clock.js'
import { validate } from '../../src/core/validation/index.js'
import {
  bodies,
  createOperationsGateway,
  putAuthorized,
  putPayment,
  storeSnapshot,
  transactionsOf,
} from '../helpers/payments.js'

const VOID = '/api/v1/payment/void'
const setup = () => createOperationsGateway([checkoutOperationsModule])
const NOT_ALLOWED = { http_code: 400, error_code: 100000, error_message: 'Void is not allowed.' }

describe('POST /api/v1/payment/void', () => {
  // States: "SETTLED | VOID | Same financial day only | not shown" (the sandbox's destination: `void`)
  it('voids a payment settled today', async () => {
    const t = setup()
    const p = putPayment(t)
    const r = await t.call('POST', VOID, bodies.void(p.id, { parameters: { reason_code: 'R1' } }))
    expect(r.status).toBe(200)
    // docs/rules.md#responses: void: `{status: "SUCCESS"|"FAIL", payment_status, payment_id, date, order, reason?}`
    expect(r.body).toEqual({
      status: 'SUCCESS',
      payment_status: 'void',
      payment_id: p.id,
      date: '2026-11-02 10:00:00',
      order: { number: p.order.number, amount: '10.00', currency: 'USD', description: 'Important gift' },
    })
    expect(validate('checkout/void-response', r.body).valid).toBe(true)
    expect(t.store.get('payments', p.id)?.status).toBe('void')
    expect(transactionsOf(t, p.id)).toMatchObject([
      { type: 'void', status: 'success', amount: '10.00', parameters: { reason_code: 'R1' } },
    ])
  })

  // States: "PENDING | VOID | Not allowed | unchanged | Error `Void is not allowed.`"
  // Errors: "VOID on a not-yet-captured authorization | not shown | not shown | Void is not allowed."
  it('refuses a held authorization with the error envelope and leaves it unchanged', async () => {
    const t = setup()
    const p = putAuthorized(t)
    const before = storeSnapshot(t)
    const r = await t.call('POST', VOID, bodies.void(p.id))
    expect(r.status).toBe(400)
    expect(r.body).toEqual(NOT_ALLOWED)
    expect(storeSnapshot(t)).toBe(before)
  })

  it('refuses after the financial day, even one second after midnight UTC', async () => {
    const t = setup()
    await t.clock.advance(13 * HOUR + 59 * 60 * SECOND + 59 * SECOND) // 23:59:59
    const p = putPayment(t)
    await t.clock.advance(SECOND)
    const r = await t.call('POST', VOID, bodies.void(p.id))
    expect(r.body).toEqual(NOT_ALLOWED)
    expect(t.store.get('payments', p.id)?.status).toBe('settled')
  })

  it('allows the void up to the last second of the financial day', async () => {
    const t = setup()
    const p = putPayment(t)
    await t.clock.advance(13 * HOUR + 59 * 60 * SECOND + 59 * SECOND)
    expect((await t.call('POST', VOID, bodies.void(p.id))).body).toMatchObject({ status: 'SUCCESS' })
  })

  it.each([
    ['an already voided payment', { status: 'void' as const }],
    ['a refunded payment', { status: 'refund' as const, amount_refunded: '1.00' }],
    ['a declined payment', { status: 'decline' as const }],
    ['a payout', { operation: 'credit' as const }],
  ])('refuses %s', async (_, overrides) => {
    const t = setup()
    const p = putPayment(t, overrides)
    const before = storeSnapshot(t)
    expect((await t.call('POST', VOID, bodies.void(p.id))).body).toEqual(NOT_ALLOWED)
    expect(storeSnapshot(t)).toBe(before)
  })

  // "The `Refund is not allowed` error is explained by payment status."
  it('leaves nothing to refund after a void', async () => {
    const t = setup()
    const p = putPayment(t)
    await t.call('POST', VOID, bodies.void(p.id))
    const r = await t.call('POST', '/api/v1/payment/refund', bodies.refund(p.id))
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'Refund is not allowed.' }],
    })
  })
})
