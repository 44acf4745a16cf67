import { describe, expect, it } from 'vitest'
import { type CallbackDelivery, callbacksOf } from '../../src/core/callbacks/index.js'
import type { EngineEvent } from '../../src/core/engine/events.js'
import { commit, config, type Harness, harness, parsed, payment, START, transaction } from './harness.js'

const settle = (h: Harness) => callbacksOf(h.ctx).idle()
const deliveries = (h: Harness) => h.store.list('deliveries') as CallbackDelivery[]
const one = (h: Harness) => {
  const all = deliveries(h)
  expect(all).toHaveLength(1)
  return all[0] as CallbackDelivery
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('callback delivery', () => {
  // docs/rules.md#callback-format: "Sent as `POST`, `application/x-www-form-urlencoded; charset=utf-8`, flat keys"; "Destination:
  // the merchant's `notification_url`"; "Every attempt is logged".
  it('POSTs the callback form to the notification_url and logs the acknowledged attempt', async () => {
    const h = harness()
    const states: string[] = []
    h.ctx.events.subscribe((e: EngineEvent) => {
      if (e.type === 'delivery') states.push(e.state)
    })
    const p = payment()
    commit(h, p, transaction(p, 'sale'))
    await settle(h)
    expect(h.sent).toHaveLength(1)
    const request = h.sent[0]
    expect(request).toMatchObject({ url: 'http://merchant-a.test/cb', method: 'POST', timeoutMs: 10_000 })
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=utf-8')
    expect(parsed(request as never)).toMatchObject({ id: p.id, type: 'sale', order_status: 'settled' })
    const d = one(h)
    expect(d).toMatchObject({
      state: 'acknowledged',
      payment_id: p.id,
      order_id: 'ORDER-1001',
      kind: 'sale',
      seq: 1,
    })
    expect(d.attempts).toEqual([
      { at: START, status: 200, body_excerpt: 'OK', latency_ms: expect.any(Number), acknowledged: true },
    ])
    expect(states).toEqual(['queued', 'delivering', 'acknowledged'])
  })

  it('sends one callback per transaction and status: the same event twice is not sent twice', async () => {
    const h = harness()
    const p = payment({ status: '3ds' })
    const tx = transaction(p, '3ds', 'waiting')
    commit(h, p, tx)
    commit(h, p, tx)
    await settle(h)
    expect(h.sent).toHaveLength(1)
    // The 3DS step ends and no separate charge transaction exists: the step itself reports the sale.
    const done = { ...p, status: 'settled' as const }
    commit(h, done, { ...tx, status: 'success' })
    await settle(h)
    expect(h.sent.map((r) => parsed(r))).toMatchObject([
      { type: '3ds', status: 'success', order_status: '3ds' },
      { type: 'sale', status: 'success', order_status: 'settled' },
    ])
  })

  it('leaves the end of a 3DS step to the charge transaction when there is one', async () => {
    const h = harness()
    const p = payment({ status: 'settled' })
    const step = transaction(p, '3ds', 'success')
    h.store.put('transactions', transaction(p, 'sale'))
    commit(h, p, step)
    await settle(h)
    expect(h.sent).toHaveLength(0)
  })

  // docs/rules.md#callbacks "Delivery": "each callback goes out when its transaction reaches a result, in the order they
  // were created, never waiting for an earlier one's acknowledgement".
  it('sends a payment’s callbacks in creation order without waiting for acknowledgements; payments go in parallel', async () => {
    let maxParallel = 0
    let parallel = 0
    const h = harness({
      merchant: async () => {
        maxParallel = Math.max(maxParallel, ++parallel)
        await sleep(5)
        parallel--
        return { status: 200, body: '' }
      },
    })
    const payments = [payment(), payment(), payment()]
    for (const p of payments) {
      commit(h, { ...p, status: 'pending', auth: true }, transaction(p, 'auth'))
      commit(h, p, transaction(p, 'capture'))
      commit(h, { ...p, status: 'refund' }, transaction(p, 'refund', 'success', { amount: '1.00' }))
    }
    await settle(h)
    // Every callback was sent before the first answer came back: nothing waited for an acknowledgement.
    expect(maxParallel).toBe(8)
    for (const p of payments) {
      const order = h.sent.filter((r) => parsed(r).id === p.id).map((r) => parsed(r).type)
      expect(order).toEqual(['sale', 'capture', 'refund'])
    }
    expect(deliveries(h).every((d) => d.state === 'acknowledged')).toBe(true)
  })

  // docs/rules.md#delivery: "never waiting for an earlier one's acknowledgement"; retries "at 1 min, 5 min, 15 min, 1 h,
  // 6 h, 24 h of sandbox time".
  it('retries a flaky merchant on the sandbox clock while the payment’s later callback goes out at once', async () => {
    let failures = 2
    const h = harness({
      merchant: (r) =>
        parsed(r).type === 'sale' && failures-- > 0
          ? { status: 500, body: 'boom' }
          : { status: 200, body: '' },
    })
    const p = payment()
    commit(h, p, transaction(p, 'sale'))
    commit(h, { ...p, status: 'refund' }, transaction(p, 'refund', 'success', { amount: '1.00' }))
    await settle(h)
    const [sale, refund] = deliveries(h) as [CallbackDelivery, CallbackDelivery]
    expect(sale).toMatchObject({ state: 'retrying', next_attempt_at: START + 60_000 })
    expect(h.store.get('deliveries', refund.id)).toMatchObject({ state: 'acknowledged' })

    await h.clock.advance(59_000)
    await settle(h)
    expect(h.sent).toHaveLength(2)
    await h.clock.advance(1_000)
    await settle(h)
    expect(h.store.get('deliveries', sale.id)).toMatchObject({
      state: 'retrying',
      next_attempt_at: START + 360_000,
    })
    await h.clock.advance(300_000)
    await settle(h)
    const done = h.store.get('deliveries', sale.id) as CallbackDelivery
    expect(done.state).toBe('acknowledged')
    expect(done.attempts.map((a) => [a.at - START, a.status, a.acknowledged])).toEqual([
      [0, 500, false],
      [60_000, 500, false],
      [360_000, 200, true],
    ])
    expect(h.sent.map((r) => parsed(r).type)).toEqual(['sale', 'refund', 'sale', 'sale'])
  })

  // docs/rules.md#retries: "Advancing the clock runs every attempt that falls due, not one per callback."
  it('runs every due attempt when the clock jumps, then marks the callback failed after the last retry', async () => {
    const h = harness({
      merchant: (r) => (parsed(r).type === 'sale' ? { status: 503, body: '' } : { status: 200, body: '' }),
    })
    const p = payment()
    commit(h, p, transaction(p, 'sale'))
    commit(h, { ...p, status: 'void' }, transaction(p, 'void'))
    await settle(h)
    await h.clock.advance(2 * 86_400_000)
    await settle(h)
    const [sale, voided] = deliveries(h) as [CallbackDelivery, CallbackDelivery]
    expect(sale.state).toBe('failed')
    // First attempt, then one per retry, each at its own due time (not at the end of the jump).
    expect(sale.attempts.map((a) => (a.at - START) / 1000)).toEqual([0, 60, 360, 1260, 4860, 26460, 112860])
    expect(sale.next_attempt_at).toBeUndefined()
    expect(voided.state).toBe('acknowledged')
    await h.clock.advance(7 * 86_400_000)
    await settle(h)
    expect(h.sent.filter((r) => parsed(r).type === 'sale')).toHaveLength(7)
  })

  it('follows config.callbacks.retry_schedule_seconds (an empty list: a single attempt)', async () => {
    const h = harness({
      config: config({ callbacks: { retry_schedule_seconds: [] } }),
      merchant: () => ({ status: 500, body: '' }),
    })
    const p = payment()
    commit(h, p, transaction(p, 'sale'))
    await settle(h)
    expect(one(h)).toMatchObject({ state: 'failed' })
  })
})
