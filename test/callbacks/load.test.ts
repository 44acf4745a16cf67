import { describe, expect, it } from 'vitest'
import { type CallbackDelivery, callbacksOf, DEFAULT_CONCURRENCY } from '../../src/core/callbacks/index.js'
import { commit, harness, parsed, payment, transaction } from './harness.js'

const PAYMENTS = 2_500
const PER_PAYMENT = 4
const TOTAL = PAYMENTS * PER_PAYMENT
const MB = 1024 * 1024
/** A merchant that answers later, without a wall-clock wait: a few turns of the event loop. */
const later = async (turns: number) => {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve))
}

/**
 * Issue 5: "10,000 callbacks to a merchant answering slowly are all delivered, none twice unless a retry
 * was due, memory bounded". The merchant answers after 1 to 5 turns of the event loop (so attempts
 * overlap) and refuses one first attempt in a hundred, so some callbacks are due again after 1
 * minute of sandbox time.
 */
describe('callback delivery under load', () => {
  it(`delivers ${TOTAL} callbacks to a slow merchant exactly once each (plus due retries), in bounded memory`, async () => {
    const heapAtStart = process.memoryUsage().heapUsed
    let peakHeap = heapAtStart
    const sampler = setInterval(() => {
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)
    }, 20)
    let concurrent = 0
    let maxConcurrent = 0
    let refused = 0
    const received = new Map<string, number>()
    const h = harness({
      merchant: async (request) => {
        maxConcurrent = Math.max(maxConcurrent, ++concurrent)
        await later(1 + Math.floor(Math.random() * 5))
        concurrent--
        const body = parsed(request)
        const key = `${body.id}/${body.trans_id}`
        received.set(key, (received.get(key) ?? 0) + 1)
        // One first attempt in a hundred, counted as they arrive (not read from the random ids, which
        // could pick none): those callbacks are due again after 1 minute.
        if ((received.get(key) ?? 0) === 1 && received.size % 100 === 7) {
          refused++
          return { status: 500, body: 'busy' }
        }
        return { status: 200, body: 'OK' }
      },
    })
    const started = performance.now()
    for (let i = 0; i < PAYMENTS; i++) {
      const p = payment({ status: 'pending', auth: true })
      commit(h, p, transaction(p, 'auth'))
      commit(h, { ...p, status: 'settled' }, transaction(p, 'capture'))
      commit(h, { ...p, status: 'refund' }, transaction(p, 'refund', 'success', { amount: '1.00' }))
      commit(h, { ...p, status: 'refund' }, transaction(p, 'refund', 'success', { amount: '2.00' }))
    }
    const enqueuedMs = performance.now() - started
    await callbacksOf(h.ctx).idle()
    await h.clock.advance(60_000)
    await callbacksOf(h.ctx).idle()
    const elapsedMs = performance.now() - started
    clearInterval(sampler)
    const heapAtEnd = process.memoryUsage().heapUsed

    const all = h.store.list('deliveries') as CallbackDelivery[]
    expect(all).toHaveLength(TOTAL)
    expect(all.every((d) => d.state === 'acknowledged')).toBe(true)
    // Exactly once each, unless the first attempt failed and the retry was due.
    expect(received.size).toBe(TOTAL)
    for (const d of all) {
      const failed = d.attempts.filter((a) => !a.acknowledged).length
      expect(d.attempts).toHaveLength(failed + 1)
      expect(received.get(`${d.payment_id}/${d.fields.trans_id}`)).toBe(failed + 1)
    }
    expect(h.sent).toHaveLength(TOTAL + refused)
    expect(refused).toBeGreaterThan(0)
    // Per payment, in order: auth (sale), capture, refund, refund.
    const kindsOf = new Map<string, string[]>()
    for (const d of all.sort((a, b) => a.seq - b.seq))
      kindsOf.set(d.payment_id, [...(kindsOf.get(d.payment_id) ?? []), d.kind])
    expect(new Set([...kindsOf.values()].map((k) => k.join(',')))).toEqual(
      new Set(['sale,capture,refund,refund']),
    )
    // What is in flight never exceeds the merchant's slots.
    expect(maxConcurrent).toBeLessThanOrEqual(DEFAULT_CONCURRENCY)
    // How fast is the benchmark's to say (npm run bench); a timed assertion would depend on machine load.
    expect(peakHeap - heapAtStart).toBeLessThan(300 * MB)

    const logBytes = all.reduce((sum, d) => sum + JSON.stringify(d).length, 0)
    console.info(
      `[callbacks load] ${TOTAL} callbacks (${refused} refused once, retried): enqueued in ${enqueuedMs.toFixed(0)} ms, ` +
        `all acknowledged in ${elapsedMs.toFixed(0)} ms; max in flight ${maxConcurrent}; heap start ` +
        `${(heapAtStart / MB).toFixed(1)} MB, peak ${(peakHeap / MB).toFixed(1)} MB ` +
        `(+${((peakHeap - heapAtStart) / MB).toFixed(1)} MB), end ${(heapAtEnd / MB).toFixed(1)} MB; delivery log in the store ${(logBytes / MB).toFixed(1)} MB of JSON`,
    )
    h.gateway.stop()
    // A bound for a hang, not a duration: about 5 s of CPU on an idle machine, 41-62 s with four
    // `npm test` runs at once on 2 cores (62 s failed the 60 s bound it had); the speed is the
    // benchmark's to measure (npm run bench).
  }, 300_000)
})
