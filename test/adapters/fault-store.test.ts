import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../src/adapters/index.js'
import { type StoreOp, StoreUnavailableError } from '../../src/core/ports/store.js'
import { createFaultInjectingStore, InjectedFault } from '../helpers/fault-store.js'
import { CONTRACT_INDEXES, type ContractCollections, payment } from './store-contract.js'

/** The helper the engine's atomicity tests rely on (issue 11, point 3): it must really fail and really undo. */
describe('fault-injecting store (test helper)', () => {
  const ops: StoreOp[] = [
    { collection: 'payments', kind: 'put', id: 'p1', record: payment('p1', 'm2') },
    { collection: 'notes', kind: 'put', id: 'n1', record: { id: 'n1', text: 'x' } },
    { collection: 'payments', kind: 'delete', id: 'p0' },
  ]
  const fresh = () => {
    const inner = createMemoryStore<ContractCollections>(CONTRACT_INDEXES)
    inner.put('payments', payment('p0'))
    inner.put('payments', payment('p1'))
    return { inner, faulty: createFaultInjectingStore(inner) }
  }

  it('makes op N of the next commit throw, and the store undoes ops 0..N-1', async () => {
    for (let n = 0; n < ops.length; n++) {
      const { inner, faulty } = fresh()
      const before = inner.list('payments')
      faulty.failAt(n)
      await expect(faulty.store.commit(ops)).rejects.toBeInstanceOf(InjectedFault)
      expect(faulty.injected()).toBe(true)
      expect(inner.list('payments')).toEqual(before)
      expect(inner.count('notes')).toBe(0)
      // One fault only: the same commit then goes through.
      await faulty.store.commit(ops)
      expect(inner.get('payments', 'p1')?.merchant_key).toBe('m2')
      expect(faulty.commits).toHaveLength(2)
    }
  })

  it('a fault past the commit\'s last op is not hit; "unavailable" rolls back as a full disk does', async () => {
    const { inner, faulty } = fresh()
    faulty.failAt(ops.length)
    await faulty.store.commit(ops.slice(0, 1))
    expect(faulty.injected()).toBe(false)
    const before = inner.list('payments')
    faulty.failAt(0, { unavailable: true })
    await expect(faulty.store.commit(ops.slice(1))).rejects.toBeInstanceOf(StoreUnavailableError)
    expect(inner.list('payments')).toEqual(before)
    expect(faulty.store.get('payments', 'p0')).toEqual(payment('p0'))
  })
})
