import { randomBytes, randomUUID } from 'node:crypto'
import type { Ids } from '../../core/ports/ids.js'
import { assertTokenBytes, DEFAULT_TOKEN_BYTES } from './format.js'

/** Unpredictable ids for `serve`: tokens stand for secrets (session and card tokens). */
export function createRandomIds(): Ids {
  return {
    uuid: () => randomUUID(),
    token(bytes = DEFAULT_TOKEN_BYTES) {
      assertTokenBytes(bytes)
      return randomBytes(bytes).toString('hex')
    },
  }
}
