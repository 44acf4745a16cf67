import type { Identified, Store, StoreIndexes } from '../../core/ports/store.js'
import { createRecordTable } from './record-table.js'

/** What a persistent store is told about each change, after the in-memory image has taken it. */
export interface ChangeSink {
  put(collection: string, id: string, text: string): void
  delete(collection: string, id: string): void
  clear(): void
}

export interface TableStoreParts {
  flush(): Promise<void>
  /** Runs once, after the store stops taking changes. */
  close(): Promise<void>
}

/**
 * A `Store<C>` over the shared in-memory image: reads are synchronous, changes go to `sink`.
 * After close() every change throws (a write that could never become durable is a bug to surface).
 */
export function createTableStore<C extends { [K in keyof C]: Identified }>(
  indexes: StoreIndexes<C>,
  sink: ChangeSink | undefined,
  parts: TableStoreParts,
  name: string,
): { store: Store<C>; table: ReturnType<typeof createRecordTable> } {
  const table = createRecordTable(indexes as Record<string, string[] | undefined>)
  let closing: Promise<void> | undefined
  const open = () => {
    if (closing) throw new Error(`${name}: the store is closed`)
  }
  const store: Store<C> = {
    get: (collection, id) => table.get(String(collection), id) as C[typeof collection] | undefined,
    put(collection, record) {
      open()
      const { id, text } = table.put(String(collection), record)
      sink?.put(String(collection), id, text)
    },
    delete(collection, id) {
      open()
      if (table.delete(String(collection), id)) sink?.delete(String(collection), id)
    },
    list: (collection) => table.list(String(collection)) as C[typeof collection][],
    findBy: (collection, field, value) =>
      table.findBy(String(collection), field, value) as C[typeof collection][],
    count: (collection) => table.count(String(collection)),
    clear() {
      open()
      table.clear()
      sink?.clear()
    },
    flush: () => parts.flush(),
    close() {
      closing ??= parts.close()
      return closing
    },
  }
  return { store, table }
}
