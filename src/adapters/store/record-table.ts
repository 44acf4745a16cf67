import type { StoreQuery, StoreQueryResult } from '../../core/ports/store.js'
import { createQueryIndex } from './query-index.js'

/**
 * The in-memory image both stores share. Each record is kept as its JSON text: a read parses a
 * fresh object (so a caller mutating what it got cannot change the store without `put`), a put
 * proves the record serialisable at once, and the memory store answers exactly what the lowdb
 * store answers after a restart (undefined properties dropped, Dates turned into strings).
 *
 * Few heap objects per record (issue 22: with 200,000 sessions and 50,000 payments stored, lookups
 * and listings keep their figures): the garbage collector's work grows with the objects the store
 * keeps, and on a large store the collections were what made a lookup or a listing slower. So a
 * record is one entry, its text (flat, not the pieces JSON.stringify builds it from) and an array
 * of its indexed values; an index value held by one record points at its id directly, and only a
 * value shared by several records holds a Set.
 */

interface Entry {
  /** Position in insertion order; a replace keeps it, a delete then put takes a new one. */
  seq: number
  text: string
  /** The record's value of each indexed field, in the collection's index order (string values only). */
  keys: (string | undefined)[]
}

/** The ids holding one index value: the id itself while only one record holds it (most do). */
type Ids = string | Set<string>

interface Table {
  records: Map<string, Entry>
  /** value -> ids, one map per indexed field (in the collection's index order) */
  index: Map<string, Ids>[]
}

export interface RecordTable {
  get(collection: string, id: string): unknown
  /** The record's JSON text as kept (no parse). */
  getText(collection: string, id: string): string | undefined
  /** Stores a copy; returns the record's JSON text (what the journal writes). */
  put(collection: string, record: unknown): { id: string; text: string }
  /** true when something was deleted. */
  delete(collection: string, id: string): boolean
  list(collection: string): unknown[]
  findBy(collection: string, field: string, value: string): unknown[]
  count(collection: string): number
  /** Removes everything; returns what was there, for `restore`. */
  clear(): Saved
  /** What `collection`/`id` holds now (undefined when nothing), for `restore`. */
  save(collection: string, id: string): Saved
  /** Puts back what `save` or `clear` returned, in its old place in insertion order. */
  restore(saved: Saved): void
  /** Every collection's records as JSON texts, in insertion order (live iterators, read synchronously). */
  dump(): [string, Iterable<string>][]
  /** Sorted, filtered pages of the listed collections (query-index.ts). */
  query(collection: string, query: StoreQuery): StoreQueryResult | undefined
}

/** A record as it was (or its absence), or the whole image before a clear. */
export type Saved =
  | { kind: 'record'; collection: string; id: string; entry: Entry | undefined }
  | { kind: 'all'; tables: Map<string, Table>; listings?: unknown }

export function createRecordTable(indexes: Record<string, string[] | undefined>): RecordTable {
  let tables = new Map<string, Table>()
  let nextSeq = 0
  const listings = createQueryIndex()

  const indexedFields = (collection: string) => indexes[collection] ?? []

  function table(collection: string): Table {
    let t = tables.get(collection)
    if (!t) {
      t = { records: new Map(), index: indexedFields(collection).map(() => new Map()) }
      tables.set(collection, t)
    }
    return t
  }

  function unindex(t: Table, id: string, entry: Entry) {
    entry.keys.forEach((value, i) => {
      const byValue = t.index[i]
      if (value === undefined || !byValue) return
      const ids = byValue.get(value)
      if (ids === id) byValue.delete(value)
      else if (typeof ids === 'object') {
        ids.delete(id)
        if (ids.size === 1) byValue.set(value, ids.values().next().value as string)
      }
    })
  }

  function store(collection: string, id: string, text: string, fields: Record<string, unknown>) {
    const keys = indexedFields(collection).map((field) => {
      const value = fields[field]
      return typeof value === 'string' ? value : undefined
    })
    const previous = tables.get(collection)?.records.get(id)
    place(collection, id, { seq: previous?.seq ?? nextSeq++, text, keys })
    listings.set(collection, id, fields)
  }

  /** Sets the entry; a new seq is the newest, so only a rollback takes the slow, ordered insert. */
  function place(collection: string, id: string, entry: Entry) {
    const t = table(collection)
    const previous = t.records.get(id)
    if (previous) unindex(t, id, previous)
    const { keys } = entry
    if (previous?.seq === entry.seq || entry.seq === nextSeq - 1) t.records.set(id, entry)
    else {
      t.records.delete(id)
      insertInOrder(t.records, id, entry)
    }
    keys.forEach((value, i) => {
      const byValue = t.index[i]
      if (value === undefined || !byValue) return
      const ids = byValue.get(value)
      if (ids === undefined) byValue.set(value, id)
      else if (typeof ids === 'object') ids.add(id)
      else if (ids !== id) byValue.set(value, new Set([ids, id]))
    })
  }

  return {
    get(collection, id) {
      const entry = tables.get(collection)?.records.get(id)
      return entry ? JSON.parse(entry.text) : undefined
    },
    getText: (collection, id) => tables.get(collection)?.records.get(id)?.text,
    put(collection, record) {
      const id = idOf(collection, record)
      const text = flat(JSON.stringify(record))
      store(collection, id, text, record as Record<string, unknown>)
      return { id, text }
    },
    delete(collection, id) {
      const t = tables.get(collection)
      const entry = t?.records.get(id)
      if (!t || !entry) return false
      unindex(t, id, entry)
      t.records.delete(id)
      listings.remove(collection, id)
      return true
    },
    list(collection) {
      const records = tables.get(collection)?.records
      return records ? Array.from(records.values(), (e) => JSON.parse(e.text)) : []
    },
    findBy(collection, field, value) {
      const position = indexedFields(collection).indexOf(field)
      if (position < 0)
        throw new Error(
          `store: ${collection}.${field} is not indexed; declare it in the store's indexes to use findBy`,
        )
      const t = tables.get(collection)
      const ids = t?.index[position]?.get(value)
      if (!t || ids === undefined) return []
      if (typeof ids === 'string') {
        const entry = t.records.get(ids)
        return entry ? [JSON.parse(entry.text)] : []
      }
      const entries: Entry[] = []
      for (const id of ids) {
        const entry = t.records.get(id)
        if (entry) entries.push(entry)
      }
      // A replace that changes an indexed value appends the id to its new set: restore insertion order.
      return entries.sort((a, b) => a.seq - b.seq).map((e) => JSON.parse(e.text))
    },
    count(collection) {
      return tables.get(collection)?.records.size ?? 0
    },
    clear() {
      const saved: Saved = { kind: 'all', tables, listings: listings.detach() }
      tables = new Map()
      return saved
    },
    save(collection, id) {
      return { kind: 'record', collection, id, entry: tables.get(collection)?.records.get(id) }
    },
    restore(saved) {
      if (saved.kind === 'all') {
        tables = saved.tables
        listings.restore(saved.listings)
        return
      }
      const { collection, id, entry } = saved
      if (entry) {
        place(collection, id, entry)
        listings.set(collection, id, JSON.parse(entry.text))
      } else {
        listings.remove(collection, id)
        const t = tables.get(collection)
        const current = t?.records.get(id)
        if (t && current) {
          unindex(t, id, current)
          t.records.delete(id)
        }
      }
    },
    query: (collection, query) => listings.query(collection, query),
    dump() {
      return Array.from(tables, ([name, t]) => [name, mapIterable(t.records.values(), (e) => e.text)])
    },
  }
}

/**
 * Sets `id` in a Map kept in ascending `seq` order: appended when it is the newest (every ordinary
 * put), else the entries after it are moved behind it (only a rollback restores an older record).
 */
function insertInOrder(records: Map<string, Entry>, id: string, entry: Entry) {
  let last: Entry | undefined
  for (const e of records.values()) last = e
  if (!last || last.seq < entry.seq) {
    records.set(id, entry)
    return
  }
  const later: [string, Entry][] = []
  for (const [k, e] of records) if (e.seq > entry.seq) later.push([k, e])
  for (const [k] of later) records.delete(k)
  records.set(id, entry)
  for (const [k, e] of later) records.set(k, e)
}

/**
 * The same text as one flat string. JSON.stringify answers a chain of concatenated pieces (about
 * five heap objects for a session's text); converting a string to a number flattens it in place,
 * and the collector then keeps the flat string alone.
 */
function flat(text: string): string {
  Number(text)
  return text
}

function idOf(collection: string, record: unknown): string {
  const id = (record as { id?: unknown } | null)?.id
  if (typeof record !== 'object' || record === null || Array.isArray(record) || typeof id !== 'string' || !id)
    throw new TypeError(`store: a record of ${collection} must be an object with a non-empty string id`)
  return id
}

function* mapIterable<T, U>(items: Iterable<T>, fn: (item: T) => U): Iterable<U> {
  for (const item of items) yield fn(item)
}
