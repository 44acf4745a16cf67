import { describe, expect, it } from 'vitest'
import { callbacksOf } from '../../src/core/callbacks/index.js'
import type { Delivery } from '../../src/core/engine/model.js'
import { cardPayment, supportGateway } from './harness.js'

type Doc = Record<string, unknown> & {
  payment: Record<string, unknown>
  transactions: Record<string, unknown>[]
  callbacks: Delivery[]
}

/** The export once the payment's callbacks were delivered (the test transport acknowledges them). */
async function exported(t: ReturnType<typeof supportGateway>, id: string): Promise<Doc> {
  await callbacksOf(t.gateway.ctx).idle()
  const r = await t.call('GET', `/sandbox/payments/${id}/export`)
  expect(r.status).toBe(200)
  return r.body as unknown as Doc
}

const counts = (t: ReturnType<typeof supportGateway>) =>
  (['payments', 'transactions', 'deliveries', 'sessions', 'schedules', 'chains'] as const).map((c) =>
    t.store.count(c),
  )

// docs/rules.md#callback-log: "Every attempt is logged and can be replayed"; engine rule: "Never a full number ... in the store"
describe('support control routes: export one payment, import it elsewhere', () => {
  it('exports the payment, its timeline, its callbacks with attempts and its session; masked card, no password', async () => {
    const t = supportGateway()
    const id = await cardPayment(t, { month: '05', custom_data: { basket: 42 } })
    await t.call('POST', `/sandbox/payments/${id}/3ds`, { result: 'pass' })
    await t.gateway.ctx.clock.advance(1000)
    const r = await t.call('GET', `/sandbox/payments/${id}/export`)
    expect(r.headers['content-disposition']).toBe(`attachment; filename="payment-${id}.json"`)
    const doc = r.body as unknown as Doc
    expect(doc).toMatchObject({
      format: 'paysandbox.payment-export',
      version: 1,
      exported_at: '2026-11-02 10:00:01',
    })
    expect(doc.payment).toMatchObject({ id, status: 'settled', custom_data: { basket: 42 } })
    expect(doc.transactions.map((x) => [x.type, x.status])).toEqual([
      ['3ds', 'success'],
      ['sale', 'success'],
    ])
    expect(doc.callbacks.length).toBeGreaterThan(0)
    expect(doc.callbacks[0]?.attempts[0]).toMatchObject({ status: 200, acknowledged: true })
    expect(doc.session).toMatchObject({ id: doc.payment.session_id, merchant_key: 'demo-merchant' })
    expect(r.raw).toContain('411111******1111')
    expect(r.raw).not.toContain('4111111111111111')
    expect(r.raw).not.toContain('demo-password')
  })

  it('imports into another sandbox with the same ids; the console reads it there as it was', async () => {
    const source = supportGateway()
    const id = await cardPayment(source)
    const doc = await exported(source, id)
    const target = supportGateway()
    const r = await target.call('POST', '/sandbox/import', doc)
    expect(r.status).toBe(201)
    expect(r.body).toEqual({
      payment_id: id,
      transactions: 1,
      callbacks: doc.callbacks.length,
      callbacks_stopped: 0,
      session: 'imported',
    })
    const again = await target.call('GET', `/sandbox/payments/${id}/export`)
    expect({ ...again.body, exported_at: 'x' }).toEqual({ ...doc, exported_at: 'x' })
  })

  it('refuses a clash with the same ids and writes nothing (409)', async () => {
    const t = supportGateway()
    const id = await cardPayment(t)
    const doc = await exported(t, id)
    const before = counts(t)
    const r = await t.call('POST', '/sandbox/import', doc)
    expect(r.status).toBe(409)
    expect(r.body).toEqual({
      http_code: 409,
      error_code: 100000,
      error_message:
        'The sandbox already holds a record of this export (same id). Reset the sandbox, or import into another one.',
    })
    expect(counts(t)).toEqual(before)
  })

  it('marks callbacks that were still waiting as failed, so the importing sandbox never sends them by itself', async () => {
    const source = supportGateway()
    const doc = await exported(source, await cardPayment(source))
    const first = doc.callbacks[0] as Delivery
    doc.callbacks[0] = { ...first, state: 'retrying', next_attempt_at: first.created_at + 60_000 }
    const target = supportGateway()
    const r = await target.call('POST', '/sandbox/import', doc)
    expect(r.body.callbacks_stopped).toBe(1)
    const stored = target.store.get('deliveries', first.id)
    expect(stored?.state).toBe('failed')
    expect(stored).not.toHaveProperty('next_attempt_at')
    await target.gateway.ctx.clock.advance(3_600_000)
    expect(target.sent).toEqual([])
  })

  it.each([
    [
      'a full card number',
      (d: Doc) => ((d.payment.card as Record<string, string>).masked = '4111111111111111'),
      'payment.card.masked: This value must be a masked card number (first 6 and last 4 digits, the rest *).',
    ],
    [
      'a wrong format',
      (d: Doc) => (d.format = 'other'),
      'format: This value should be equal to "paysandbox.payment-export".',
    ],
    [
      'no transactions list',
      (d: Doc) => delete (d as Partial<Doc>).transactions,
      'transactions: This value should not be blank.',
    ],
  ])('refuses %s with a field error and writes nothing', async (_what, spoil, message) => {
    const source = supportGateway()
    const doc = await exported(source, await cardPayment(source))
    spoil(doc)
    const target = supportGateway()
    const r = await target.call('POST', '/sandbox/import', doc)
    expect(r.status).toBe(400)
    expect((r.body.errors as { error_message: string }[]).map((e) => e.error_message)).toContain(message)
    expect(counts(target)).toEqual([0, 0, 0, 0, 0, 0])
  })

  it('refuses records of another payment, and a merchant this sandbox does not have', async () => {
    const source = supportGateway()
    const doc = await exported(source, await cardPayment(source))
    const target = supportGateway()
    const foreign = { ...doc, transactions: [{ ...doc.transactions[0], payment_id: 'another' }] }
    expect((await target.call('POST', '/sandbox/import', foreign)).body).toEqual({
      http_code: 400,
      error_code: 100000,
      error_message: "The export's records do not belong to its payment.",
    })
    const stranger = { ...doc, payment: { ...doc.payment, merchant_key: 'nobody' } }
    expect((await target.call('POST', '/sandbox/import', stranger)).body).toMatchObject({
      error_message:
        "The payment's merchant is not configured in this sandbox. Start it with a configuration that has this merchant_key.",
    })
    expect(counts(target)).toEqual([0, 0, 0, 0, 0, 0])
  })
})
