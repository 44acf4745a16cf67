import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../src/adapters/index.js'
import { type RunningSandbox, serve } from '../../src/adapters/serve.js'
import {
  DEFAULT_RETAIN,
  FINAL_SESSION_STATUSES,
  UNFINISHED_PAYMENT_STATUSES,
  withRetention,
} from '../../src/adapters/store/retention.js'
import {
  type Collections,
  type Delivery,
  type Payment,
  type PaymentStatus,
  type Session,
  STORE_INDEXES,
  type Transaction,
} from '../../src/core/engine/model.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import type { Store } from '../../src/core/ports/store.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { countingStore } from '../helpers/counting-store.js'

/**
 * Issue 22 (on issue 11 point 5): `--retain N` bounds memory in every case. A memory store keeps
 * at most N units (a session with its payments, or a payment without a session), the oldest
 * forgotten first whatever their state, each with its transactions and callbacks; the order is
 * kept as units are created, so no write reads the whole store.
 */
let n = 0

function addPayment(
  store: Store<Collections>,
  status: PaymentStatus,
  extra: Partial<Payment> & { delivery?: Delivery['state']; session?: Session['status'] } = {},
): string {
  const id = `pay-${++n}`
  const { delivery, session, ...fields } = extra
  const sessionId = session ? `ses-${n}` : undefined
  if (sessionId) addSession(store, sessionId, session as Session['status'], id)
  store.put('payments', {
    id,
    merchant_key: 'm',
    status,
    created_at: n,
    ...(sessionId ? { session_id: sessionId } : {}),
    ...fields,
  } as unknown as Payment)
  store.put('transactions', { id: `trx-${n}`, payment_id: id } as unknown as Transaction)
  store.put('deliveries', {
    id: `del-${n}`,
    payment_id: id,
    merchant_key: 'm',
    order_id: `o-${n}`,
    state: delivery ?? 'acknowledged',
  } as unknown as Delivery)
  return id
}

function addSession(store: Store<Collections>, id: string, status: Session['status'], paymentId?: string) {
  store.put('sessions', {
    id,
    token: `tok-${id}`,
    page_token: `page-${id}`,
    merchant_key: 'm',
    status,
    created_at: n,
    expires_at: n + 3_600_000,
    ...(paymentId ? { payment_id: paymentId } : {}),
  } as unknown as Session)
}

const flush = () => new Promise((resolve) => setImmediate(resolve))

describe('retention: names', () => {
  it('reads unfinished payment statuses and final session statuses from the state tables', () => {
    expect([...UNFINISHED_PAYMENT_STATUSES].sort()).toEqual(['3ds', 'pending', 'prepare', 'redirect'])
    expect([...FINAL_SESSION_STATUSES].sort()).toEqual(['cancelled', 'expired', 'paid'])
    expect(DEFAULT_RETAIN).toBe(10_000)
  })
})

describe('retention: oldest units first, whatever their state', () => {
  it('forgets the oldest units beyond N with their transactions, callbacks and session, in creation order', async () => {
    const logged: Record<string, unknown>[] = []
    const store = withRetention(createMemoryStore<Collections>(STORE_INDEXES), {
      retain: 2,
      logger: { ...silentLogger, warn: (_m, fields) => void logged.push(fields ?? {}) },
    })
    const forgottenIds: string[][] = []
    store.retention.onForget((ids) => forgottenIds.push(ids))
    // The oldest: an open session that has not expired, a payment in 3DS, one whose callback retries.
    addSession(store, 'ses-open', 'open')
    const in3ds = addPayment(store, '3ds', { session: 'open' })
    const retrying = addPayment(store, 'settled', { delivery: 'retrying' })
    const kept = [addPayment(store, 'settled'), addPayment(store, 'decline', { session: 'open' })]
    // docs/rules.md#retention: the write that goes past N forgets the oldest in its own batch.
    expect(store.count('payments')).toBe(2)
    await flush()
    expect(store.get('sessions', 'ses-open')).toBeUndefined()
    for (const id of [in3ds, retrying]) {
      expect(store.get('payments', id)).toBeUndefined()
      expect(store.findBy('transactions', 'payment_id', id)).toEqual([])
      expect(store.findBy('deliveries', 'payment_id', id)).toEqual([])
    }
    expect(store.list('sessions').map((s) => s.id)).toEqual([`ses-${n}`])
    expect(store.list('payments').map((p) => p.id)).toEqual(kept)
    // The retrying callback was counted, logged and handed to the callback queue.
    expect(store.retention.stats()).toEqual({
      retain: 2,
      retain_demo: 50,
      kept: 2,
      kept_demo: 0,
      forgotten: 3,
      forgotten_demo: 0,
      forgotten_undelivered_callbacks: 1,
    })
    expect(forgottenIds).toEqual([[`del-${Number(retrying.slice(4))}`]])
    expect(logged).toEqual([{ retain: 2, forgotten_undelivered_callbacks: 1 }])
    // A payer coming back to a forgotten session is recognised (its token and page token).
    expect(store.retention.forgotSession('tok-ses-open')).toBe(true)
    expect(store.retention.forgotSession('page-ses-open')).toBe(true)
    expect(store.retention.forgotSession(`page-ses-${n}`)).toBe(false)
  })

  it('counts a session and its payments as one unit, in one commit or in separate puts', async () => {
    const store = withRetention(createMemoryStore<Collections>(STORE_INDEXES), { retain: 2 })
    await store.commit([
      {
        collection: 'sessions',
        kind: 'put',
        id: 's1',
        record: { id: 's1', token: 't1', merchant_key: 'm', status: 'paid', created_at: 1 },
      },
      {
        collection: 'payments',
        kind: 'put',
        id: 'p1',
        record: { id: 'p1', merchant_key: 'm', session_id: 's1', status: 'settled' },
      },
      {
        collection: 'payments',
        kind: 'put',
        id: 'p1b',
        record: { id: 'p1b', merchant_key: 'm', session_id: 's1', status: 'decline' },
      },
    ])
    addPayment(store, 'settled', { session: 'paid' })
    await flush()
    expect(store.retention.stats().kept).toBe(2)
    expect(store.count('payments')).toBe(3)
    // A replace is not a new unit.
    store.put('payments', { ...(store.get('payments', 'p1') as Payment), status: 'refund' })
    await flush()
    expect(store.retention.stats()).toMatchObject({ kept: 2, forgotten: 0 })
    addPayment(store, 'settled')
    await flush()
    expect(store.get('sessions', 's1')).toBeUndefined()
    expect(store.get('payments', 'p1')).toBeUndefined()
    expect(store.get('payments', 'p1b')).toBeUndefined()
    expect(store.retention.stats()).toMatchObject({ kept: 2, forgotten: 1 })
  })

  it('keeps the initial payment of a recurring series while such units are at most half of N', async () => {
    const store = withRetention(createMemoryStore<Collections>(STORE_INDEXES), { retain: 4 })
    const init = addPayment(store, 'settled', { recurring: { init: true } })
    for (let i = 0; i < 10; i++) addPayment(store, 'settled')
    await flush()
    expect(store.get('payments', init)).toBeDefined()
    expect(store.count('payments')).toBe(4)
    // Two more initial payments: three would be more than half of 4, so the oldest one goes.
    const later = [
      addPayment(store, 'settled', { recurring: { init: true } }),
      addPayment(store, 'settled', { recurring: { init: true } }),
    ]
    for (let i = 0; i < 10; i++) addPayment(store, 'settled')
    await flush()
    expect(store.count('payments')).toBe(4)
    // When its turn comes again, the oldest of the three goes.
    for (let i = 0; i < 10; i++) addPayment(store, 'settled')
    await flush()
    expect(store.count('payments')).toBe(4)
    expect(store.get('payments', init)).toBeUndefined()
    for (const id of later) expect(store.get('payments', id)).toBeDefined()
  })

  it('reads no whole collection and a bounded number of records per write, whatever the store holds', async () => {
    const { store: inner, reads } = countingStore(createMemoryStore<Collections>(STORE_INDEXES))
    const store = withRetention(inner, { retain: 100 })
    for (let i = 0; i < 2_000; i++) addPayment(store, 'settled', { session: 'open' })
    await flush()
    const before = { ...reads }
    for (let i = 0; i < 1_000; i++) {
      addPayment(store, 'settled', { session: 'open' })
      await flush()
    }
    expect(reads.list).toBe(0)
    // Each forgotten unit: its session (get), its payments, transactions and callbacks (findBy).
    expect(reads.get - before.get).toBeLessThanOrEqual(1_000 * 2)
    expect(reads.findBy - before.findBy).toBeLessThanOrEqual(1_000 * 3)
    expect(store.count('sessions')).toBe(100)
    expect(store.count('payments')).toBe(100)
  })

  it('starts over on clear() (the sandbox reset)', async () => {
    const store = withRetention(createMemoryStore<Collections>(STORE_INDEXES), { retain: 2 })
    for (let i = 0; i < 3; i++) addPayment(store, 'settled')
    await flush()
    store.clear()
    expect(store.retention.stats().kept).toBe(0)
    for (let i = 0; i < 2; i++) addPayment(store, 'settled')
    await flush()
    expect(store.count('payments')).toBe(2)
  })
})

describe('serve --retain', () => {
  const running: RunningSandbox[] = []
  afterEach(async () => {
    for (const s of running.splice(0)) await s.close()
  })

  const order = { number: 'o-1', amount: '10.00', currency: 'USD', description: 'Retention' }
  const session = (baseUrl: string) =>
    fetch(`${baseUrl}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        merchant_key: 'demo-merchant',
        operation: 'purchase',
        order,
        success_url: 'https://shop.example/ok',
        cancel_url: 'https://shop.example/cancel',
        hash: checkoutSignatures.session(order, 'demo-password-0123456789abcdef'),
      }),
    }).then(async (r) => (await r.json()) as { redirect_url: string })

  it('keeps N open sessions; a payer back on a forgotten one sees the expired-session page; health counts', async () => {
    const s = await serve({ port: 0, logger: silentLogger, retain: 2 })
    running.push(s)
    const urls: string[] = []
    for (let i = 0; i < 5; i++) urls.push((await session(s.baseUrl)).redirect_url)
    expect(s.gateway.ctx.store.count('sessions')).toBe(2)
    const forgotten = await fetch(urls[0] as string)
    expect(forgotten.status).toBe(200)
    expect(await forgotten.text()).toContain('This payment page has expired')
    const kept = await fetch(urls[4] as string)
    expect(kept.status).toBe(200)
    expect(await kept.text()).not.toContain('This payment page has expired')
    const never = await fetch(`${s.baseUrl}/auth/no-such-token`)
    expect(never.status).toBe(404)
    const health = (await (await fetch(`${s.baseUrl}/sandbox/health`)).json()) as Record<string, unknown>
    expect(health.retention).toEqual({
      retain: 2,
      retain_demo: 50,
      kept: 2,
      kept_demo: 0,
      forgotten: 3,
      forgotten_demo: 0,
      forgotten_undelivered_callbacks: 0,
    })
    const defaults = await serve({ port: 0, logger: silentLogger })
    running.push(defaults)
    expect(defaults.gateway.ctx.store.retention?.stats().retain).toBe(DEFAULT_RETAIN)
  })
})
