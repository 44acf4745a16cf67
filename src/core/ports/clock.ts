/**
 * One clock drives session expiry, callback retries and schedules (design rule: nothing reads
 * Date.now() directly). Times are epoch milliseconds.
 */
export interface Clock {
  now(): number
  /** Runs `fn` once the clock reaches `at`; returns a cancel function. */
  at(at: number, fn: () => void | Promise<void>): () => void
  /**
   * Moves time ahead: a virtual clock moves only when told; a system clock adds the offset to real
   * time. Resolves once every job due in the window has run, in time order.
   */
  advance(ms: number): Promise<void>
  readonly kind: 'virtual' | 'system'
}

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR
