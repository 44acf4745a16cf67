import { SESSION_TABLE, type SessionStatus } from '../../core/sessions/session-lifecycle.js'
import type { Collections, Delivery, Payment, PaymentStatus, Session } from '../../core/engine/model.js'
import { TRANSITIONS, type Trigger } from '../../core/payments/state-machine.js'
import type { Logger } from '../../core/ports/logger.js'
import type { RetentionStats, Store, StoreOp, StoreRetention } from '../../core/ports/store.js'

/** `serve --retain N` / config `limits.retain`: payments and sessions a memory store keeps. */
export const DEFAULT_RETAIN = 10_000

/** The triggers that move a payment on its own: the payer, the provider or the clock (not the merchant). */
const PROGRESS_TRIGGERS: ReadonlySet<Trigger> = new Set<Trigger>([
  'PAY',
  'THREE_DS_RESULT',
  'REDIRECT_RESULT',
  'EXPIRE',
  'CHARGE',
])

/**
 * Statuses in which the payment state table can still move a payment on the payer's, the
 * provider's or the clock's behalf: prepare, 3ds, redirect, pending. Every other status is
 * "finished". (Retention forgets in creation order whatever the status; this names the set.)
 */
export const UNFINISHED_PAYMENT_STATUSES: ReadonlySet<PaymentStatus> = new Set(
  TRANSITIONS.filter((row) => PROGRESS_TRIGGERS.has(row.trigger) && typeof row.to === 'string').flatMap(
    (row) => row.from,
  ),
)

/** Session statuses the session table moves nowhere from: paid, cancelled, expired. */
export const FINAL_SESSION_STATUSES: ReadonlySet<SessionStatus> = new Set(
  SESSION_TABLE.map((row) => row.to).filter((status) => !SESSION_TABLE.some((row) => row.from === status)),
)

const UNDELIVERED: ReadonlySet<Delivery['state']> = new Set(['queued', 'delivering', 'retrying'])

export interface RetentionOptions {
  /** Units kept at most (a session with its payments, or a payment without a session). */
  retain: number
  /** Where forgotten undelivered callbacks are reported (the first, then every 1,000th). */
  logger?: Logger
}

/** A store that forgets, and the sweep a test can run by hand (the store runs it by itself). */
export interface RetainingStore extends Store<Collections> {
  readonly retention: StoreRetention & {
    /** Forgets the oldest units beyond `retain` now; returns how many went. */
    sweep(): number
  }
}

/**
 * Issue 22: a memory store that keeps at most `retain` units, oldest first out, at a cost per
 * write that does not depend on what the store holds. A unit is a session with its payments (a
 * checkout payment belongs to its session) or a payment without a session; it goes with its
 * transactions and callbacks, in one batch (a reader sees a payment with all its records or none).
 *
 * The order is kept as units are created: a put of a session or payment the store did not hold
 * appends its id to a queue (no record is read for it). Past `retain`, the oldest units are
 * forgotten whatever their state: open sessions (expired or not; a payer who comes back sees the
 * expired-session page), payments still in progress, payments whose callbacks are still queued or
 * retrying (those callbacks are counted in `stats()`, logged, and handed to `onForget` listeners:
 * the callback queue cancels their retries). One exception: a unit holding the initial payment of
 * a recurring series (later charges need it) goes back to the end of the queue, as long as such
 * units are at most half of `retain`; beyond that the oldest of them go in their turn.
 *
 * The sweep runs in a microtask after the write that took the store past `retain`, so the
 * operation that wrote never sees a record vanish mid-way; each write forgets about one unit
 * (each unit's records are found through the store's indexes). Time: O(1) amortised per write.
 * Memory: the queue holds one id per unit kept, and a fixed 1 MiB filter remembers the tokens of
 * forgotten sessions.
 */
export function withRetention(inner: Store<Collections>, options: RetentionOptions): RetainingStore {
  const { retain, logger } = options
  if (!Number.isInteger(retain) || retain < 0)
    throw new RangeError(`retention: retain must be a whole number >= 0, got ${retain}`)
  let queue = new KeyQueue()
  let pinned = new Set<string>()
  const listeners = new Set<(ids: string[]) => void>()
  const tokens = new BloomFilter(1 << 23)
  let forgotten = 0
  let undelivered = 0
  let scheduled = false

  const holds = (collection: 'sessions' | 'payments', id: string) =>
    (inner.getText ? inner.getText(collection, id) : inner.get(collection, id)) !== undefined

  /** The units a batch of puts creates (checked before it is applied), in order. */
  function newUnits(ops: readonly StoreOp[]): string[] {
    const keys: string[] = []
    const sessions = new Set<string>()
    for (const op of ops) {
      if (op.kind !== 'put') continue
      if (op.collection === 'sessions') {
        if (sessions.has(op.id) || holds('sessions', op.id)) continue
        sessions.add(op.id)
        keys.push(`s${op.id}`)
      } else if (op.collection === 'payments') {
        if (holds('payments', op.id)) continue
        const sessionId = (op.record as Partial<Payment> | undefined)?.session_id
        // A checkout payment is part of its session's unit (unless that session is gone).
        if (typeof sessionId === 'string' && (sessions.has(sessionId) || holds('sessions', sessionId)))
          continue
        const key = `p${op.id}`
        if (!keys.includes(key)) keys.push(key)
      }
    }
    return keys
  }

  /** Queues the units once the batch is applied (a refused batch left nothing to queue). */
  function noted(keys: string[]) {
    for (const key of keys) if (holds(key[0] === 's' ? 'sessions' : 'payments', key.slice(1))) queue.push(key)
    if (queue.size > retain && !scheduled) {
      scheduled = true
      queueMicrotask(sweep)
    }
  }

  /** The unit's records as delete ops, its undelivered callbacks and whether it is pinned. */
  function unitOf(key: string) {
    const id = key.slice(1)
    let session: Session | undefined
    let payments: Payment[]
    if (key[0] === 's') {
      session = inner.get('sessions', id)
      if (!session) return undefined
      payments = inner.findBy('payments', 'session_id', id)
    } else {
      const payment = inner.get('payments', id)
      if (!payment) return undefined
      payments = [payment]
    }
    const ops: StoreOp[] = []
    const pending: string[] = []
    for (const payment of payments) {
      for (const t of inner.findBy('transactions', 'payment_id', payment.id))
        ops.push(del('transactions', t.id))
      for (const d of inner.findBy('deliveries', 'payment_id', payment.id)) {
        ops.push(del('deliveries', d.id))
        if (UNDELIVERED.has(d.state)) pending.push(d.id)
      }
      ops.push(del('payments', payment.id))
    }
    if (session) ops.push(del('sessions', session.id))
    return { session, ops, pending, recurring: payments.some((p) => p.recurring?.init === true) }
  }

  function sweep(): number {
    scheduled = false
    let gone = 0
    // Every key is looked at most twice per sweep (a pinned one goes back once): it ends.
    for (let budget = 2 * queue.size; queue.size > retain && budget > 0; budget--) {
      const key = queue.shift() as string
      const unit = unitOf(key)
      if (!unit) {
        pinned.delete(key) // deleted by other means: nothing to forget
        continue
      }
      if (unit.recurring) {
        pinned.add(key)
        // Past half of `retain`, the oldest initial payment (first in the set) goes in its turn.
        if (pinned.size <= retain / 2 || pinned.values().next().value !== key) {
          queue.push(key)
          continue
        }
      }
      pinned.delete(key)
      // One batch: the payment, its transactions, its callbacks and its session go together.
      inner.commit(unit.ops).catch(() => {})
      if (unit.session) {
        tokens.add(unit.session.token)
        if (unit.session.page_token) tokens.add(unit.session.page_token)
      }
      forgotten++
      gone++
      if (unit.pending.length) {
        const before = undelivered
        undelivered += unit.pending.length
        if (before === 0 || Math.floor(before / 1000) !== Math.floor(undelivered / 1000))
          logger?.warn('retention: forgot payments whose callbacks were not delivered', {
            retain,
            forgotten_undelivered_callbacks: undelivered,
          })
        for (const listener of listeners) listener(unit.pending)
      }
    }
    return gone
  }

  const stats = (): RetentionStats => ({
    retain,
    kept: queue.size,
    forgotten,
    forgotten_undelivered_callbacks: undelivered,
  })

  const store: RetainingStore = {
    get: (collection, id) => inner.get(collection, id),
    put(collection, record) {
      const keys =
        collection === 'sessions' || collection === 'payments'
          ? newUnits([{ collection, kind: 'put', id: record.id, record }])
          : []
      inner.put(collection, record)
      if (keys.length) noted(keys)
    },
    delete: (collection, id) => inner.delete(collection, id),
    list: (collection) => inner.list(collection),
    findBy: (collection, field, value) => inner.findBy(collection, field, value),
    count: (collection) => inner.count(collection),
    clear() {
      inner.clear()
      queue = new KeyQueue()
      pinned = new Set()
    },
    commit(ops) {
      const keys = newUnits(ops)
      const done = inner.commit(ops)
      if (keys.length) noted(keys)
      return done
    },
    get writable() {
      return inner.writable
    },
    flush: () => inner.flush(),
    close: () => inner.close(),
    retention: {
      stats,
      onForget(listener) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      forgotSession: (token) => tokens.has(token),
      sweep,
    },
  }
  if (inner.query) store.query = (collection, query) => inner.query?.(collection, query)
  if (inner.getText) store.getText = (collection, id) => inner.getText?.(collection, id)
  // A store handed over with records already in it: its units queue in insertion order.
  const existing = newUnitsOfExisting(inner)
  for (const key of existing) queue.push(key)
  if (queue.size > retain) sweep()
  return store
}

/** The units of records a store already holds (once, at start-up), oldest first. */
function newUnitsOfExisting(inner: Store<Collections>): string[] {
  if (inner.count('sessions') === 0 && inner.count('payments') === 0) return []
  const units: { at: number; key: string }[] = []
  for (const s of inner.list('sessions')) units.push({ at: s.created_at, key: `s${s.id}` })
  for (const p of inner.list('payments'))
    if (!p.session_id || inner.get('sessions', p.session_id) === undefined)
      units.push({ at: p.created_at, key: `p${p.id}` })
  return units.sort((a, b) => a.at - b.at).map((u) => u.key)
}

const del = (collection: keyof Collections, id: string): StoreOp => ({ collection, kind: 'delete', id })

/** A FIFO of keys that does not copy on every shift. */
class KeyQueue {
  private items: string[] = []
  private head = 0
  get size(): number {
    return this.items.length - this.head
  }
  push(key: string) {
    this.items.push(key)
  }
  shift(): string | undefined {
    if (this.head >= this.items.length) return undefined
    const key = this.items[this.head++]
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
    return key
  }
}

/** A Bloom filter of `bits` bits, 4 probes (FNV-1a, double hashing): no false negatives. */
class BloomFilter {
  private readonly bytes: Uint8Array
  private readonly mask: number
  constructor(bits: number) {
    this.bytes = new Uint8Array(bits >>> 3)
    this.mask = bits - 1
  }
  private probes(value: string): number[] {
    let h1 = 0x811c9dc5
    let h2 = 0x01000193
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i)
      h1 = Math.imul(h1 ^ c, 0x01000193)
      h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15)
    }
    h2 |= 1
    return [0, 1, 2, 3].map((k) => (h1 + Math.imul(k, h2)) & this.mask)
  }
  add(value: string) {
    for (const bit of this.probes(value))
      this.bytes[bit >>> 3] = (this.bytes[bit >>> 3] as number) | (1 << (bit & 7))
  }
  has(value: string): boolean {
    return this.probes(value).every((bit) => ((this.bytes[bit >>> 3] as number) & (1 << (bit & 7))) !== 0)
  }
}
