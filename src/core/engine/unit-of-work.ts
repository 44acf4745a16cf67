import type { Identified, Store, StoreOp } from '../ports/store.js'
import type { EngineEvent, EventBus } from './events.js'

/**
 * One commit per operation (docs/architecture.md). While a unit is open, every write goes to an
 * overlay (reads see it), and every event is held back. When the operation returns, the held
 * events are handed to the listeners still inside the unit (so the callbacks they create land in
 * the same batch), then the batch goes to the store's `commit` in one piece. When the operation
 * throws, the overlay and the events are dropped: a refused or failed request changes nothing.
 *
 * Units are synchronous: the gateway runs an operation's checks and writes with no `await`
 * between, so no other request can run inside a unit, and one unit at a time is exact.
 */
export interface Units<C extends { [K in keyof C]: Identified }> {
  /** The store every operation sees: the overlay while a unit is open, the base store otherwise. */
  readonly store: Store<C>
  /** The event bus every operation sees: holds events back while a unit is open. */
  readonly events: EventBus
  /**
   * Runs `fn` as one unit. Returns its value and a promise that resolves once the batch is
   * durable (rejects with the store's StoreUnavailableError when it cannot be, after the store
   * has rolled it back). A unit opened inside another joins it (its `ops` are the outer unit's).
   * `ops` are the batch's changes, which the request log reads to tell what a request concerned.
   */
  run<T>(fn: () => T): { value: T; durable: Promise<void>; ops: readonly StoreOp[] }
  /** Whether a unit is open now (an operation is running). */
  readonly active: boolean
}

type Overlay = Map<string, Map<string, unknown | null>>

interface Unit {
  overlay: Overlay
  ops: StoreOp[]
  events: EngineEvent[]
}

const DONE = Promise.resolve()
const NO_OPS: readonly StoreOp[] = Object.freeze([])

export function createUnits<C extends { [K in keyof C]: Identified }>(
  base: Store<C>,
  bus: EventBus,
): Units<C> {
  let unit: Unit | undefined

  const touched = (collection: PropertyKey) => unit?.overlay.get(String(collection))

  function write(collection: PropertyKey, id: string, record: unknown | null) {
    if (!unit) return false
    const name = String(collection)
    let table = unit.overlay.get(name)
    if (!table) {
      table = new Map()
      unit.overlay.set(name, table)
    }
    // A record kept as its JSON copy, as the store keeps it: later changes to the object do not leak in.
    const copy = record === null ? null : JSON.parse(JSON.stringify(record))
    table.set(id, copy)
    unit.ops.push(
      copy === null
        ? { collection: name, kind: 'delete', id }
        : { collection: name, kind: 'put', id, record: copy },
    )
    return true
  }

  const fresh = <T>(value: T): T =>
    value === null || value === undefined ? value : JSON.parse(JSON.stringify(value))

  const overrides: Partial<Store<C>> = {
    get(collection, id) {
      const table = touched(collection)
      if (table?.has(id)) return fresh(table.get(id) ?? undefined) as never
      return base.get(collection, id)
    },
    put(collection, record) {
      if (!write(collection, record.id, record)) base.put(collection, record)
    },
    delete(collection, id) {
      if (!write(collection, id, null)) base.delete(collection, id)
    },
    list(collection) {
      const table = touched(collection)
      const records = base.list(collection)
      if (!table) return records
      const seen = new Set<string>()
      const out = []
      for (const r of records) {
        seen.add(r.id)
        if (!table.has(r.id)) out.push(r)
        else if (table.get(r.id)) out.push(fresh(table.get(r.id)) as typeof r)
      }
      for (const [id, r] of table) if (r && !seen.has(id)) out.push(fresh(r) as (typeof records)[number])
      return out
    },
    findBy(collection, field, value) {
      const table = touched(collection)
      const records = base.findBy(collection, field, value)
      if (!table) return records
      const seen = new Set<string>()
      const out = []
      const matches = (r: unknown) => (r as Record<string, unknown> | null)?.[field] === value
      for (const r of records) {
        seen.add(r.id)
        if (!table.has(r.id)) out.push(r)
        else if (matches(table.get(r.id))) out.push(fresh(table.get(r.id)) as typeof r)
      }
      // Written in this unit and matching now: a new record, or a stored one whose indexed field
      // changed to `value` (the base index still files it under its old value).
      for (const [id, r] of table)
        if (!seen.has(id) && matches(r)) out.push(fresh(r) as (typeof records)[number])
      return out
    },
    count(collection) {
      const table = touched(collection)
      let n = base.count(collection)
      if (!table) return n
      for (const [id, r] of table) {
        const existed = base.get(collection, id) !== undefined
        if (r && !existed) n++
        else if (!r && existed) n--
      }
      return n
    },
    clear() {
      if (unit) {
        unit.overlay.clear()
        unit.ops = []
      }
      base.clear()
    },
  }

  // Methods the store adds later (listing queries) read the base store: they serve the control API, outside units.
  const store = new Proxy(base, {
    get(target, property, receiver) {
      const own = overrides[property as keyof Store<C>]
      if (own) return own
      const value = Reflect.get(target, property, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  }) as Store<C>

  const events: EventBus = {
    emit(event) {
      if (unit) unit.events.push(event)
      else bus.emit(event)
    },
    subscribe: (listener, options) => bus.subscribe(listener, options),
  }

  const commit = (ops: StoreOp[]): Promise<void> => (ops.length ? base.commit(ops) : DONE)

  return {
    store,
    events,
    get active() {
      return unit !== undefined
    },
    run(fn) {
      if (unit) return { value: fn(), durable: DONE, ops: NO_OPS }
      const own: Unit = { overlay: new Map(), ops: [], events: [] }
      unit = own
      let value: ReturnType<typeof fn>
      try {
        value = fn()
        // Listeners run inside the unit: what they write (a callback's delivery) commits with the operation.
        for (let i = 0; i < own.events.length; i++) bus.emit(own.events[i] as EngineEvent)
      } catch (error) {
        unit = undefined
        throw error
      }
      unit = undefined
      return { value, durable: commit(own.ops), ops: own.ops }
    },
  }
}
