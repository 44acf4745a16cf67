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

const REFUND = '/api/v1/payment/refund'
const setup = () => createOperationsGateway([checkoutOperationsModule])
const EXCEEDED = 'amount: Not acceptable to request the refund for amount bigger than payment amount.'

describe('POST /api/v1/payment/refund', () => {
  // States: "SETTLED | CREDITVOID / Checkout refund | Full or partial amount | REFUND"
  it('refunds a settled payment in full', async () => {
    const t = setup()
    const events: EngineEvent[] = []
    t.gateway.ctx.events.subscribe((e) => events.push(e))
    const p = putPayment(t)
    const r = await t.call('POST', REFUND, bodies.refund(p.id))
    // docs/rules.md#responses: refund: `{payment_id, result: "accepted"}`
    expect(r.body).toEqual({ payment_id: p.id, result: 'accepted' })
    expect(validate('checkout/refund-response', r.body).valid).toBe(true)
    expect(t.store.get('payments', p.id)).toMatchObject({ status: 'refund', amount_refunded: '10.00' })
    const [tx] = transactionsOf(t, p.id)
    expect(tx).toMatchObject({ type: 'refund', status: 'success', amount: '10.00' })
    // The callback's status "is the payment status after the transaction": the payment is stored first.
    expect(events).toMatchObject([
      { type: 'transaction', transaction_id: tx?.id, kind: 'refund' },
      { type: 'payment', status: 'refund' },
    ])
  })

  // "Each refund or reversal gets its own `creditvoid_id`." A partial refund makes the status REFUND too.
  it('refunds in parts, each part its own transaction, until nothing is left', async () => {
    const t = setup()
    const p = putPayment(t)
    await t.call('POST', REFUND, bodies.refund(p.id, '3.00', { parameters: { comment: 'damaged item' } }))
    expect(t.store.get('payments', p.id)).toMatchObject({ status: 'refund', amount_refunded: '3.00' })
    const over = await t.call('POST', REFUND, bodies.refund(p.id, '7.01'))
    expect(over.body).toMatchObject({
      error_message: 'Request data is invalid.',
      errors: [{ error_message: EXCEEDED }],
    })
    await t.call('POST', REFUND, bodies.refund(p.id))
    expect(t.store.get('payments', p.id)).toMatchObject({ status: 'refund', amount_refunded: '10.00' })
    const txs = transactionsOf(t, p.id)
    expect(txs.map((x) => [x.type, x.amount])).toEqual([
      ['refund', '3.00'],
      ['refund', '7.00'],
    ])
    expect(txs[0]?.parameters).toEqual({ comment: 'damaged item' })
    expect(new Set(txs.map((x) => x.id)).size).toBe(2)
    const more = await t.call('POST', REFUND, bodies.refund(p.id, '0.01'))
    expect(more.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'Refund is not allowed.' }],
    })
  })

  it('refuses a refund above what was captured and changes nothing', async () => {
    const t = setup()
    const p = putPayment(t)
    const before = storeSnapshot(t)
    const r = await t.call('POST', REFUND, bodies.refund(p.id, '10.01'))
    expect(r.status).toBe(400)
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 208006, error_message: EXCEEDED }],
    })
    expect(storeSnapshot(t)).toBe(before)
  })

  // docs/engine.md: "Store reads and writes are synchronous ... (that is what keeps refunds from
  // exceeding the captured amount under concurrency)."
  it('never refunds more than was captured under 20 concurrent partial refunds', async () => {
    const t = setup()
    const p = putPayment(t)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.call('POST', REFUND, bodies.refund(p.id, '0.70'))),
    )
    const accepted = answers.filter((a) => a.status === 200)
    const refused = answers.filter((a) => a.status === 400)
    expect(accepted).toHaveLength(14)
    expect(refused).toHaveLength(6)
    for (const r of refused) expect(r.body).toMatchObject({ errors: [{ error_message: EXCEEDED }] })
    expect(t.store.get('payments', p.id)?.amount_refunded).toBe('9.80')
    const total = transactionsOf(t, p.id).reduce((sum, x) => sum + Math.round(Number(x.amount) * 100), 0)
    expect(total).toBe(980)
  })

  // States: "PENDING | CREDITVOID / Checkout refund | Held authorization | REVERSAL | Full amount only."
  it('releases a held authorization in full as a reversal', async () => {
    const t = setup()
    const p = putAuthorized(t)
    expect((await t.call('POST', REFUND, bodies.refund(p.id, '10.00'))).body).toMatchObject({
      result: 'accepted',
    })
    expect(t.store.get('payments', p.id)).toMatchObject({ status: 'reversal' })
    expect(transactionsOf(t, p.id)).toMatchObject([{ type: 'reversal', status: 'success', amount: '10.00' }])
  })

  it('refuses to release part of a held authorization', async () => {
    const t = setup()
    const p = putAuthorized(t)
    const before = storeSnapshot(t)
    const r = await t.call('POST', REFUND, bodies.refund(p.id, '5.00'))
    expect(r.body).toMatchObject({
      errors: [{ error_message: 'amount: Not acceptable to request the reversal for partial amount.' }],
    })
    expect(storeSnapshot(t)).toBe(before)
  })

  // States: "(debit payment) | CREDITVOID | Any | REVERSAL | A debit always yields a reversal."
  it('reverses a debit, in part or in full', async () => {
    const t = setup()
    const p = putPayment(t, { operation: 'debit' })
    await t.call('POST', REFUND, bodies.refund(p.id, '2.00'))
    expect(t.store.get('payments', p.id)).toMatchObject({ status: 'reversal', amount_refunded: '2.00' })
    await t.call('POST', REFUND, bodies.refund(p.id))
    expect(t.store.get('payments', p.id)).toMatchObject({ status: 'reversal', amount_refunded: '10.00' })
    expect(transactionsOf(t, p.id).map((x) => [x.type, x.amount])).toEqual([
      ['reversal', '2.00'],
      ['reversal', '8.00'],
    ])
  })

  // "The `Refund is not allowed` error is explained by payment status."
  it.each([
    ['decline', {}],
    ['void', {}],
    ['3ds', {}],
    ['prepare', {}],
    ['redirect', {}],
    ['chargeback', {}],
    ['reversal', {}],
    ['settled', { operation: 'credit' as const }],
  ] as const)('refuses a payment in status %s %o', async (status, extra) => {
    const t = setup()
    const p = putPayment(t, { status, ...extra })
    const before = storeSnapshot(t)
    const r = await t.call('POST', REFUND, bodies.refund(p.id))
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'Refund is not allowed.' }],
    })
    expect(storeSnapshot(t)).toBe(before)
  })

  it('counts minor units of three-decimal currencies exactly', async () => {
    const t = setup()
    const p = putPayment(t, {
      order: { number: 'kwd-1', amount: '1.000', currency: 'KWD', description: 'd' },
      amount_captured: '1.000',
      amount_refunded: '0.000',
    })
    await t.call('POST', REFUND, bodies.refund(p.id, '0.333'))
    await t.call('POST', REFUND, bodies.refund(p.id, '0.667'))
    expect(t.store.get('payments', p.id)).toMatchObject({ amount_refunded: '1.000' })
    const r = await t.call('POST', REFUND, bodies.refund(p.id, '0.1005'))
    expect(r.body).toMatchObject({
      errors: [
        {
          error_message:
            'amount: This value is not valid. This currency has 3 decimals: send them with a dot, for example 100.000.',
        },
      ],
    })
  })
})
