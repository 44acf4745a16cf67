import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Store, StoreIndexes, StoreOp } from '../../src/core/ports/store.js'

/**
 * Design rule: "each port has one contract test suite that every implementation must pass (`store`:
 * memory and lowdb ...)". The comments quote ports/store.ts, the contract's text.
 */

export interface ContractPayment {
  id: string
  merchant_key: string
  order_id?: string
  amount: string
  details?: { tags: string[]; note?: string }
}
export interface ContractNote {
  id: string
  text: string
}
export interface ContractCollections {
  payments: ContractPayment
  notes: ContractNote
}
export const CONTRACT_INDEXES: StoreIndexes<ContractCollections> = { payments: ['merchant_key', 'order_id'] }

export const payment = (
  id: string,
  merchant_key = 'm1',
  extra: Partial<ContractPayment> = {},
): ContractPayment => ({
  id,
  merchant_key,
  amount: '10.00',
  ...extra,
})
const ids = (records: { id: string }[]) => records.map((r) => r.id)

export function describeStoreContract(name: string, open: () => Promise<Store<ContractCollections>>) {
  describe(`Store contract: ${name}`, () => {
    let store: Store<ContractCollections>
    beforeEach(async () => {
      store = await open()
    })
    afterEach(async () => {
      await store.close()
    })

    it('gets what was put, and undefined for an unknown id', () => {
      expect(store.get('payments', 'p1')).toBeUndefined()
      store.put('payments', payment('p1', 'm1', { details: { tags: ['a'] } }))
      expect(store.get('payments', 'p1')).toEqual(payment('p1', 'm1', { details: { tags: ['a'] } }))
      expect(store.get('notes', 'p1')).toBeUndefined()
    })

    it('put replaces a record with the same id ("Inserts or replaces by id")', () => {
      store.put('payments', payment('p1'))
      store.put('payments', payment('p1', 'm1', { amount: '20.00' }))
      expect(store.get('payments', 'p1')?.amount).toBe('20.00')
      expect(store.count('payments')).toBe(1)
    })

    it('deletes a record; deleting an unknown id does nothing', () => {
      store.put('payments', payment('p1'))
      store.put('payments', payment('p2'))
      store.delete('payments', 'p1')
      store.delete('payments', 'nope')
      expect(store.get('payments', 'p1')).toBeUndefined()
      expect(ids(store.list('payments'))).toEqual(['p2'])
    })

    it('lists in insertion order: a replace keeps its place, a delete then put goes last', () => {
      // "Every record of a collection, in insertion order."
      for (const id of ['c', 'a', 'b', '10', '2']) store.put('payments', payment(id))
      expect(ids(store.list('payments'))).toEqual(['c', 'a', 'b', '10', '2'])
      store.put('payments', payment('a', 'm2'))
      store.delete('payments', 'c')
      store.put('payments', payment('c'))
      expect(ids(store.list('payments'))).toEqual(['a', 'b', '10', '2', 'c'])
      expect(store.list('notes')).toEqual([])
    })

    it('keeps collections apart', () => {
      store.put('payments', payment('x'))
      store.put('notes', { id: 'x', text: 'hello' })
      expect(store.get('notes', 'x')).toEqual({ id: 'x', text: 'hello' })
      expect(store.count('payments')).toBe(1)
      store.delete('notes', 'x')
      expect(store.get('payments', 'x')).toEqual(payment('x'))
    })

    it('findBy answers on indexed fields, in insertion order', () => {
      // "Records whose indexed `field` equals `value` (...), in insertion order."
      store.put('payments', payment('p1', 'm1', { order_id: 'o1' }))
      store.put('payments', payment('p2', 'm2', { order_id: 'o1' }))
      store.put('payments', payment('p3', 'm1'))
      expect(ids(store.findBy('payments', 'merchant_key', 'm1'))).toEqual(['p1', 'p3'])
      expect(ids(store.findBy('payments', 'order_id', 'o1'))).toEqual(['p1', 'p2'])
      expect(store.findBy('payments', 'merchant_key', 'm9')).toEqual([])
      expect(store.findBy('payments', 'order_id', 'undefined')).toEqual([])
    })

    it('findBy follows a replace that changes the indexed value, and a delete', () => {
      store.put('payments', payment('p1', 'm1'))
      store.put('payments', payment('p2', 'm2'))
      store.put('payments', payment('p3', 'm2'))
      store.put('payments', payment('p1', 'm2'))
      expect(store.findBy('payments', 'merchant_key', 'm1')).toEqual([])
      expect(ids(store.findBy('payments', 'merchant_key', 'm2'))).toEqual(['p1', 'p2', 'p3'])
      store.delete('payments', 'p2')
      expect(ids(store.findBy('payments', 'merchant_key', 'm2'))).toEqual(['p1', 'p3'])
      expect(store.findBy('payments', 'merchant_key', 'm2')[0]?.merchant_key).toBe('m2')
    })

    it('findBy follows a value from one record to several and back to one ("Records whose indexed `field` equals `value` ..., in insertion order")', async () => {
      // An index value held by one record is kept apart from one several records share: each
      // change moves a value between the two forms, and every answer stays the same.
      store.put('payments', payment('p1', 'm1', { order_id: 'o1' }))
      expect(ids(store.findBy('payments', 'order_id', 'o1'))).toEqual(['p1'])
      store.put('payments', payment('p1', 'm1', { order_id: 'o1', amount: '2.00' }))
      expect(ids(store.findBy('payments', 'order_id', 'o1'))).toEqual(['p1'])
      expect(store.findBy('payments', 'order_id', 'o1')[0]?.amount).toBe('2.00')
      store.put('payments', payment('p2', 'm1', { order_id: 'o1' }))
      store.put('payments', payment('p3', 'm1', { order_id: 'o1' }))
      expect(ids(store.findBy('payments', 'order_id', 'o1'))).toEqual(['p1', 'p2', 'p3'])
      store.delete('payments', 'p1')
      store.put('payments', payment('p3', 'm1'))
      expect(ids(store.findBy('payments', 'order_id', 'o1'))).toEqual(['p2'])
      store.put('payments', payment('p1', 'm1', { order_id: 'o1' }))
      expect(ids(store.findBy('payments', 'order_id', 'o1'))).toEqual(['p2', 'p1'])
      store.delete('payments', 'p2')
      store.delete('payments', 'p1')
      expect(store.findBy('payments', 'order_id', 'o1')).toEqual([])
      // A refused commit puts a value shared for a moment back to the one record that held it.
      store.put('payments', payment('p4', 'm1', { order_id: 'o4' }))
      await expect(
        store.commit([
          { collection: 'payments', kind: 'put', id: 'p5', record: payment('p5', 'm1', { order_id: 'o4' }) },
          { collection: 'payments', kind: 'delete', id: 'p4' },
          { collection: 'payments', kind: 'put', id: 'p6', record: { id: 'p6', big: 1n } },
        ]),
      ).rejects.toThrow(/BigInt/)
      expect(ids(store.findBy('payments', 'order_id', 'o4'))).toEqual(['p4'])
      expect(ids(store.findBy('payments', 'merchant_key', 'm1'))).toEqual(['p3', 'p4'])
    })

    it('findBy refuses a field that is not indexed ("only fields declared as indexes")', () => {
      store.put('payments', payment('p1'))
      expect(() => store.findBy('payments', 'amount', '10.00')).toThrow(/payments\.amount is not indexed/)
    })

    it('counts per collection', () => {
      expect(store.count('payments')).toBe(0)
      for (let i = 0; i < 5; i++) store.put('payments', payment(`p${i}`))
      store.delete('payments', 'p0')
      expect(store.count('payments')).toBe(4)
      expect(store.count('notes')).toBe(0)
    })

    it('clear removes everything, indexes included ("the sandbox\'s reset")', () => {
      store.put('payments', payment('p1', 'm1', { order_id: 'o1' }))
      store.put('notes', { id: 'n1', text: 't' })
      store.clear()
      expect(store.count('payments') + store.count('notes')).toBe(0)
      expect(store.findBy('payments', 'order_id', 'o1')).toEqual([])
      store.put('payments', payment('p2', 'm1'))
      expect(ids(store.findBy('payments', 'merchant_key', 'm1'))).toEqual(['p2'])
    })

    it('stores copies: changing an object after put, or one read back, does not change the store', () => {
      const record = payment('p1', 'm1', { details: { tags: ['a'] } })
      store.put('payments', record)
      record.amount = '99.00'
      record.details?.tags.push('changed')
      const got = store.get('payments', 'p1')
      if (!got?.details) throw new Error('expected the record')
      got.merchant_key = 'm2'
      got.details.tags.push('x')
      const listed = store.list('payments')[0]
      if (listed) listed.amount = '1.00'
      const found = store.findBy('payments', 'merchant_key', 'm1')[0]
      if (found) found.amount = '2.00'
      expect(store.get('payments', 'p1')).toEqual(payment('p1', 'm1', { details: { tags: ['a'] } }))
      expect(ids(store.findBy('payments', 'merchant_key', 'm1'))).toEqual(['p1'])
    })

    it('keeps what JSON keeps: an undefined property is dropped, as after a restart', () => {
      store.put('payments', payment('p1', 'm1', { order_id: undefined }))
      expect(Object.keys(store.get('payments', 'p1') ?? {})).not.toContain('order_id')
    })

    it('refuses a record without a string id, or one JSON cannot hold, and stays unchanged', () => {
      expect(() => store.put('payments', { merchant_key: 'm1' } as unknown as ContractPayment)).toThrow(/id/)
      expect(() =>
        store.put('payments', { ...payment('p1'), big: 1n } as unknown as ContractPayment),
      ).toThrow()
      expect(store.count('payments')).toBe(0)
    })

    it('flush resolves once changes are made, and again when there is nothing to do', async () => {
      // "Resolves once every change made so far is durable"
      for (let i = 0; i < 50; i++) store.put('payments', payment(`p${i}`))
      await store.flush()
      await store.flush()
      expect(store.count('payments')).toBe(50)
    })

    // "commit: Applies every op at once (all visible together or none) and resolves when durable."
    it('commit applies every op together and resolves once durable', async () => {
      store.put('payments', payment('p1', 'm1', { order_id: 'o1' }))
      store.put('payments', payment('p2'))
      const seen: number[] = []
      const done = store.commit([
        { collection: 'payments', kind: 'put', id: 'p1', record: payment('p1', 'm2', { order_id: 'o1' }) },
        { collection: 'payments', kind: 'delete', id: 'p2' },
        { collection: 'notes', kind: 'put', id: 'n1', record: { id: 'n1', text: 'with p1' } },
      ])
      // Visible at once, before the promise settles: a reader never sees half of it.
      seen.push(store.count('payments'), store.count('notes'))
      await done
      expect(seen).toEqual([1, 1])
      expect(ids(store.findBy('payments', 'merchant_key', 'm2'))).toEqual(['p1'])
      expect(store.get('notes', 'n1')?.text).toBe('with p1')
      expect(store.writable).toBe(true)
      await store.flush()
    })

    it('commit is all or nothing: an op that cannot be applied undoes the ops before it', async () => {
      for (const id of ['a', 'b', 'c']) store.put('payments', payment(id, 'm1', { order_id: `o-${id}` }))
      const before = store.list('payments')
      const ops: StoreOp[] = [
        { collection: 'payments', kind: 'delete', id: 'a' },
        { collection: 'payments', kind: 'put', id: 'a', record: payment('a', 'm9') },
        { collection: 'payments', kind: 'put', id: 'b', record: payment('b', 'm9', { amount: '1.00' }) },
        { collection: 'payments', kind: 'put', id: 'd', record: payment('d', 'm9') },
        { collection: 'notes', kind: 'put', id: 'n1', record: { id: 'n1', text: 'x' } },
        { collection: 'payments', kind: 'put', id: 'e', record: { id: 'e', big: 1n } },
      ]
      await expect(store.commit(ops)).rejects.toThrow(/BigInt/)
      // Same records, same order (a deleted-then-put record goes back to its old place), same indexes.
      expect(store.list('payments')).toEqual(before)
      expect(store.findBy('payments', 'merchant_key', 'm9')).toEqual([])
      expect(ids(store.findBy('payments', 'merchant_key', 'm1'))).toEqual(['a', 'b', 'c'])
      expect(ids(store.findBy('payments', 'order_id', 'o-a'))).toEqual(['a'])
      expect(store.count('notes')).toBe(0)
      await store.flush()
      expect(store.writable).toBe(true)
    })

    it('commit refuses a put whose record id is not the op id, and changes nothing', async () => {
      await expect(
        store.commit([
          { collection: 'notes', kind: 'put', id: 'n1', record: { id: 'n1', text: 'ok' } },
          { collection: 'payments', kind: 'put', id: 'p1', record: payment('p2') },
        ]),
      ).rejects.toThrow(/id differs/)
      expect(store.count('notes') + store.count('payments')).toBe(0)
    })

    it('commit of nothing resolves and changes nothing; commit after close rejects', async () => {
      await store.commit([])
      expect(store.count('payments')).toBe(0)
      await store.close()
      await expect(
        store.commit([{ collection: 'payments', kind: 'put', id: 'p1', record: payment('p1') }]),
      ).rejects.toThrow(/closed/)
    })

    it('refuses changes after close', async () => {
      store.put('payments', payment('p1'))
      await store.close()
      expect(() => store.put('payments', payment('p2'))).toThrow(/closed/)
      expect(() => store.clear()).toThrow(/closed/)
      await store.close()
    })
  })
}
