import { describe, expect, it } from 'vitest'
import { createMemoryStore, createSeededIds, createSystemClock } from '../../src/adapters/index.js'
import { withRetention } from '../../src/adapters/store/retention.js'
import { type CallbackDelivery, callbacksModule, callbacksOf } from '../../src/core/callbacks/index.js'
import { BLOCK_REASON } from '../../src/core/callbacks/url-guard.js'
import { createGateway } from '../../src/core/engine/gateway.js'
import { type Collections, STORE_INDEXES } from '../../src/core/engine/model.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import type { Transport } from '../../src/core/ports/transport.js'
import { commit, config, harness, payment, transaction } from './harness.js'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
/** What fetch throws when nothing listens at the URL. */
const refused = () => {
  throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })
}

describe('callbacks to a URL where nothing answers', () => {
  // Rule book, callbacks (URL blocking: "five time-outs within five minutes on one notification URL block it for
  // 15 minutes"); sandbox choice (docs/sandbox-choices.md): a refused connection counts like a time-out, and an
  // HTTP answer (a 500) does not.
  it('blocks the URL after 5 refused connections within 5 minutes; a 500 answer does not count', async () => {
    let answer: () => { status: number; body: string } = () => ({ status: 500, body: 'busy' })
    const h = harness({ config: config({ callbacks: { retries: false } }), merchant: () => answer() })
    const url = 'http://merchant-a.test/cb'
    for (let i = 0; i < 6; i++) {
      const p = payment()
      commit(h, p, transaction(p, 'sale'))
      await callbacksOf(h.ctx).idle()
    }
    expect(callbacksOf(h.ctx).urls.blockedUntil(url, h.clock.now())).toBeUndefined()
    answer = refused
    for (let i = 0; i < 5; i++) {
      const p = payment()
      commit(h, p, transaction(p, 'sale'))
      await callbacksOf(h.ctx).idle()
    }
    expect(callbacksOf(h.ctx).urls.blockedUntil(url, h.clock.now())).toBe(h.clock.now() + 15 * MINUTE)
    // While blocked, nothing is sent: the attempt is logged as blocked.
    const sent = h.sent.length
    const p = payment()
    commit(h, p, transaction(p, 'sale'))
    await callbacksOf(h.ctx).idle()
    expect(h.sent.length).toBe(sent)
    const blocked = h.store.findBy('deliveries', 'payment_id', p.id)[0] as CallbackDelivery
    expect(blocked.attempts[0]?.blocked).toBe(true)
    expect(blocked.attempts[0]?.error).toContain(BLOCK_REASON)
    h.gateway.stop()
  })

  // Issue 22: "With callbacks that never succeed and `--retain 2000`, payments kept stay within a few percent of
  // 2,000 after 6,000 sales" (here 200 and 600, the same ratio); a forgotten payment's retries are cancelled.
  it('with retain 200, 600 payments whose callbacks never succeed keep 200, their retries cancelled', async () => {
    const store = withRetention(createMemoryStore<Collections>(STORE_INDEXES), { retain: 200 })
    const h = harness({ store, merchant: refused })
    for (let i = 0; i < 600; i++) {
      const p = payment()
      commit(h, p, transaction(p, 'sale'))
      if (i % 50 === 49) await callbacksOf(h.ctx).idle()
    }
    await callbacksOf(h.ctx).idle()
    expect(store.count('payments')).toBeLessThanOrEqual(210)
    expect(store.count('deliveries')).toBeLessThanOrEqual(210)
    const stats = store.retention.stats()
    expect(stats.forgotten).toBe(600 - stats.kept)
    expect(stats.forgotten_undelivered_callbacks).toBe(stats.forgotten)
    // One scheduled retry per callback kept, none for the forgotten ones.
    expect(h.clock.pending()).toBeLessThanOrEqual(store.count('deliveries'))
    // The URL was blocked after 5 refusals: most callbacks were never sent.
    expect(h.sent.length).toBeLessThan(20)
    h.gateway.stop()
  })
})

// Issue 25 item 6 / rule book, callbacks: "Advancing the clock runs every attempt that falls due, not one per callback."
describe('the system clock runs every due retry when advanced', () => {
  it('+2 h gives the first attempt and the retries at 1, 5, 15 minutes and 1 hour, as the virtual clock does', async () => {
    const clock = createSystemClock({ onError: () => {} })
    let attempts = 0
    const transport: Transport = {
      async send() {
        attempts++
        return { status: 500, body: 'no' }
      },
    }
    const gateway = createGateway(
      {
        store: createMemoryStore<Collections>(STORE_INDEXES),
        clock,
        ids: createSeededIds('system-clock'),
        transport,
        logger: silentLogger,
        config: config(),
        baseUrl: 'http://sandbox.test',
      },
      [callbacksModule],
    )
    const p = payment({ created_at: clock.now(), updated_at: clock.now() })
    const tx = transaction(p, 'sale', 'success', { created_at: clock.now() })
    gateway.ctx.store.put('payments', p)
    gateway.ctx.store.put('transactions', tx)
    gateway.ctx.events.emit({
      type: 'transaction',
      payment_id: p.id,
      transaction_id: tx.id,
      kind: tx.type,
      status: tx.status,
      at: clock.now(),
    })
    await callbacksOf(gateway.ctx).idle()
    expect(attempts).toBe(1)
    await clock.advance(2 * HOUR)
    await callbacksOf(gateway.ctx).idle()
    expect(attempts).toBe(5)
    const [delivery] = gateway.ctx.store.findBy('deliveries', 'payment_id', p.id) as CallbackDelivery[]
    const gaps = (delivery?.attempts ?? []).map((a, _i, all) => a.at - (all[0]?.at ?? 0))
    // Each retry at its own due time (within the few ms the advance itself takes).
    for (const [i, due] of [0, MINUTE, 6 * MINUTE, 21 * MINUTE, 81 * MINUTE].entries())
      expect(Math.abs((gaps[i] ?? -1) - due)).toBeLessThan(1_000)
    // The next (6 h) is scheduled after the window.
    expect(delivery?.state).toBe('retrying')
    expect((delivery?.next_attempt_at ?? 0) - clock.now()).toBeGreaterThan(HOUR)
    gateway.stop()
  })
})
