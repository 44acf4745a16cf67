import { randomBytes, randomUUID } from 'node:crypto'
import type { Ids } from '../../core/ports/ids.js'
import { assertTokenBytes, DEFAULT_TOKEN_BYTES } from './format.js'

/** Random bytes drawn from the system at once; each token takes fresh ones, none is used twice. */
const POOL_BYTES = 4096

/**
 * Unpredictable ids for `serve`: tokens stand for secrets (session and card tokens). Token bytes
 * come from a pool of cryptographically random bytes refilled 4 KiB at a time (as randomUUID
 * does), not one system call per token: a session create makes two tokens.
 */
export function createRandomIds(): Ids {
  let pool = Buffer.alloc(0)
  let offset = 0
  return {
    uuid: () => randomUUID(),
    token(bytes = DEFAULT_TOKEN_BYTES) {
      assertTokenBytes(bytes)
      if (offset + bytes > pool.length) {
        pool = randomBytes(POOL_BYTES)
        offset = 0
      }
      const hex = pool.toString('hex', offset, offset + bytes)
      offset += bytes
      return hex
    },
  }
}
