import {
  type Identified,
  type Store,
  type StoreOp,
  StoreUnavailableError,
} from '../../src/core/ports/store.js'

export interface FaultInjectingStore<C extends { [K in keyof C]: Identified }> {
  /** The store to hand to the engine: `inner` with commit() that fails where told. */
  store: Store<C>
  /**
   * The next commit that reaches `op` ops fails at op number `op` (0-based): the ops before it are
   * applied and then undone by the store, as when a real op cannot be applied. `unavailable`
   * instead makes that commit fail as a full disk does: applied, rolled back, rejected with
   * StoreUnavailableError. Returns nothing; `injected()` says whether it happened.
   */
  failAt(op: number, options?: { unavailable?: boolean }): void
  /** Whether the fault set by failAt was hit (then it is cleared). */
  injected(): boolean
  /** Every commit's ops, in order (including the failed ones). */
  readonly commits: StoreOp[][]
}

/** Thrown (through the store's own serialisation) by the op chosen with failAt. */
export class InjectedFault extends Error {
  override name = 'InjectedFault'
}

/**
 * Issue 11, point 3: "a refused or failed request changes nothing (prove it with a test that makes
 * every store write fail in turn)". Wraps a store so that the N-th op of a commit throws: run an
 * operation once to count its ops (`commits`), then for each n < count run it again on a fresh
 * store with failAt(n) and check that nothing changed. The failure goes through the wrapped
 * store's own all-or-nothing path (the op's record throws when the store serialises it), so the
 * test proves the store's rollback and the caller's handling together.
 */
export function createFaultInjectingStore<C extends { [K in keyof C]: Identified }>(
  inner: Store<C>,
): FaultInjectingStore<C> {
  let fault: { op: number; unavailable: boolean } | undefined
  let hit = false
  const commits: StoreOp[][] = []
  const poison = (op: StoreOp, n: number): StoreOp => ({
    collection: op.collection,
    kind: 'put',
    id: op.id,
    record: {
      id: op.id,
      toJSON() {
        throw new InjectedFault(
          `fault injected at op ${n} of a commit (${op.kind} ${op.collection} ${op.id})`,
        )
      },
    },
  })
  const store: Store<C> = Object.create(inner)
  Object.defineProperty(store, 'writable', { get: () => inner.writable })
  store.commit = async (ops) => {
    commits.push(ops)
    const f = fault
    if (!f || (f.unavailable ? ops.length === 0 : f.op >= ops.length)) return inner.commit(ops)
    fault = undefined
    hit = true
    if (!f.unavailable) return inner.commit([...ops.slice(0, f.op), poison(ops[f.op] as StoreOp, f.op)])
    // A full disk: everything applied, then rolled back (the poisoned op past the end undoes them).
    const undone = await inner.commit([...ops, poison(ops[0] as StoreOp, ops.length)]).then(
      () => false,
      (error: unknown) => error instanceof InjectedFault,
    )
    if (!undone) throw new Error('fault-injecting store: the wrapped store did not undo the commit')
    throw new StoreUnavailableError('fault injected: the disk is full (ENOSPC)')
  }
  return {
    store,
    failAt(op, options = {}) {
      fault = { op, unavailable: options.unavailable ?? false }
      hit = false
    },
    injected: () => hit,
    commits,
  }
}
