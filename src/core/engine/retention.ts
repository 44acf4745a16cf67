import type { Logger } from '../ports/logger.js'
import type { RetentionStats, Store, StoreOp, StoreRetention } from '../ports/store.js'
import type { Collections, Delivery, Payment, Session } from './model.js'
import { BloomFilter, KeyQueue } from './retention-structures.js'

/** `serve --retain N` / config `limits.retain` in memory mode: units each merchant keeps. */
export const DEFAULT_RETAIN = 10_000
/** Config `limits.retain_demo`: units of the demo page (POST /hpf/demo) kept (docs/rules.md#retention). */
export const DEFAULT_RETAIN_DEMO = 50
/** The built-in demo merchant, whose key POST /hpf/demo uses. */
export const DEMO_MERCHANT = 'demo-merchant'
/** The order number of every session POST /hpf/demo creates starts with it. */
export const DEMO_ORDER_PREFIX = 'hpf-demo-'

const UNDELIVERED: ReadonlySet<Delivery['state']> = new Set(['queued', 'delivering', 'retrying'])
/** The lane of the demo page's units (no merchant key can hold a NUL). */
const DEMO_LANE = '\u0000demo'

export interface RetentionOptions {
  /** Units each merchant keeps at most (a session with its payments, or a payment without a session). Default: no bound. */
  retain?: number | undefined
  /** Units of the demo page kept at most, in a lane of their own. Default: DEFAULT_RETAIN_DEMO. */
  retainDemo?: number | undefined
  /** Where forgotten undelivered callbacks are reported (the first, then every 1,000th). */
  logger?: Logger | undefined
}

/** A store that forgets, and the sweep a test can run by hand (writes sweep by themselves). */
export interface RetainingStore extends Store<Collections> {
  readonly retention: StoreRetention & {
    /** Forgets, in every lane, the oldest units beyond its bound now; returns how many went. */
    sweep(): number
  }
}

/** One merchant's units (or the demo page's), oldest first, and its recurring units held back. */
interface Lane {
  queue: KeyQueue
  pinned: Set<string>
  demo: boolean
}

interface Forgetting {
  key: string
  lane: Lane
  session?: Session | undefined
  ops: StoreOp[]
  pending: string[]
}

/**
 * docs/rules.md#retention: the engine's bound on what the store keeps, per merchant. A unit is a
 * session with its payments (a checkout payment belongs to its session) or a payment without a
 * session; it goes with its transactions and callbacks. Each merchant has its own queue of units
 * in creation order and keeps up to `retain` of them; the sessions the demo page creates
 * (merchant `demo-merchant`, order number `hpf-demo-…`) have a lane of their own bounded by
 * `retainDemo`. So no merchant's traffic, and no demo page, ever forgets another's data.
 *
 * The gateway wraps its store with it (gateway.ts), below the unit of work: the batch of a unit
 * that creates a unit past its lane's bound also deletes that lane's oldest unit, in the same
 * commit (all or nothing, memory or data file). A unit the batch itself touches is not forgotten
 * by it (the next batch does). A unit holding the initial payment of a recurring series goes back
 * to the end of its queue while such units are at most half of the bound. Undelivered callbacks
 * forgotten are counted, logged and handed to `onForget` listeners (the callback queue cancels
 * their retries). Cost per batch: O(ops) plus the forgotten unit's records found through the
 * store's indexes; nothing reads a whole collection after start-up.
 */
export function withRetention(inner: Store<Collections>, options: RetentionOptions = {}): RetainingStore {
  const retain = checked('retain', options.retain)
  const retainDemo = checked('retain_demo', options.retainDemo) ?? DEFAULT_RETAIN_DEMO
  const { logger } = options
  let lanes = new Map<string, Lane>()
  const listeners = new Set<(ids: string[]) => void>()
  // 1 MiB, made when the first session is forgotten.
  let tokens: BloomFilter | undefined
  let forgotten = 0
  let forgottenDemo = 0
  let undelivered = 0

  const bound = (lane: Lane) => (lane.demo ? retainDemo : (retain ?? Number.POSITIVE_INFINITY))
  const holds = (collection: 'sessions' | 'payments', id: string) =>
    (inner.getText ? inner.getText(collection, id) : inner.get(collection, id)) !== undefined
  const held = (key: string) => holds(key[0] === 's' ? 'sessions' : 'payments', key.slice(1))
  const laneNamed = (name: string): Lane => {
    let lane = lanes.get(name)
    if (!lane) {
      lane = { queue: new KeyQueue(), pinned: new Set(), demo: name === DEMO_LANE }
      lanes.set(name, lane)
    }
    return lane
  }
  const laneOf = (record: Partial<Session> | Partial<Payment> | undefined, session?: boolean): Lane =>
    laneNamed(
      session && isDemoSession(record as Partial<Session>) ? DEMO_LANE : String(record?.merchant_key ?? ''),
    )

  /** The units a batch of puts creates (checked before it is applied), in order, with their lanes. */
  function newUnits(ops: readonly StoreOp[]): { key: string; lane: Lane }[] {
    const units: { key: string; lane: Lane }[] = []
    const sessions = new Set<string>()
    for (const op of ops) {
      if (op.kind !== 'put') continue
      if (op.collection === 'sessions') {
        if (sessions.has(op.id) || holds('sessions', op.id)) continue
        sessions.add(op.id)
        units.push({ key: `s${op.id}`, lane: laneOf(op.record as Partial<Session>, true) })
      } else if (op.collection === 'payments') {
        if (holds('payments', op.id)) continue
        const record = op.record as Partial<Payment> | undefined
        const sessionId = record?.session_id
        // A checkout payment is part of its session's unit (unless that session is gone).
        if (typeof sessionId === 'string' && (sessions.has(sessionId) || holds('sessions', sessionId)))
          continue
        const key = `p${op.id}`
        if (!units.some((u) => u.key === key)) units.push({ key, lane: laneOf(record) })
      }
    }
    return units
  }

  /** The unit's records as delete ops and its undelivered callbacks; undefined when it is gone. */
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
    return {
      session,
      ids: [id, ...payments.map((p) => p.id)],
      ops,
      pending,
      recurring: payments.some((p) => p.recurring?.init === true),
    }
  }

  /**
   * The oldest units of `lane` to forget so that `coming` more fit in its bound, taken off its
   * queue; none the batch touches (`touched`: the ids it writes).
   */
  function choose(lane: Lane, coming: number, touched: ReadonlySet<string>, out: Forgetting[]) {
    const limit = bound(lane)
    // Every key is looked at most twice (a pinned one goes back once): it ends.
    for (let budget = 2 * lane.queue.size; lane.queue.size + coming > limit && budget > 0; budget--) {
      const key = lane.queue.shift() as string
      const unit = unitOf(key)
      if (!unit) {
        lane.pinned.delete(key) // deleted by other means: nothing to forget
        continue
      }
      if (unit.ids.some((id) => touched.has(id))) {
        lane.queue.unshift(key) // the batch changes it: the next batch forgets it
        return
      }
      if (unit.recurring) {
        lane.pinned.add(key)
        // Past half of the bound, the oldest initial payment (first in the set) goes in its turn.
        if (lane.pinned.size <= limit / 2 || lane.pinned.values().next().value !== key) {
          lane.queue.push(key)
          continue
        }
      }
      lane.pinned.delete(key)
      out.push({ key, lane, session: unit.session, ops: unit.ops, pending: unit.pending })
    }
  }

  /**
   * After the batch: a unit still held was not forgotten (the batch was refused): back in line.
   * Returns the units forgotten.
   */
  function settle(gone: Forgetting[]): Forgetting[] {
    const out: Forgetting[] = []
    for (let i = gone.length - 1; i >= 0; i--) {
      const unit = gone[i] as Forgetting
      if (held(unit.key)) {
        unit.lane.queue.unshift(unit.key)
        continue
      }
      out.push(unit)
      if (unit.session) {
        tokens ??= new BloomFilter(1 << 23)
        tokens.add(unit.session.token)
        if (unit.session.page_token) tokens.add(unit.session.page_token)
      }
      if (unit.lane.demo) forgottenDemo++
      else forgotten++
      if (unit.pending.length) {
        const before = undelivered
        undelivered += unit.pending.length
        if (before === 0 || Math.floor(before / 1000) !== Math.floor(undelivered / 1000))
          logger?.warn('retention: forgot payments whose callbacks were not delivered', {
            ...(retain !== undefined ? { retain } : {}),
            forgotten_undelivered_callbacks: undelivered,
          })
        for (const listener of listeners) listener(unit.pending)
      }
    }
    return out
  }

  /** A data file that could not persist a batch rolled it back: the units it restored are kept again. */
  function restore(units: Forgetting[]) {
    for (let i = units.length - 1; i >= 0; i--) {
      const unit = units[i] as Forgetting
      if (!held(unit.key)) continue
      unit.lane.queue.unshift(unit.key)
      if (unit.lane.demo) forgottenDemo--
      else forgotten--
    }
  }

  /** Applies `ops` (a batch, or one put as `single`) with the forgetting its new units call for. */
  function write(ops: readonly StoreOp[], single?: () => void): Promise<void> {
    const units = newUnits(ops)
    const gone: Forgetting[] = []
    if (units.length) {
      const touched = new Set<string>()
      for (const op of ops) {
        touched.add(op.id)
        const paymentId = (op.record as { payment_id?: unknown } | undefined)?.payment_id
        if (typeof paymentId === 'string') touched.add(paymentId)
      }
      const coming = new Map<Lane, number>()
      for (const { lane } of units) coming.set(lane, (coming.get(lane) ?? 0) + 1)
      for (const [lane, n] of coming) if (lane.queue.size + n > bound(lane)) choose(lane, n, touched, gone)
    }
    let done: Promise<void>
    if (single && gone.length === 0) {
      single()
      done = DONE
    } else {
      const batch = gone.length ? [...ops, ...gone.flatMap((u) => u.ops)] : (ops as StoreOp[])
      done = inner.commit(batch)
    }
    for (const { key, lane } of units) if (held(key)) lane.queue.push(key)
    const forgot = settle(gone)
    // A data file that could not persist the batch rolled it back: what it restored goes back in line.
    if (forgot.length) done.catch(() => restore(forgot))
    return done
  }

  function sweep(): number {
    let gone = 0
    for (const lane of lanes.values()) {
      if (lane.queue.size <= bound(lane)) continue
      const chosen: Forgetting[] = []
      choose(lane, 0, NOTHING, chosen)
      for (const unit of chosen) {
        inner.commit(unit.ops).catch(() => {})
        settle([unit])
        gone++
      }
    }
    return gone
  }

  const stats = (): RetentionStats => {
    let kept = 0
    let keptDemo = 0
    for (const lane of lanes.values()) {
      if (lane.demo) keptDemo += lane.queue.size
      else kept += lane.queue.size
    }
    return {
      ...(retain !== undefined ? { retain } : {}),
      retain_demo: retainDemo,
      kept,
      kept_demo: keptDemo,
      forgotten,
      forgotten_demo: forgottenDemo,
      forgotten_undelivered_callbacks: undelivered,
    }
  }

  const store: RetainingStore = {
    get: (collection, id) => inner.get(collection, id),
    put(collection, record) {
      if (collection !== 'sessions' && collection !== 'payments') return inner.put(collection, record)
      write([{ collection, kind: 'put', id: record.id, record }], () => inner.put(collection, record)).catch(
        () => {},
      )
    },
    delete: (collection, id) => inner.delete(collection, id),
    list: (collection) => inner.list(collection),
    findBy: (collection, field, value) => inner.findBy(collection, field, value),
    count: (collection) => inner.count(collection),
    clear() {
      inner.clear()
      lanes = new Map()
    },
    commit: (ops) => write(ops),
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
      forgotSession: (token) => tokens?.has(token) === true,
      sweep,
    },
  }
  // The inner store's optional reads, as it has them now (a test may take one away to try the fallback).
  Object.defineProperties(store, {
    query: { get: () => inner.query?.bind(inner), enumerable: true },
    getText: { get: () => inner.getText?.bind(inner), enumerable: true },
  })
  // A store handed over with records already in it (a data file): its units queue in creation order, once.
  for (const { key, lane } of unitsOfExisting(inner)) laneNamed(lane).queue.push(key)
  sweep()
  return store
}

/** A session POST /hpf/demo created: the demo merchant's, with the demo page's order number. */
export function isDemoSession(session: Partial<Session> | undefined): boolean {
  if (session?.merchant_key !== DEMO_MERCHANT) return false
  const order = session.request?.order as { number?: unknown } | undefined
  return typeof order?.number === 'string' && order.number.startsWith(DEMO_ORDER_PREFIX)
}

function checked(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`retention: ${name} must be a whole number >= 0, got ${value}`)
  return value
}

/** The units of records a store already holds (once, at start-up), oldest first, with their lanes. */
function unitsOfExisting(inner: Store<Collections>): { key: string; lane: string }[] {
  if (inner.count('sessions') === 0 && inner.count('payments') === 0) return []
  const units: { at: number; key: string; lane: string }[] = []
  for (const s of inner.list('sessions'))
    units.push({ at: s.created_at, key: `s${s.id}`, lane: isDemoSession(s) ? DEMO_LANE : s.merchant_key })
  for (const p of inner.list('payments'))
    if (!p.session_id || inner.get('sessions', p.session_id) === undefined)
      units.push({ at: p.created_at, key: `p${p.id}`, lane: p.merchant_key })
  return units.sort((a, b) => a.at - b.at)
}

const del = (collection: keyof Collections, id: string): StoreOp => ({ collection, kind: 'delete', id })
const DONE = Promise.resolve()
const NOTHING: ReadonlySet<string> = new Set()
