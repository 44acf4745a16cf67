import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../src/adapters/index.js'
import { createEventBus } from '../../src/core/engine/events.js'
import { createUnits } from '../../src/core/engine/unit-of-work.js'

interface Row {
  id: string
  owner: string
}
type C = { rows: Row }

function setup() {
  const base = createMemoryStore<C>({ rows: ['owner'] })
  base.put('rows', { id: 'r1', owner: 'alice' })
  base.put('rows', { id: 'r2', owner: 'alice' })
  return { base, units: createUnits<C>(base, createEventBus()) }
}

// Issue 21 point 6: inside a unit, findBy sees a stored record whose indexed field changed in the
// same unit under its new value, and no longer under its old one.
describe('unit of work: findBy over records changed in the unit', () => {
  it('finds a stored record under the indexed value it was given in the unit, not under the old one', () => {
    const { units } = setup()
    const { value } = units.run(() => {
      units.store.put('rows', { id: 'r1', owner: 'bob' })
      return {
        bob: units.store.findBy('rows', 'owner', 'bob').map((r) => r.id),
        alice: units.store.findBy('rows', 'owner', 'alice').map((r) => r.id),
      }
    })
    expect(value.bob).toEqual(['r1'])
    expect(value.alice).toEqual(['r2'])
  })

  it('still finds new records, drops deleted ones, and agrees with the store after commit', async () => {
    const { base, units } = setup()
    const { value, durable } = units.run(() => {
      units.store.put('rows', { id: 'r3', owner: 'bob' })
      units.store.put('rows', { id: 'r2', owner: 'bob' })
      units.store.delete('rows', 'r1')
      return {
        bob: units.store
          .findBy('rows', 'owner', 'bob')
          .map((r) => r.id)
          .sort(),
        alice: units.store.findBy('rows', 'owner', 'alice').map((r) => r.id),
      }
    })
    await durable
    expect(value).toEqual({ bob: ['r2', 'r3'], alice: [] })
    expect(
      base
        .findBy('rows', 'owner', 'bob')
        .map((r) => r.id)
        .sort(),
    ).toEqual(value.bob)
    expect(base.findBy('rows', 'owner', 'alice')).toEqual([])
  })

  it('finds a record once when it keeps its indexed value', () => {
    const { units } = setup()
    const { value } = units.run(() => {
      units.store.put('rows', { id: 'r1', owner: 'alice' })
      return units.store
        .findBy('rows', 'owner', 'alice')
        .map((r) => r.id)
        .sort()
    })
    expect(value).toEqual(['r1', 'r2'])
  })
})
