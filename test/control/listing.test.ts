import { describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLowdbStore, createMemoryStore } from '../../src/adapters/index.js'
import { createQueryIndex } from '../../src/adapters/store/query-index.js'
import { controlModule } from '../../src/core/control/index.js'
import { type Collections, type Payment, STORE_INDEXES } from '../../src/core/engine/model.js'
import type { StoreQuery } from '../../src/core/ports/store.js'
import { payment } from '../callbacks/harness.js'
import { countingStore } from '../helpers/counting-store.js'
import { createTestGateway } from '../helpers/engine.js'

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

const MERCHANTS = ['m-a', 'm-b', 'm-c']
const STATUSES = ['settled', 'decline', 'refund', '3ds'] as const
const METHODS = ['card', 'vcard', 'pix']

function randomPayment(r: () => number, i: number): Payment {
  const order = `ORD-${Math.floor(r() * 400)}`
  return payment({
    id: `pay-${i.toString(36).padStart(5, '0')}-${Math.floor(r() * 1e6)}`,
    merchant_key: MERCHANTS[Math.floor(r() * MERCHANTS.length)] as string,
    status: STATUSES[Math.floor(r() * STATUSES.length)] as Payment['status'],
    method: METHODS[Math.floor(r() * METHODS.length)] as string,
    order_id: order,
    order: { number: order, amount: '1.00', currency: 'EUR', description: '' },
    // Mostly increasing, with ties and a few out of order (an import, a rollback).
    created_at: 1_000_000 + i * 1000 + (r() < 0.1 ? -Math.floor(r() * 50_000) : 0) - (r() < 0.2 ? 1000 : 0),
  })
}

/** What the listing must answer, computed by brute force over the records. */
function oracle(all: Payment[], q: StoreQuery) {
  const needle = q.search?.toLowerCase()
  const seq = new Map(all.map((p, i) => [p.id, i]))
  const found = all
    .filter(
      (p) =>
        Object.entries(q.where ?? {}).every(([f, v]) => v === undefined || (p as never)[f] === v) &&
        (q.from === undefined || p.created_at >= q.from) &&
        (q.to === undefined || p.created_at <= q.to) &&
        (!needle || `${p.id}\n${p.order_id}`.toLowerCase().includes(needle)),
    )
    .sort((a, b) => a.created_at - b.created_at || (seq.get(a.id) ?? 0) - (seq.get(b.id) ?? 0))
  if ((q.order ?? 'desc') === 'desc') found.reverse()
  const offset = q.offset ?? 0
  return { ids: found.slice(offset, offset + (q.limit ?? 20)).map((p) => p.id), total: found.length }
}

describe('store listings (issue 14: "listings filtered, sorted and paginated in the store with indexes")', () => {
  it('answers every combination of filters, search, time range, order and page as a full scan would', () => {
    const r = rng(14)
    const store = createMemoryStore<Collections>(STORE_INDEXES)
    const kept = new Map<string, Payment>()
    for (let i = 0; i < 3000; i++) {
      const p = randomPayment(r, i)
      store.put('payments', p)
      kept.set(p.id, p)
      // Status changes (a refund later), deletes: the indexes follow.
      if (r() < 0.2) {
        const ids = [...kept.keys()]
        const changed = { ...(kept.get(ids[Math.floor(r() * ids.length)] as string) as Payment) }
        changed.status = STATUSES[Math.floor(r() * STATUSES.length)] as Payment['status']
        store.put('payments', changed)
        kept.set(changed.id, changed)
      }
      if (r() < 0.03) {
        const ids = [...kept.keys()]
        const gone = ids[Math.floor(r() * ids.length)] as string
        store.delete('payments', gone)
        kept.delete(gone)
      }
    }
    // Insertion order of the survivors is the store's tie-break: rebuild it from store.list().
    const all = store.list('payments')
    expect(all).toHaveLength(kept.size)
    for (let n = 0; n < 400; n++) {
      const pick = <T>(values: readonly T[]) =>
        r() < 0.4 ? values[Math.floor(r() * values.length)] : undefined
      const q: StoreQuery = {
        where: {
          merchant_key: pick(MERCHANTS),
          status: pick(STATUSES),
          method: pick(METHODS),
          order_id: r() < 0.1 ? `ORD-${Math.floor(r() * 400)}` : undefined,
        },
        ...(r() < 0.3 ? { search: ['ord-1', 'PAY-0', '7', 'zz', '-3'][Math.floor(r() * 5)] as string } : {}),
        ...(r() < 0.3 ? { from: 1_000_000 + Math.floor(r() * 3_000_000) } : {}),
        ...(r() < 0.3 ? { to: 1_000_000 + Math.floor(r() * 3_000_000) } : {}),
        order: r() < 0.5 ? 'asc' : 'desc',
        offset: Math.floor(r() * 3) * 20,
        limit: [1, 20, 100][Math.floor(r() * 3)] as number,
      }
      expect(store.query?.('payments', q), JSON.stringify(q)).toEqual(oracle(all, q))
    }
  })

  // Issue 14: "Delivery is at-least-once across restarts": the listing indexes are rebuilt from the data file.
  it('answers the same listings after a restart on the same data file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paysandbox-listing-'))
    try {
      const file = join(dir, 'data.json')
      const first = await createLowdbStore<Collections>({ file, indexes: STORE_INDEXES })
      const r = rng(7)
      for (let i = 0; i < 300; i++) first.put('payments', randomPayment(r, i))
      const q: StoreQuery = { where: { merchant_key: 'm-b' }, search: 'ord-1', limit: 50 }
      const before = first.query?.('payments', q)
      await first.close()
      const again = await createLowdbStore<Collections>({ file, indexes: STORE_INDEXES })
      expect(again.query?.('payments', q)).toEqual(before)
      expect(before?.total).toBeGreaterThan(0)
      await again.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('follows a clear and its rollback, and refuses a filter field it does not index', () => {
    const index = createQueryIndex()
    index.set('payments', 'p1', { id: 'p1', created_at: 1, status: 'settled', order_id: 'A' })
    const saved = index.detach()
    expect(index.query('payments', {})).toEqual({ ids: [], total: 0 })
    index.restore(saved)
    expect(index.query('payments', { where: { status: 'settled' } })).toEqual({ ids: ['p1'], total: 1 })
    expect(() => index.query('payments', { where: { customer_ip: '1.2.3.4' } })).toThrow(/cannot be filtered/)
    expect(index.query('sessions', {})).toBeUndefined()
  })
})

describe('GET /sandbox/payments at scale (issue 14)', () => {
  async function seeded(n: number) {
    const t = createTestGateway([controlModule])
    for (let i = 0; i < n; i++)
      t.store.put(
        'payments',
        payment({
          id: `pay-${String(i).padStart(5, '0')}`,
          order_id: `SHOP-${String(i).padStart(5, '0')}`,
          order: {
            number: `SHOP-${String(i).padStart(5, '0')}`,
            amount: '1.00',
            currency: 'EUR',
            description: '',
          },
          status: i % 10 === 0 ? 'decline' : 'settled',
          method: i % 3 === 0 ? 'vcard' : 'card',
          created_at: 1_700_000_000_000 + i * 1000,
        }),
      )
    return t
  }

  // Issue 14: "search by order id or payment id finds nothing older than the newest 100".
  it('finds the oldest of 5,000 payments by a part of its order id or payment id', async () => {
    const t = await seeded(5000)
    const byOrder = await t.call('GET', '/sandbox/payments?search=shop-0001')
    expect(byOrder.body).toMatchObject({ total: 10, page: 1, per_page: 20 })
    expect((byOrder.body.payments as unknown as Payment[]).map((p) => p.id).at(-1)).toBe('pay-00010')
    const byId = await t.call('GET', '/sandbox/payments?search=PAY-0000')
    expect(byId.body).toMatchObject({ total: 10 })
    const exact = await t.call('GET', '/sandbox/payments?payment_id=pay-00002')
    expect(exact.body).toMatchObject({ total: 1, payments: [{ order_id: 'SHOP-00002' }] })
  })

  it('filters by status, method and time, sorts either way and pages', async () => {
    const t = await seeded(300)
    const declined = await t.call('GET', '/sandbox/payments?status=decline&method=vcard&per_page=100')
    // i % 10 === 0 and i % 3 === 0: i % 30 === 0, 10 of 300.
    expect(declined.body).toMatchObject({ total: 10 })
    const oldest = await t.call('GET', '/sandbox/payments?order=asc&per_page=2&page=2')
    expect((oldest.body.payments as unknown as Payment[]).map((p) => p.id)).toEqual([
      'pay-00002',
      'pay-00003',
    ])
    const from = new Date(1_700_000_000_000 + 290_000).toISOString().slice(0, 19).replace('T', ' ')
    const recent = await t.call('GET', `/sandbox/payments?from=${encodeURIComponent(from)}`)
    expect(recent.body).toMatchObject({ total: 10 })
    const bad = await t.call('GET', '/sandbox/payments?from=yesterday')
    expect(bad.status).toBe(400)
  })
})

// Issue 22, point 3: "Status lookups by id and order id, and listings, keep their figures with
// 200,000 sessions and 50,000 payments stored", which holds only if nothing on a listing's path
// reads the whole store (docs/architecture.md: "nothing reads the whole store").
describe('a listing reads no record but its page (issue 22)', () => {
  it('answers newest first, by status and by merchant from the indexes, reading only the page', async () => {
    let reads = { list: 0, get: 0, findBy: 0, text: 0 }
    const t = createTestGateway([controlModule], undefined, {
      wrapStore: (inner) => {
        const counting = countingStore(inner)
        reads = counting.reads
        return counting.store
      },
    })
    for (let i = 0; i < 3000; i++)
      t.store.put(
        'payments',
        payment({
          id: `pay-${String(i).padStart(5, '0')}`,
          status: i % 2 ? 'settled' : 'decline',
          created_at: 1_700_000_000_000 + i,
        }),
      )
    for (const [path, total] of [
      ['/sandbox/payments?per_page=20', 3000],
      ['/sandbox/payments?status=settled&per_page=20', 1500],
      ['/sandbox/payments?merchant=demo-merchant&status=decline&per_page=20&page=3', 1500],
    ] as const) {
      const before = { ...reads }
      const answer = await t.call('GET', path)
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({ total })
      expect((answer.body.payments as unknown as Payment[]).length).toBe(20)
      expect(reads.list - before.list).toBe(0)
      expect(reads.findBy - before.findBy).toBe(0)
      expect(reads.get - before.get + reads.text - before.text).toBeLessThanOrEqual(20)
    }
  })
})
