import type { Identified, Store, StoreIndexes } from '../../core/ports/store.js'
import { createTableStore } from './table-store.js'

/**
 * The store for tests, scenarios and in-process sandboxes: nothing leaves memory. Records are kept
 * as JSON copies (see record-table.ts), so it answers exactly what the lowdb store would.
 */
export function createMemoryStore<C extends { [K in keyof C]: Identified }>(
  indexes: StoreIndexes<C> = {},
): Store<C> {
  return createTableStore<C>(
    indexes,
    undefined,
    { flush: async () => {}, close: async () => {} },
    'memory store',
  ).store
}
