import type { Identified, Store, StoreIndexes, StoreOp } from '../../core/ports/store.js'
import { createRecordTable, type RecordTable, type Saved } from './record-table.js'

/** A change as a persistent store sees it, after the in-memory image has taken it. */
export type AppliedOp =
  | { op: 'put'; collection: string; id: string; text: string }
  | { op: 'delete'; collection: string; id: string }
  | { op: 'clear' }

/** One batch, applied in memory: `undo` puts the image back as it was before it. */
export interface AppliedBatch {
  ops: AppliedOp[]
  undo(): void
}

/**
 * Where a persistent store sends each batch (all of `commit`, or one put, delete or clear). The
 * promise resolves once the batch is durable; if persisting fails the sink rolls back (calls
 * `undo` of) every batch it holds that is not durable yet, newest first, and rejects them all.
 */
export interface BatchSink {
  persist(batch: AppliedBatch): Promise<void>
  readonly writable: boolean
}

export interface TableStoreParts {
  flush(): Promise<void>
  /** Runs once, after the store stops taking changes. */
  close(): Promise<void>
}

/**
 * A `Store<C>` over the shared in-memory image: reads are synchronous, each change is a batch
 * applied at once (an op that throws undoes the ops before it) and then handed to `sink`.
 * After close() every change throws (a write that could never become durable is a bug to surface).
 */
export function createTableStore<C extends { [K in keyof C]: Identified }>(
  indexes: StoreIndexes<C>,
  sink: BatchSink | undefined,
  parts: TableStoreParts,
  name: string,
): { store: Store<C>; table: RecordTable } {
  const table = createRecordTable(indexes as Record<string, string[] | undefined>)
  let closing: Promise<void> | undefined
  const open = () => {
    if (closing) throw new Error(`${name}: the store is closed`)
  }

  /** Applies the ops in memory, all or none (throws what the failing op threw). */
  function apply(ops: readonly StoreOp[]): AppliedBatch {
    open()
    const saved: Saved[] = []
    const applied: AppliedOp[] = []
    const undo = () => {
      for (let i = saved.length - 1; i >= 0; i--) table.restore(saved[i] as Saved)
    }
    try {
      for (const op of ops) {
        const collection = String(op.collection)
        if (op.kind === 'put') {
          const id = (op.record as { id?: unknown } | null)?.id
          if (typeof id === 'string' && id !== op.id)
            throw new TypeError(
              `store: commit put of ${collection} "${op.id}" holds a record whose id differs`,
            )
          const before = table.save(collection, op.id)
          const { text } = table.put(collection, op.record)
          saved.push(before)
          applied.push({ op: 'put', collection, id: op.id, text })
        } else if (op.kind === 'delete') {
          const before = table.save(collection, op.id)
          if (table.delete(collection, op.id)) {
            saved.push(before)
            applied.push({ op: 'delete', collection, id: op.id })
          }
        } else throw new TypeError(`store: unknown commit op kind "${String((op as StoreOp).kind)}"`)
      }
    } catch (error) {
      undo()
      throw error
    }
    return { ops: applied, undo }
  }

  /** Hands an applied batch to the sink; resolves at once without one (memory). */
  function persist(batch: AppliedBatch): Promise<void> {
    if (!sink || batch.ops.length === 0) return Promise.resolve()
    return sink.persist(batch)
  }

  /**
   * put/delete/clear: nobody awaits them, so a failure to persist is reported through `writable`
   * and `flush()` (the batch was rolled back all the same); the rejection is handled here.
   */
  function background(batch: AppliedBatch) {
    if (sink) persist(batch).catch(() => {})
  }

  const store: Store<C> = {
    get: (collection, id) => table.get(String(collection), id) as C[typeof collection] | undefined,
    put(collection, record) {
      background(
        apply([{ collection: String(collection), kind: 'put', id: idOf(collection, record), record }]),
      )
    },
    delete(collection, id) {
      background(apply([{ collection: String(collection), kind: 'delete', id }]))
    },
    list: (collection) => table.list(String(collection)) as C[typeof collection][],
    findBy: (collection, field, value) =>
      table.findBy(String(collection), field, value) as C[typeof collection][],
    count: (collection) => table.count(String(collection)),
    query: (collection, query) => table.query(String(collection), query),
    getText: (collection, id) => table.getText(String(collection), id),
    clear() {
      open()
      const saved = table.clear()
      background({ ops: [{ op: 'clear' }], undo: () => table.restore(saved) })
    },
    commit(ops) {
      let batch: AppliedBatch
      try {
        batch = apply(ops)
      } catch (error) {
        return Promise.reject(error)
      }
      return persist(batch)
    },
    get writable() {
      return sink?.writable ?? true
    },
    flush: () => parts.flush(),
    close() {
      closing ??= parts.close()
      return closing
    },
  }
  return { store, table }
}

/** The id a put is filed under; a record without one is refused by the table with its own message. */
function idOf(collection: PropertyKey, record: unknown): string {
  const id = (record as { id?: unknown } | null)?.id
  return typeof id === 'string' ? id : `(no id in ${String(collection)})`
}
