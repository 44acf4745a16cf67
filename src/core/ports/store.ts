/**
 * The store port. Reads and writes are synchronous on an in-memory image, so an operation that
 * checks and then writes (a refund against what was captured) cannot interleave with another;
 * persistence happens behind `flush()`, coalesced (lowdb implementation) or not at all (memory).
 */
export interface Identified {
  id: string
}

export interface Store<C extends { [K in keyof C]: Identified }> {
  get<K extends keyof C>(collection: K, id: string): C[K] | undefined
  /** Inserts or replaces by id. The record is stored as given: never put a full card number in one. */
  put<K extends keyof C>(collection: K, record: C[K]): void
  delete<K extends keyof C>(collection: K, id: string): void
  /** Every record of a collection, in insertion order. */
  list<K extends keyof C>(collection: K): C[K][]
  /** Records whose indexed `field` equals `value` (only fields declared as indexes), in insertion order. */
  findBy<K extends keyof C>(collection: K, field: keyof C[K] & string, value: string): C[K][]
  count<K extends keyof C>(collection: K): number
  /** Removes everything (the sandbox's reset). */
  clear(): void
  /** Resolves once every change made so far is durable (immediately for memory). */
  flush(): Promise<void>
  close(): Promise<void>
}

/** Which fields of each collection are indexed for `findBy`. */
export type StoreIndexes<C> = { [K in keyof C]?: (keyof C[K] & string)[] }
