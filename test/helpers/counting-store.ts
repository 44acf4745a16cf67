import type { Identified, Store } from '../../src/core/ports/store.js'

/**
 * A store that counts its reads: whole collections (`list`), records by id (`get`), by index
 * (`findBy`) and record texts (`getText`, when the store has it). Tests of "nothing reads the
 * whole store" (docs/architecture.md) wrap the real store in it.
 */
export function countingStore<C extends { [K in keyof C]: Identified }>(
  inner: Store<C>,
): {
  store: Store<C>
  reads: { list: number; get: number; findBy: number; text: number }
} {
  const reads = { list: 0, get: 0, findBy: 0, text: 0 }
  const store: Store<C> = {
    ...inner,
    get writable() {
      return inner.writable
    },
    list: (c) => {
      reads.list++
      return inner.list(c)
    },
    get: (c, id) => {
      reads.get++
      return inner.get(c, id)
    },
    findBy: (c, f, v) => {
      reads.findBy++
      return inner.findBy(c, f, v)
    },
    ...(inner.getText
      ? {
          getText: (c: keyof C, id: string) => {
            reads.text++
            return inner.getText?.(c, id)
          },
        }
      : {}),
  }
  return { store, reads }
}
