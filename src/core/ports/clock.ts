/**
 * One clock drives session expiry, callback retries and schedules (DESIGN.md: nothing reads
 * Date.now() directly). Times are epoch milliseconds.
 */
export interface Clock {
  now(): number
  /** Runs `fn` once the clock reaches `at`; returns a cancel function. */
  at(at: number, fn: () => void | Promise<void>): () => void
  /** Virtual clocks move only when told; a system clock refuses. Resolves once every due job has run. */
  advance(ms: number): Promise<void>
  readonly kind: 'virtual' | 'system'
}

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR
