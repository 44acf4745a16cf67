import { describe, expect, it } from 'vitest'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import type { EngineEvent } from '../../src/core/engine/events.js'
import { validate } from '../../src/core/validation/index.js'
import {
  bodies,
  createOperationsGateway,
  putAuthorized,
  putPayment,
  storeSnapshot,
  transactionsOf,
} from '../helpers/payments.js'

const CAPTURE = '/api/v1/payment/capture'
const setup = () => createOperationsGateway([checkoutOperationsModule])

describe('POST /api/v1/payment/capture', () => {
  // States: "PENDING | CAPTURE ... Checkout capture | The payment was authorized (`auth=Y` or DMS) | settled (funds taken)"
  it('settles a held authorization in full and records the capture', async () => {
    const t = setup()
    const events: EngineEvent[] = []
    t.gateway.ctx.events.subscribe((e) => events.push(e))
    const p = putAuthorized(t)
    const r = await t.call('POST', CAPTURE, bodies.capture(p.id))
    expect(r.status).toBe(200)
    // docs/rules.md#responses: capture: `{payment_id, status: "settled", trans_status: "SUCCESS", date}`
    expect(r.body).toEqual({
      payment_id: p.id,
      status: 'settled',
      trans_status: 'SUCCESS',
      date: '2026-11-02 10:00:00',
    })
    expect(validate('checkout/capture-response', r.body).valid).toBe(true)
    const stored = t.store.get('payments', p.id)
    expect(stored).toMatchObject({ status: 'settled', amount_captured: '10.00', financial_day: '2026-11-02' })
    const [tx] = transactionsOf(t, p.id)
    expect(tx).toMatchObject({ type: 'capture', status: 'success', amount: '10.00' })
    expect(events.map((e) => e.type)).toEqual(['transaction', 'payment'])
    expect(events[1]).toMatchObject({ payment_id: p.id, status: 'settled', merchant_key: 'demo-merchant' })
  })

  // (sandbox) one capture of up to the authorized amount; the rest of the hold is released.
  it('captures part of the authorized amount, and only that part can be refunded', async () => {
    const t = setup()
    const p = putAuthorized(t)
    const r = await t.call('POST', CAPTURE, bodies.capture(p.id, '4.00'))
    expect(r.body).toMatchObject({ status: 'settled', trans_status: 'SUCCESS' })
    expect(t.store.get('payments', p.id)?.amount_captured).toBe('4.00')
    const refund = await t.call('POST', '/api/v1/payment/refund', bodies.refund(p.id, '4.01'))
    expect(refund.body).toMatchObject({
      errors: [
        {
          error_message:
            'amount: Not acceptable to request the refund for amount bigger than payment amount.',
        },
      ],
    })
    const again = await t.call('POST', CAPTURE, bodies.capture(p.id, '6.00'))
    expect(again.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [
        {
          error_code: 208003,
          error_message: 'Not acceptable to request the capture for payment not in pending status.',
        },
      ],
    })
  })

  it('refuses more than the authorized amount and changes nothing', async () => {
    const t = setup()
    const p = putAuthorized(t)
    const before = storeSnapshot(t)
    const r = await t.call('POST', CAPTURE, bodies.capture(p.id, '10.01'))
    expect(r.status).toBe(400)
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [
        {
          error_code: 208004,
          error_message: 'amount: Not acceptable to request the capture for amount bigger than auth amount.',
        },
      ],
    })
    expect(storeSnapshot(t)).toBe(before)
  })

  // docs/rules.md#test-cards: "03 authorization succeeds then capture is declined"
  it('answers a declined capture with trans_status FAIL and keeps the authorization held', async () => {
    const t = setup()
    const p = putAuthorized(t, { scenario: 'capture-declined' })
    const r = await t.call('POST', CAPTURE, bodies.capture(p.id, undefined, { parameters: { note: 'x' } }))
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      payment_id: p.id,
      status: 'pending',
      trans_status: 'FAIL',
      reason: 'Capture declined',
      date: '2026-11-02 10:00:00',
    })
    expect(validate('checkout/capture-response', r.body).valid).toBe(true)
    expect(t.store.get('payments', p.id)).toMatchObject({ status: 'pending', amount_captured: '0.00' })
    expect(transactionsOf(t, p.id)).toMatchObject([
      { type: 'capture', status: 'fail', decline_reason: 'Capture declined', parameters: { note: 'x' } },
    ])
    // The hold can still be released: "PENDING | CREDITVOID / Checkout refund | Held authorization | REVERSAL"
    const release = await t.call('POST', '/api/v1/payment/refund', bodies.refund(p.id))
    expect(release.body).toEqual({ payment_id: p.id, result: 'accepted' })
    expect(t.store.get('payments', p.id)?.status).toBe('reversal')
  })

  // 2.7: "The optional `parameters` object ... is accepted ... on Checkout capture, void and refund."
  it('stores the optional parameters on the capture transaction', async () => {
    const t = setup()
    const p = putAuthorized(t)
    await t.call('POST', CAPTURE, bodies.capture(p.id, '5.00', { parameters: { soft_descriptor: 'SHOP*1' } }))
    expect(transactionsOf(t, p.id)[0]?.parameters).toEqual({ soft_descriptor: 'SHOP*1' })
  })

  it.each([
    ['a settled sale', { status: 'settled' as const, auth: false }],
    ['a declined payment', { status: 'decline' as const, auth: false }],
    ['a pending payment that holds nothing (provider waiting)', { status: 'pending' as const, auth: false }],
  ])('refuses to capture %s (CAPTURE_NOT_ALLOWED)', async (_, overrides) => {
    const t = setup()
    const p = putPayment(t, overrides)
    const before = storeSnapshot(t)
    const r = await t.call('POST', CAPTURE, bodies.capture(p.id))
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [
        {
          error_code: 208003,
          error_message: 'Not acceptable to request the capture for payment not in pending status.',
        },
      ],
    })
    expect(storeSnapshot(t)).toBe(before)
  })

  it('checks the amount against the decimals of the payment currency and refuses zero', async () => {
    const t = setup()
    const p = putAuthorized(t)
    const wrong = await t.call('POST', CAPTURE, bodies.capture(p.id, '4.505'))
    expect(wrong.body).toMatchObject({
      error_message: 'Request data is invalid.',
      errors: [
        {
          error_message:
            'amount: This value is not valid. This currency has 2 decimals: send them with a dot, for example 100.00.',
        },
      ],
    })
    const zero = await t.call('POST', CAPTURE, bodies.capture(p.id, '0.00'))
    expect(zero.body).toMatchObject({
      errors: [{ error_message: 'amount: This value should be greater than 0.' }],
    })
    expect(t.store.get('payments', p.id)?.status).toBe('pending')
  })

  it('validates the body before anything else', async () => {
    const t = setup()
    const r = await t.call('POST', CAPTURE, { merchant_key: 'demo-merchant', hash: 'x' })
    expect(r.body).toMatchObject({
      error_message: 'Request data is invalid.',
      errors: [{ error_message: 'payment_id: This value should not be blank.' }],
    })
  })
})
