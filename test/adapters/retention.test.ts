import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../src/adapters/index.js'
import { type RunningSandbox, serve } from '../../src/adapters/serve.js'
import {
  createRetention,
  DEFAULT_RETAIN,
  FINAL_SESSION_STATUSES,
  UNFINISHED_PAYMENT_STATUSES,
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

/**
 * Issue 11, point 5: "Memory mode keeps at most a configurable number of finished sessions and
 * payments (`--retain N`, documented default), oldest first." Finished is read from the payment
 * state table (src/core/payments/state-machine.ts) and the session table.
 */
let n = 0
const NOW = 1_800_000_000_000

function addPayment(
  store: ReturnType<typeof createMemoryStore<Collections>>,
  status: PaymentStatus,
  extra: Partial<Payment> & { delivery?: Delivery['state']; session?: Session['status'] } = {},
): string {
  const id = `pay-${++n}`
  const { delivery, session, ...fields } = extra
  const sessionId = session ? `ses-${n}` : undefined
  if (sessionId)
    store.put('sessions', {
      id: sessionId,
      token: `tok-${n}`,
      merchant_key: 'm',
      status: session,
      created_at: n,
      expires_at: NOW + 3_600_000,
      payment_id: id,
    } as unknown as Session)
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

describe('retention: what "finished" means', () => {
  it('reads unfinished payment statuses and final session statuses from the state tables', () => {
    // The rows PAY, THREE_DS_RESULT, REDIRECT_RESULT, EXPIRE and CHARGE start in these statuses.
    expect([...UNFINISHED_PAYMENT_STATUSES].sort()).toEqual(['3ds', 'pending', 'prepare', 'redirect'])
    expect([...FINAL_SESSION_STATUSES].sort()).toEqual(['cancelled', 'expired', 'paid'])
    expect(DEFAULT_RETAIN).toBe(10_000)
  })
})

describe('retention: the sweep', () => {
  it('forgets the oldest finished payments beyond N with their transactions, callbacks and session', () => {
    const store = createMemoryStore<Collections>(STORE_INDEXES)
    const oldPending = addPayment(store, 'pending')
    const old3ds = addPayment(store, '3ds', { session: 'open' })
    const recurringInit = addPayment(store, 'settled', { recurring: { init: true } })
    const stillDelivering = addPayment(store, 'settled', { delivery: 'retrying' })
    const finished = (['settled', 'decline', 'refund', 'void', 'chargeback'] as const).map((s) =>
      addPayment(store, s, { session: 'paid' }),
    )
    store.put('sessions', {
      id: 'ses-cancelled',
      status: 'cancelled',
      created_at: 0,
      expires_at: NOW,
    } as never)
    store.put('sessions', { id: 'ses-open', status: 'open', created_at: 0, expires_at: NOW + 1 } as never)
    store.put('sessions', { id: 'ses-lapsed', status: 'open', created_at: 0.5, expires_at: NOW - 1 } as never)

    const retention = createRetention(store, { retain: 3, now: () => NOW })
    // 7 finished units: 5 payments, a cancelled session and an open one past its expiry (not the open one).
    expect(retention.sweep()).toBe(4)
    const gone = [finished[0], finished[1]]
    for (const id of gone) {
      expect(store.get('payments', id as string)).toBeUndefined()
      expect(store.findBy('transactions', 'payment_id', id as string)).toEqual([])
      expect(store.findBy('deliveries', 'payment_id', id as string)).toEqual([])
    }
    expect(store.get('sessions', 'ses-cancelled')).toBeUndefined()
    expect(store.get('sessions', 'ses-lapsed')).toBeUndefined()
    expect(store.count('sessions')).toBe(1 + 1 + 3) // old3ds's, ses-open, the 3 kept finished
    for (const id of [oldPending, old3ds, recurringInit, stillDelivering, ...finished.slice(2)])
      expect(store.get('payments', id as string)?.id).toBe(id)
    expect(store.get('sessions', 'ses-open')).toBeDefined()
    // At most N finished now: a second sweep has nothing to do.
    expect(retention.sweep()).toBe(0)
  })

  it('a declined payment whose open session may still be paid with another card is kept', () => {
    const store = createMemoryStore<Collections>(STORE_INDEXES)
    const retry = addPayment(store, 'decline', { session: 'open' })
    addPayment(store, 'settled')
    addPayment(store, 'settled')
    createRetention(store, { retain: 1, now: () => NOW }).sweep()
    expect(store.get('payments', retry)).toBeDefined()
    expect(store.count('payments')).toBe(2)
  })

  it('maybeSweep leaves a store alone while payments and sessions number N or fewer', () => {
    const store = createMemoryStore<Collections>(STORE_INDEXES)
    for (let i = 0; i < 3; i++) addPayment(store, 'settled')
    const retention = createRetention(store, { retain: 3, now: () => NOW })
    retention.maybeSweep()
    expect(store.count('payments')).toBe(3)
    addPayment(store, 'settled')
    retention.maybeSweep()
    expect(store.count('payments')).toBe(3)
  })
})

describe('serve --retain', () => {
  const running: RunningSandbox[] = []
  afterEach(async () => {
    for (const s of running.splice(0)) await s.close()
  })

  it('memory mode sweeps between requests, keeping N; the config default is DEFAULT_RETAIN', async () => {
    const s = await serve({ port: 0, logger: silentLogger, retain: 2 })
    running.push(s)
    const { store } = s.gateway.ctx
    const ids = Array.from({ length: 5 }, () => addPayment(store, 'settled'))
    expect((await fetch(`${s.baseUrl}/sandbox/health`)).status).toBe(200)
    expect(store.list('payments').map((p) => p.id)).toEqual(ids.slice(3))
    const defaults = await serve({ port: 0, logger: silentLogger })
    running.push(defaults)
    expect(defaults.loaded.config.limits?.retain).toBe(DEFAULT_RETAIN)
  })
})
