import { createHash } from 'node:crypto'
import type { Ids } from '../../core/ports/ids.js'
import { assertTokenBytes, DEFAULT_TOKEN_BYTES, uuidV4From } from './format.js'

/**
 * Repeatable ids for tests and scenarios: the same seed gives the same sequence, on every machine
 * and Node version. The byte stream is SHA-256 in counter mode (sha256(`${seed}:${n}`)), which is
 * stable by definition, unlike Math.random, and spreads even seeds 1 and 2 apart.
 */
export function createSeededIds(seed: string | number): Ids {
  const prefix = `${String(seed)}:`
  let block = 0
  let pool = Buffer.alloc(0)

  const take = (n: number): Buffer => {
    while (pool.length < n) {
      const next = createHash('sha256')
        .update(prefix + block++)
        .digest()
      pool = Buffer.concat([pool, next])
    }
    const out = pool.subarray(0, n)
    pool = pool.subarray(n)
    return out
  }

  return {
    uuid: () => uuidV4From(take(16)),
    token(bytes = DEFAULT_TOKEN_BYTES) {
      assertTokenBytes(bytes)
      return take(bytes).toString('hex')
    },
  }
}
