import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createLowdbStore } from '../../src/adapters/index.js'
import { type CallbackDelivery, callbacksOf } from '../../src/core/callbacks/index.js'
import { BLOCK_REASON } from '../../src/core/callbacks/url-guard.js'
import type { SandboxMerchant } from '../../src/core/engine/context.js'
import { type Collections, STORE_INDEXES } from '../../src/core/engine/model.js'
import type { Logger } from '../../src/core/ports/logger.js'
import {
  commit,
  config,
  type Harness,
  harness,
  type Merchant,
  parsed,
  payment,
  transaction,
} from './harness.js'

const settle = (h: Harness) => callbacksOf(h.ctx).idle()
const deliveries = (h: Harness) => h.store.list('deliveries') as CallbackDelivery[]
const MINUTE = 60_000

/** The harness config with merchant-level changes applied to the demo merchant (index 0) or the other one. */
function withMerchants(
  change: (merchants: SandboxMerchant[]) => void,
  base = config(),
): ReturnType<typeof config> {
  const merchants = base.merchants.map((m) => ({ ...m }))
  change(merchants)
  return { ...base, merchants: merchants as typeof base.merchants }
}

function recordingLogger() {
  const warnings: { message: string; fields?: Record<string, unknown> }[] = []
  const logger: Logger = {
    info() {},
    error() {},
    warn(message, fields) {
      warnings.push({ message, ...(fields ? { fields } : {}) })
    },
  }
  return { logger, warnings }
}

describe('callback delivery rules (docs/rules.md#callbacks)', () => {
  // docs/rules.md#retries: "Retries are per merchant: on by default …, off with `callbacks.retries: false` (the white-labels
  // that document "delivered exactly once, no automatic retries")".
  it('sends exactly once for a merchant with callbacks.retries false, and retries the other merchant', async () => {
    const h = harness({
      config: withMerchants((m) => {
        m[0] = { ...(m[0] as SandboxMerchant), callbacks: { retries: false } }
      }),
      merchant: () => ({ status: 500, body: '' }),
    })
    const once = payment()
    const retried = payment({ merchant_key: 'other-merchant', mid_id: 'other-mid' })
    commit(h, once, transaction(once, 'sale'))
    commit(h, retried, transaction(retried, 'sale'))
    await settle(h)
    await h.clock.advance(3 * 86_400_000)
    await settle(h)
    const byMerchant = (key: string) => deliveries(h).find((d) => d.merchant_key === key) as CallbackDelivery
    expect(byMerchant('demo-merchant')).toMatchObject({ state: 'failed' })
    expect(byMerchant('demo-merchant').attempts).toHaveLength(1)
    expect(byMerchant('other-merchant').attempts).toHaveLength(7)
    expect(h.sent.filter((r) => r.url === 'http://merchant-a.test/cb')).toHaveLength(1)
  })

  it('takes the sandbox-wide callbacks.retries false as every merchant’s default; a merchant may turn them back on', async () => {
    const h = harness({
      config: withMerchants(
        (m) => {
          m[1] = { ...(m[1] as SandboxMerchant), callbacks: { retries: true } }
        },
        config({ callbacks: { retries: false } }),
      ),
      merchant: () => ({ status: 500, body: '' }),
    })
    const a = payment()
    const b = payment({ merchant_key: 'other-merchant', mid_id: 'other-mid' })
    commit(h, a, transaction(a, 'sale'))
    commit(h, b, transaction(b, 'sale'))
    await settle(h)
    await h.clock.advance(MINUTE)
    await settle(h)
    expect(h.store.findBy('deliveries', 'payment_id', a.id)).toMatchObject([{ state: 'failed' }])
    expect(h.store.findBy('deliveries', 'payment_id', b.id)).toMatchObject([{ state: 'retrying' }])
  })

  // docs/rules.md#callback-destination: "the merchant's `notification_url` (optional in the configuration; none and no `callback_url`
  // means no callbacks for that payment, ever)".
  it('sends no callback for a payment with neither a notification_url nor a callback_url', async () => {
    const h = harness({
      config: withMerchants((m) => {
        const { notification_url: _, ...rest } = m[0] as SandboxMerchant
        m[0] = rest as SandboxMerchant
      }),
    })
    const checkout = payment()
    const s2s = payment({ api: 's2s-card' })
    const s2sOwnUrl = payment({ api: 's2s-card', callback_url: 'http://own.test/cb' })
    for (const p of [checkout, s2s, s2sOwnUrl]) commit(h, p, transaction(p, 'sale'))
    await settle(h)
    expect(h.sent.map((r) => r.url)).toEqual(['http://own.test/cb'])
    expect(deliveries(h).map((d) => d.payment_id)).toEqual([s2sOwnUrl.id])
  })

  // docs/rules.md#callback-log: "A replay goes out at once."
  it('sends a replay at once, ahead of the merchant’s backlog and while the original is retrying', async () => {
    let hold: (() => void) | undefined
    const h = harness({
      // The backlog's slots stay taken however slow the machine: no time-out frees one meanwhile.
      timeouts: 'manual',
      merchant: (r) =>
        parsed(r).order_number === 'BACKLOG'
          ? new Promise((resolve) => {
              hold = () => resolve({ status: 200, body: '' })
            })
          : { status: 500, body: '' },
    })
    const failing = payment()
    commit(h, failing, transaction(failing, 'sale'))
    await settle(h)
    const original = deliveries(h)[0] as CallbackDelivery
    expect(original.state).toBe('retrying')
    // Fill the merchant's eight slots and queue more behind them.
    for (let i = 0; i < 12; i++) {
      const p = payment({ order_id: 'BACKLOG', order: { ...failing.order, number: 'BACKLOG' } })
      commit(h, p, transaction(p, 'sale'))
    }
    await new Promise((resolve) => setImmediate(resolve))
    const before = h.sent.length
    const replay = callbacksOf(h.ctx).replay(original.id) as CallbackDelivery
    await new Promise((resolve) => setImmediate(resolve))
    expect(h.sent.length).toBe(before + 1)
    expect(h.sent.at(-1)?.body).toBe(h.sent[0]?.body)
    expect(h.store.get('deliveries', replay.id)).toMatchObject({ state: 'retrying', replay_of: original.id })
    for (let i = 0; i < 12; i++) {
      hold?.()
      await new Promise((resolve) => setImmediate(resolve))
    }
  })

  // docs/rules.md#url-blocking (platform rule): "five time-outs within five minutes on one notification URL block it for 15
  // minutes for every merchant that uses it; a successful delivery resets the counter. Blocked deliveries are logged
  // as such."
  it('blocks a URL for 15 minutes after 5 time-outs within 5 minutes, for every merchant on it, and says so', async () => {
    const { logger, warnings } = recordingLogger()
    let hang = true
    const shared = 'http://shared.test/cb'
    const h = harness({
      logger,
      config: withMerchants(
        (m) => {
          // Exactly once for the first merchant, so each of its payments makes one time-out.
          m[0] = { ...(m[0] as SandboxMerchant), notification_url: shared, callbacks: { retries: false } }
          m[1] = { ...(m[1] as SandboxMerchant), notification_url: shared }
        },
        config({ callbacks: { timeout_seconds: 0.02 } }),
      ),
      merchant: () => (hang ? new Promise<never>(() => {}) : { status: 200, body: '' }),
    })
    // Four time-outs, one minute apart: not yet blocked.
    for (let i = 0; i < 4; i++) {
      const p = payment()
      commit(h, p, transaction(p, 'sale'))
      await settle(h)
      await h.clock.advance(MINUTE / 2)
    }
    expect(callbacksOf(h.ctx).urls.blockedUntil(shared, h.clock.now())).toBeUndefined()
    const fifth = payment()
    commit(h, fifth, transaction(fifth, 'sale'))
    await settle(h)
    const blockedAt = h.clock.now()
    expect(callbacksOf(h.ctx).urls.blockedUntil(shared, blockedAt)).toBe(blockedAt + 15 * MINUTE)
    expect(warnings.map((w) => w.message)).toContain(`callback URL blocked: ${BLOCK_REASON}`)

    // Another merchant on the same URL: logged as blocked, not sent.
    hang = false
    const sentBefore = h.sent.length
    const other = payment({ merchant_key: 'other-merchant', mid_id: 'other-mid' })
    commit(h, other, transaction(other, 'sale'))
    await settle(h)
    expect(h.sent.length).toBe(sentBefore)
    const blocked = h.store.findBy('deliveries', 'payment_id', other.id)[0] as CallbackDelivery
    expect(blocked).toMatchObject({ state: 'retrying', attempts: [{ blocked: true, acknowledged: false }] })
    expect(blocked.attempts[0]?.error).toMatch(/^Not sent: http:\/\/shared\.test\/cb is blocked until /)

    // Visible in the control API.
    const view = await h.gateway.handle({
      method: 'GET',
      path: '/sandbox/callback-urls',
      query: {},
      headers: {},
      body: new Uint8Array(),
    })
    expect(JSON.parse(view.body)).toMatchObject({
      blocked: 1,
      urls: [{ url: shared, blocked: true, blocks: 1, blocked_until_ms: blockedAt + 15 * MINUTE }],
    })

    // After 15 minutes the block lifts: the retry due at +21 minutes gets through and resets the counter.
    await h.clock.advance(14 * MINUTE)
    await settle(h)
    expect(callbacksOf(h.ctx).urls.blockedUntil(shared, h.clock.now())).toBe(blockedAt + 15 * MINUTE)
    await h.clock.advance(10 * MINUTE)
    await settle(h)
    expect(callbacksOf(h.ctx).urls.blockedUntil(shared, h.clock.now())).toBeUndefined()
    expect(h.store.get('deliveries', blocked.id)).toMatchObject({ state: 'acknowledged' })
    expect(callbacksOf(h.ctx).urls.states(h.clock.now())).toMatchObject([
      { url: shared, blocked: false, recent_timeouts: 0 },
    ])
    // The sandbox's reset (POST /sandbox/reset clears the store) forgets the counters with everything else.
    h.store.clear()
    h.ctx.events.emit({ type: 'reset', at: h.clock.now() })
    expect(callbacksOf(h.ctx).urls.states(h.clock.now())).toEqual([])
  })

  // docs/rules.md#callbacks (URL blocking: "block it for 15 minutes") and issue 14 point 2 ("at-least-once across restarts"):
  // the counters are stored with the attempts, so a restart with `--data` keeps the URL blocked for the rest of its
  // 15 minutes of sandbox time, and lifts the block after them.
  it('keeps a blocked URL blocked across a restart on a lowdb store until its 15 minutes pass', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paysandbox-url-guard-'))
    try {
      const file = join(dir, 'data.json')
      let hang = true
      const merchant: Merchant = () => (hang ? new Promise<never>(() => {}) : { status: 200, body: '' })
      const settings = config({ callbacks: { timeout_seconds: 0.02, retries: false } })
      const url = 'http://merchant-a.test/cb'
      const first = harness({
        config: settings,
        merchant,
        store: await createLowdbStore<Collections>({ file, indexes: STORE_INDEXES }),
      })
      for (let i = 0; i < 5; i++) {
        const p = payment()
        commit(first, p, transaction(p, 'sale'))
        await settle(first)
        await first.clock.advance(MINUTE / 2)
      }
      const blockedAt = first.clock.now() - MINUTE / 2
      expect(callbacksOf(first.ctx).urls.blockedUntil(url, first.clock.now())).toBe(blockedAt + 15 * MINUTE)
      first.gateway.stop()
      await first.store.flush()
      // Each time-out went to disk with its attempt as one batch (one journal line).
      const lines = readFileSync(`${file}.journal`, 'utf8').trim().split('\n')
      const counted = lines.filter((l) => l.includes('"callback_urls"'))
      expect(counted).toHaveLength(5)
      for (const line of counted)
        expect(JSON.parse(line)).toMatchObject({
          op: 'batch',
          ops: [{ collection: 'deliveries' }, { collection: 'callback_urls' }],
        })
      await first.store.close()

      // The restart goes on at the stored time, 10 minutes into the block: still blocked, nothing sent.
      hang = false
      const restartAt = blockedAt + 10 * MINUTE
      const again = harness({
        config: settings,
        merchant,
        start: restartAt,
        store: await createLowdbStore<Collections>({ file, indexes: STORE_INDEXES }),
      })
      expect(callbacksOf(again.ctx).urls.blockedUntil(url, restartAt)).toBe(blockedAt + 15 * MINUTE)
      expect(callbacksOf(again.ctx).urls.states(restartAt)).toMatchObject([{ url, blocked: true, blocks: 1 }])
      const during = payment()
      commit(again, during, transaction(during, 'sale'))
      await settle(again)
      expect(again.sent).toHaveLength(0)
      expect(again.store.findBy('deliveries', 'payment_id', during.id)[0]).toMatchObject({
        state: 'failed',
        attempts: [{ blocked: true, acknowledged: false }],
      })

      // Five more minutes of sandbox time: the block is over and the next callback goes out.
      await again.clock.advance(5 * MINUTE)
      expect(callbacksOf(again.ctx).urls.blockedUntil(url, again.clock.now())).toBeUndefined()
      const after = payment()
      commit(again, after, transaction(after, 'sale'))
      await settle(again)
      expect(again.sent).toHaveLength(1)
      expect(again.store.findBy('deliveries', 'payment_id', after.id)[0]).toMatchObject({
        state: 'acknowledged',
      })
      again.gateway.stop()
      await again.store.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('does not block a URL whose time-outs are more than five minutes apart, nor after a success between them', async () => {
    let hang = true
    const h = harness({
      config: config({ callbacks: { timeout_seconds: 0.02, retries: false } }),
      merchant: () => (hang ? new Promise<never>(() => {}) : { status: 200, body: '' }),
    })
    const url = 'http://merchant-a.test/cb'
    for (let i = 0; i < 6; i++) {
      const p = payment()
      commit(h, p, transaction(p, 'sale'))
      await settle(h)
      await h.clock.advance(MINUTE + 20_000)
    }
    expect(callbacksOf(h.ctx).urls.blockedUntil(url, h.clock.now())).toBeUndefined()
    await h.clock.advance(10 * MINUTE)
    // Four quick time-outs, one success, four more: the success reset the counter.
    const burst = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const p = payment()
        commit(h, p, transaction(p, 'sale'))
        await settle(h)
      }
    }
    await burst(4)
    hang = false
    await burst(1)
    hang = true
    await burst(4)
    expect(callbacksOf(h.ctx).urls.blockedUntil(url, h.clock.now())).toBeUndefined()
    await burst(1)
    expect(callbacksOf(h.ctx).urls.blockedUntil(url, h.clock.now())).toBe(h.clock.now() + 15 * MINUTE)
  })
})
