/**
 * The store port. Reads and writes are synchronous on an in-memory image, so an operation that
 * checks and then writes (a refund against what was captured) cannot interleave with another;
 * persistence happens behind `commit()` and `flush()`, coalesced (lowdb implementation) or not at
 * all (memory). A change is a batch: `commit(ops)` is one, `put`, `delete` and `clear` are a batch
 * of one each, and every batch is all-or-nothing in memory and on disk.
 */
export interface Identified {
  id: string
}

/** One change of a `commit`: put `record` (whose id must be `id`) or delete `id` in `collection`. */
export interface StoreOp {
  collection: string
  kind: 'put' | 'delete'
  id: string
  record?: unknown
}

/**
 * The store could not make a change durable (disk full, I/O error): the change was rolled back in
 * memory and nothing partial is on disk. Writes answer 503 while it lasts; the next change tries
 * the disk again.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError'
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
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
  /**
   * Applies every op at once (all visible together or none) and resolves when durable. An op
   * that cannot be applied (a put without a matching string id, a record JSON cannot hold) undoes
   * the ops before it and the promise rejects with that error. If persisting fails, everything not
   * yet durable is rolled back in memory (newest batch first) and the promise rejects with
   * StoreUnavailableError; nothing partial is left on disk.
   */
  commit(ops: StoreOp[]): Promise<void>
  /** false while the last persist failed (disk full); the next change tries the disk again. */
  readonly writable: boolean
  /**
   * Resolves once every change made so far is durable (immediately for memory); rejects with
   * StoreUnavailableError when one of them could not be persisted (it was rolled back).
   */
  flush(): Promise<void>
  close(): Promise<void>
  /**
   * A sorted, filtered page of a listed collection (payments, deliveries), answered from indexes
   * without reading the records; undefined when the collection is not listed or the store cannot.
   */
  query?<K extends keyof C>(collection: K, query: StoreQuery): StoreQueryResult | undefined
  /**
   * A record as the JSON text the store keeps, without parsing it (a listing's page goes out as
   * these texts); undefined when there is none. Reads the base store, like `query`.
   */
  getText?<K extends keyof C>(collection: K, id: string): string | undefined
  /** Present when the store forgets its oldest payments and sessions (the engine's retention, docs/rules.md#retention). */
  readonly retention?: StoreRetention
}

/**
 * What the engine's retention (docs/rules.md#retention) has done so far: each merchant keeps up to
 * `retain` units, the demo page's units up to `retain_demo`, in a lane of their own.
 */
export interface RetentionStats {
  /** Units (a session with its payments, or a payment without a session) each merchant keeps at most; absent: no bound. */
  retain?: number
  /** Units of the demo page (POST /hpf/demo) kept at most. */
  retain_demo: number
  /** Merchants' units held now. */
  kept: number
  /** Demo page units held now. */
  kept_demo: number
  /** Merchants' units forgotten since the start. */
  forgotten: number
  /** Demo page units forgotten since the start. */
  forgotten_demo: number
  /** Callbacks forgotten with their payment while still queued, being sent or waiting for a retry. */
  forgotten_undelivered_callbacks: number
}

export interface StoreRetention {
  stats(): RetentionStats
  /** Called with the ids of the undelivered callbacks each forgotten unit took with it. */
  onForget(listener: (deliveryIds: string[]) => void): () => void
  /**
   * true when a session with this token or page token was forgotten (a filter of fixed size:
   * rarely true for a token never issued, never false for a forgotten one).
   */
  forgotSession(token: string): boolean
}

/** A listing: equality filters, a time range on the sort key, a substring search of ids, one page. */
export interface StoreQuery {
  where?: Record<string, string | undefined>
  /** Case-insensitive substring of the collection's searchable ids (payment id, order id, ...). */
  search?: string
  /** Sort-key range, inclusive (epoch ms). */
  from?: number
  to?: number
  /** Default `desc`: newest first. */
  order?: 'asc' | 'desc'
  offset?: number
  limit?: number
}

export interface StoreQueryResult {
  /** The page's record ids, in listing order. */
  ids: string[]
  /** How many records match, across every page. */
  total: number
}

/** Which fields of each collection are indexed for `findBy`. */
export type StoreIndexes<C> = { [K in keyof C]?: (keyof C[K] & string)[] }
