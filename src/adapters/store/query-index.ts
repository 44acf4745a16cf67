import type { StoreQuery, StoreQueryResult } from '../../core/ports/store.js'

/**
 * Sorted, filtered, paginated listings without parsing or scanning the records: the control
 * API's `GET /sandbox/payments` and `GET /sandbox/callbacks` at 100,000+ records.
 *
 * Per listed collection the index keeps one small row per record: its sort key (`created_at`),
 * the values of its filter fields and a lower-cased search text (ids and order ids). Rows sit in
 * arrays sorted by (sort key, arrival): one for the whole collection and one per value of each
 * filter field. A listing picks the shortest array its equality filters allow, and:
 * - with no other condition, answers the page by position (a slice) and the total by its length;
 * - with a time range only, finds both ends by binary search;
 * - otherwise walks that array once, testing the rows (never the JSON records), counting the
 *   total and keeping only the page's ids.
 * Full-text search (`search`) is a substring test over the rows' search text, across everything.
 * Writes keep the arrays sorted with a binary-search insert; records arrive nearly in time order,
 * so that is almost always an append.
 */
export interface QuerySpec {
  /** Numeric field the listing is sorted by (epoch ms). */
  sort: string
  /** Fields a listing may filter on by equality (string values). */
  fields: string[]
  /** Fields whose values a full-text search looks into (substring, case-insensitive). */
  search: string[]
}

/** The collections the control API lists (the engine's model names them; this adapter only indexes them). */
export const DEFAULT_QUERY_SPECS: Record<string, QuerySpec> = {
  payments: {
    sort: 'created_at',
    fields: ['id', 'merchant_key', 'order_id', 'status', 'method', 'api', 'operation'],
    search: ['id', 'order_id'],
  },
  deliveries: {
    sort: 'created_at',
    fields: ['id', 'merchant_key', 'payment_id', 'order_id', 'state', 'kind', 'api'],
    search: ['id', 'payment_id', 'order_id'],
  },
}

interface Row {
  id: string
  key: number
  /** Arrival order: ties on the sort key keep it. */
  seq: number
  /** Value per spec field (same positions as `spec.fields`); undefined when the record has none. */
  values: (string | undefined)[]
  text: string
}

/**
 * Rows grouped by arrival (1,024 a block). A search first asks each block's 4-gram bit set
 * (262,144 bits, 32 KiB) whether every 4-character piece of the needle occurs in the block at all;
 * only blocks that may hold it are read row by row. Shorter needles test the block's joined text.
 * Sizing: a block of payments holds about 50,000 4-grams (a UUID and an order id a row), which
 * set about a sixth of the bits, so an 8-character piece of an id (5 grams) passes a block that
 * does not hold it about once in 10,000. (With 65,536 bits over half of them were set, a third
 * of the blocks passed every such search, and the search fell back to reading every row: the
 * listing's p99.)
 */
interface Block {
  rows: Set<Row>
  /** Joined search texts; undefined when a row changed since (rebuilt by the next search). */
  text?: string
  /** 4-grams present in the block; undefined when a row changed since (rebuilt by the next search). */
  grams?: Uint32Array
}

const GRAM_SHIFT = 18
const GRAM_BITS = 1 << GRAM_SHIFT

/**
 * Hash of the 4 characters at `i` (GRAM_SHIFT bits): the characters packed (8 bits each; ids are
 * ASCII), then a multiplicative hash, whose top bits spread even the 17 letters of hex ids evenly.
 */
const gram = (text: string, i: number) =>
  Math.imul(
    (text.charCodeAt(i) << 24) ^
      (text.charCodeAt(i + 1) << 16) ^
      (text.charCodeAt(i + 2) << 8) ^
      text.charCodeAt(i + 3),
    0x9e3779b1,
  ) >>>
  (32 - GRAM_SHIFT)

function gramsOf(block: Block): Uint32Array {
  if (block.grams) return block.grams
  const bits = new Uint32Array(GRAM_BITS / 32)
  for (const row of block.rows)
    for (let i = 0; i + 4 <= row.text.length; i++) {
      const g = gram(row.text, i)
      bits[g >>> 5] = (bits[g >>> 5] as number) | (1 << (g & 31))
    }
  block.grams = bits
  return bits
}

/** The block may hold `needle` (every 4-gram of it is present), or certainly does not. */
function mayHold(block: Block, needle: string, needleGrams: number[]): boolean {
  if (!needleGrams.length) {
    block.text ??= Array.from(block.rows, (r) => r.text).join('\u0000')
    return block.text.includes(needle)
  }
  const bits = gramsOf(block)
  for (const g of needleGrams) if (!((bits[g >>> 5] as number) & (1 << (g & 31)))) return false
  return true
}

const dirty = (block: Block | undefined) => {
  if (!block) return
  block.text = undefined
  block.grams = undefined
}

const BLOCK = 1024

interface Listing {
  spec: QuerySpec
  all: Row[]
  rows: Map<string, Row>
  blocks: Map<number, Block>
  /** field position -> value -> rows sorted like `all` */
  byValue: Map<string, Row[]>[]
}

export interface QueryIndex {
  /** The record was put (inserted or replaced). */
  set(collection: string, id: string, record: Record<string, unknown>): void
  remove(collection: string, id: string): void
  /** Forgets everything and returns what was there, for `restore` (a rolled-back clear). */
  detach(): unknown
  restore(saved: unknown): void
  /** undefined when the collection is not listed by this index. */
  query(collection: string, query: StoreQuery): StoreQueryResult | undefined
}

const before = (a: Row, b: Row) => a.key < b.key || (a.key === b.key && a.seq < b.seq)

/** Position of the first row not before `row` (its insertion point). */
function lowerBound(rows: Row[], row: Row): number {
  let lo = 0
  let hi = rows.length
  // Fast path: most writes are the newest record.
  const last = rows[hi - 1]
  if (!last || before(last, row)) return hi
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (before(rows[mid] as Row, row)) lo = mid + 1
    else hi = mid
  }
  return lo
}

function insert(rows: Row[], row: Row) {
  const at = lowerBound(rows, row)
  if (at === rows.length) rows.push(row)
  else rows.splice(at, 0, row)
}

function removeRow(rows: Row[], row: Row) {
  const at = lowerBound(rows, row)
  if (rows[at] === row) rows.splice(at, 1)
  else {
    const i = rows.indexOf(row)
    if (i >= 0) rows.splice(i, 1)
  }
}

/** First position whose key is >= key (or > key when `after`). */
function keyBound(rows: Row[], key: number, after: boolean): number {
  let lo = 0
  let hi = rows.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    const k = (rows[mid] as Row).key
    if (k < key || (after && k === key)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * The rows whose search text contains `needle`, found block by block (one substring test per
 * 1,024 rows); undefined when most blocks match (a search as wide as the listing: the ordered walk
 * is cheaper than sorting what it finds).
 */
function searchBlocks(l: Listing, needle: string): Row[] | undefined {
  const needleGrams: number[] = []
  for (let i = 0; i + 4 <= needle.length; i++) needleGrams.push(gram(needle, i))
  const hits: Block[] = []
  for (const block of l.blocks.values()) if (mayHold(block, needle, needleGrams)) hits.push(block)
  if (hits.length > Math.max(4, l.blocks.size / 4)) return undefined
  const rows: Row[] = []
  for (const block of hits) for (const row of block.rows) if (row.text.includes(needle)) rows.push(row)
  return rows.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0))
}

/** A page of rows already found (sorted), with the remaining filters applied. */
function pageOf(
  rows: Row[],
  tests: [number, string][],
  query: StoreQuery,
  offset: number,
  limit: number,
  newestFirst: boolean,
): StoreQueryResult {
  const ids: string[] = []
  let total = 0
  const { fields, values } = split(tests)
  const from = query.from ?? Number.NEGATIVE_INFINITY
  const to = query.to ?? Number.POSITIVE_INFINITY
  for (let n = 0; n < rows.length; n++) {
    const row = rows[newestFirst ? rows.length - 1 - n : n] as Row
    if (row.key < from || row.key > to || !matches(row, fields, values)) continue
    if (total >= offset && ids.length < limit) ids.push(row.id)
    total++
  }
  return { ids, total }
}

/** Equality tests as two plain arrays (field positions, values): the row loops read them by index. */
function split(tests: [number, string][]): { fields: number[]; values: string[] } {
  return { fields: tests.map(([i]) => i), values: tests.map(([, v]) => v) }
}

function matches(row: Row, fields: number[], values: string[]): boolean {
  for (let t = 0; t < fields.length; t++) if (row.values[fields[t] as number] !== values[t]) return false
  return true
}

export function createQueryIndex(specs: Record<string, QuerySpec> = DEFAULT_QUERY_SPECS): QueryIndex {
  let listings = new Map<string, Listing>()
  let nextSeq = 0

  function listing(collection: string): Listing | undefined {
    const spec = specs[collection]
    if (!spec) return undefined
    let found = listings.get(collection)
    if (!found) {
      found = { spec, all: [], rows: new Map(), blocks: new Map(), byValue: spec.fields.map(() => new Map()) }
      listings.set(collection, found)
    }
    return found
  }

  function unlink(l: Listing, row: Row) {
    const block = l.blocks.get(Math.floor(row.seq / BLOCK))
    if (block) {
      block.rows.delete(row)
      dirty(block)
      if (!block.rows.size) l.blocks.delete(Math.floor(row.seq / BLOCK))
    }
    removeRow(l.all, row)
    row.values.forEach((value, i) => {
      if (value === undefined) return
      const map = l.byValue[i] as Map<string, Row[]>
      const rows = map.get(value)
      if (!rows) return
      removeRow(rows, row)
      if (!rows.length) map.delete(value)
    })
  }

  function link(l: Listing, row: Row) {
    const n = Math.floor(row.seq / BLOCK)
    let block = l.blocks.get(n)
    if (!block) {
      block = { rows: new Set() }
      l.blocks.set(n, block)
    }
    block.rows.add(row)
    dirty(block)
    insert(l.all, row)
    row.values.forEach((value, i) => {
      if (value === undefined) return
      const map = l.byValue[i] as Map<string, Row[]>
      const rows = map.get(value)
      if (rows) insert(rows, row)
      else map.set(value, [row])
    })
  }

  return {
    set(collection, id, record) {
      const l = listing(collection)
      if (!l) return
      const sortValue = record[l.spec.sort]
      const key = typeof sortValue === 'number' && Number.isFinite(sortValue) ? sortValue : 0
      const values = l.spec.fields.map((f) => {
        const v = record[f]
        return typeof v === 'string' ? v : undefined
      })
      const text = l.spec.search
        .map((f) => record[f])
        .filter((v): v is string => typeof v === 'string')
        .join('\n')
        .toLowerCase()
      const previous = l.rows.get(id)
      if (previous && previous.key === key && previous.values.every((v, i) => v === values[i])) {
        if (previous.text !== text) {
          previous.text = text
          dirty(l.blocks.get(Math.floor(previous.seq / BLOCK)))
        }
        return
      }
      // A status change keeps the row's search text: its block's search data stays valid.
      const blockNo = previous ? Math.floor(previous.seq / BLOCK) : -1
      const block = l.blocks.get(blockNo)
      const kept = previous?.text === text && block ? { text: block.text, grams: block.grams } : undefined
      if (previous) unlink(l, previous)
      const row: Row = { id, key, seq: previous?.seq ?? nextSeq++, values, text }
      l.rows.set(id, row)
      link(l, row)
      if (kept && block && l.blocks.get(blockNo) === block) {
        block.text = kept.text
        block.grams = kept.grams
      }
    },
    remove(collection, id) {
      const l = listings.get(collection)
      const row = l?.rows.get(id)
      if (!l || !row) return
      unlink(l, row)
      l.rows.delete(id)
    },
    detach() {
      const saved = listings
      listings = new Map()
      return saved
    },
    restore(saved) {
      listings = saved as Map<string, Listing>
    },
    query(collection, query) {
      const l = listing(collection)
      if (!l) return undefined
      const { spec } = l
      const offset = Math.max(0, query.offset ?? 0)
      const limit = Math.max(0, query.limit ?? 20)
      const newestFirst = (query.order ?? 'desc') === 'desc'

      // The shortest candidate array the equality filters allow; the other filters are tested per row.
      let base = l.all
      const tests: [number, string][] = []
      for (const [field, value] of Object.entries(query.where ?? {})) {
        if (value === undefined) continue
        const i = spec.fields.indexOf(field)
        if (i < 0) throw new Error(`store: ${collection}.${field} cannot be filtered on`)
        const rows = (l.byValue[i] as Map<string, Row[]>).get(value) ?? []
        tests.push([i, value])
        if (rows.length < base.length || base === l.all) base = rows
      }
      const others = tests.filter(([i, value]) => (l.byValue[i] as Map<string, Row[]>).get(value) !== base)
      let lo = 0
      let hi = base.length
      if (query.from !== undefined) lo = keyBound(base, query.from, false)
      if (query.to !== undefined) hi = keyBound(base, query.to, true)
      const needle = query.search?.trim().toLowerCase()
      if (needle) {
        const found = searchBlocks(l, needle)
        if (found) return pageOf(found, tests, query, offset, limit, newestFirst)
      }

      if (!others.length && !needle) {
        const total = Math.max(0, hi - lo)
        const ids: string[] = []
        for (let n = offset; n < offset + limit && n < total; n++) {
          const row = base[newestFirst ? hi - 1 - n : lo + n] as Row
          ids.push(row.id)
        }
        return { ids, total }
      }

      const ids: string[] = []
      let total = 0
      const { fields, values } = split(others)
      for (let n = 0; n < hi - lo; n++) {
        const row = base[newestFirst ? hi - 1 - n : lo + n] as Row
        if (!matches(row, fields, values) || (needle && !row.text.includes(needle))) continue
        if (total >= offset && ids.length < limit) ids.push(row.id)
        total++
      }
      return { ids, total }
    },
  }
}
