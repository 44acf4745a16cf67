import type { RequestLogStats, RequestQuery, RequestRecord } from './types.js'

/**
 * The request log's store: one ring per merchant, so one merchant's traffic never pushes
 * another's out, and one more for requests no merchant can be told for. Adding is O(1): the
 * oldest record of a full ring is dropped from the indexes as the new one takes its place.
 * Lookups go through the indexes (merchant and order, payment id, record id); nothing reads
 * every record.
 */
export interface RequestLog {
  readonly perMerchant: number
  /** Keeps a record (the ring's oldest is forgotten when full); a no-op when the log is off. */
  add(record: Omit<RequestRecord, 'id' | 'seq'>): RequestRecord | undefined
  get(id: string): RequestRecord | undefined
  query(query: RequestQuery): { records: RequestRecord[]; total: number }
  stats(): RequestLogStats
  clear(): void
}

interface Ring {
  slots: (RequestRecord | undefined)[]
  /** Where the next record goes. */
  next: number
  size: number
}

/** The partition of requests no configured merchant can be told for. */
const NOBODY = ''
export const DEFAULT_PER_MERCHANT = 1000
export const MAX_LISTED = 500

const orderKey = (merchant: string, order: string) => `${merchant}\u0000${order}`

export function createRequestLog(perMerchant: number = DEFAULT_PER_MERCHANT): RequestLog {
  const rings = new Map<string, Ring>()
  const byId = new Map<string, RequestRecord>()
  // Lists, oldest first: a ring forgets its oldest record first, which is the oldest of each list it is in.
  const byOrder = new Map<string, RequestRecord[]>()
  const byPayment = new Map<string, RequestRecord[]>()
  let seq = 0
  let recorded = 0
  let forgotten = 0

  const file = (index: Map<string, RequestRecord[]>, key: string, record: RequestRecord) => {
    const list = index.get(key)
    if (list) list.push(record)
    else index.set(key, [record])
  }
  const unfile = (index: Map<string, RequestRecord[]>, key: string, record: RequestRecord) => {
    const list = index.get(key)
    if (!list) return
    if (list[0] === record) list.shift()
    else {
      const at = list.indexOf(record)
      if (at >= 0) list.splice(at, 1)
    }
    if (!list.length) index.delete(key)
  }

  function forget(record: RequestRecord) {
    byId.delete(record.id)
    if (record.order_id) unfile(byOrder, orderKey(record.merchant ?? NOBODY, record.order_id), record)
    for (const id of record.payment_ids) unfile(byPayment, id, record)
    forgotten++
  }

  /** A ring's records, newest first. */
  function* newest(ring: Ring): Generator<RequestRecord> {
    for (let i = 1; i <= ring.size; i++) {
      const record = ring.slots[(ring.next - i + perMerchant) % perMerchant]
      if (record) yield record
    }
  }

  /** The newest `limit` records of several rings together, newest first (a merge, not a sort of all). */
  function merged(list: Ring[], limit: number): RequestRecord[] {
    const cursors = list.map((ring) => newest(ring))
    const heads = cursors.map((c) => c.next().value as RequestRecord | undefined)
    const out: RequestRecord[] = []
    while (out.length < limit) {
      let best = -1
      for (let i = 0; i < heads.length; i++) {
        const head = heads[i]
        if (head && (best < 0 || head.seq > (heads[best] as RequestRecord).seq)) best = i
      }
      if (best < 0) break
      out.push(heads[best] as RequestRecord)
      heads[best] = (cursors[best] as Generator<RequestRecord>).next().value as RequestRecord | undefined
    }
    return out
  }

  const page = (records: Iterable<RequestRecord>, query: RequestQuery) => {
    const all = [...records]
    const limit = Math.min(query.limit ?? 100, MAX_LISTED)
    // An index holds its records oldest first.
    const ordered = query.order === 'asc' ? all : all.reverse()
    return { records: ordered.slice(0, limit), total: all.length }
  }

  return {
    perMerchant,
    add(fields) {
      if (perMerchant <= 0) return undefined
      // The record is the object it was given, with its id: no copy on the request's path.
      const record = fields as RequestRecord
      record.seq = ++seq
      record.id = `req-${seq}`
      const key = record.merchant ?? NOBODY
      let ring = rings.get(key)
      if (!ring) {
        ring = { slots: new Array(perMerchant), next: 0, size: 0 }
        rings.set(key, ring)
      }
      const old = ring.slots[ring.next]
      if (old) forget(old)
      ring.slots[ring.next] = record
      ring.next = (ring.next + 1) % perMerchant
      ring.size = Math.min(ring.size + 1, perMerchant)
      byId.set(record.id, record)
      if (record.order_id) file(byOrder, orderKey(key, record.order_id), record)
      for (const id of record.payment_ids) file(byPayment, id, record)
      recorded++
      return record
    },
    get: (id) => byId.get(id),
    query(query) {
      const limit = Math.min(query.limit ?? 100, MAX_LISTED)
      if (query.payment_id !== undefined) {
        const list = byPayment.get(query.payment_id) ?? []
        const mine = list.filter((r) => query.merchant === undefined || r.merchant === query.merchant)
        return page(mine, query)
      }
      if (query.order_id !== undefined) {
        if (query.merchant !== undefined)
          return page(byOrder.get(orderKey(query.merchant, query.order_id)) ?? [], query)
        // Without the merchant: the order under every merchant that has one of that number.
        const all = [...rings.keys()].flatMap((m) => [
          ...(byOrder.get(orderKey(m, query.order_id ?? '')) ?? []),
        ])
        return page(
          all.sort((a, b) => a.seq - b.seq),
          query,
        )
      }
      const chosen = query.unattributed
        ? [rings.get(NOBODY)]
        : query.merchant !== undefined
          ? [rings.get(query.merchant)]
          : [...rings.values()]
      const list = chosen.filter((r): r is Ring => r !== undefined)
      const total = list.reduce((n, r) => n + r.size, 0)
      const newestFirst = merged(list, limit)
      return { records: query.order === 'asc' ? newestFirst.reverse() : newestFirst, total }
    },
    stats: () => ({ per_merchant: Math.max(0, perMerchant), kept: byId.size, recorded, forgotten }),
    clear() {
      rings.clear()
      byId.clear()
      byOrder.clear()
      byPayment.clear()
      recorded = 0
      forgotten = 0
    },
  }
}
