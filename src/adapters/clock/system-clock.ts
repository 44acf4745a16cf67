import type { Clock } from '../../core/ports/clock.js'

/** setTimeout's largest delay; a longer one fires at once, so longer waits are chained. */
export const MAX_TIMER_MS = 2 ** 31 - 1

export interface SystemClockOptions {
  /** Where a job's error goes (a throw there would reach no caller). Default: console.error. */
  onError?: (error: unknown) => void
}

/**
 * Real time, for `serve`. Timers are unref'd: pending jobs (a session expiring in 15 minutes) do
 * not keep a process alive that has nothing else to do.
 */
export function createSystemClock(options: SystemClockOptions = {}): Clock {
  const onError =
    options.onError ?? ((error: unknown) => console.error('paysandbox: a scheduled job failed:', error))
  return {
    kind: 'system',
    now: () => Date.now(),
    at(at, fn) {
      if (!Number.isFinite(at))
        throw new RangeError(`system clock: a job time must be a finite number of ms, got ${at}`)
      let timer: NodeJS.Timeout | undefined
      let cancelled = false
      const arm = () => {
        const delay = at - Date.now()
        if (delay > MAX_TIMER_MS) timer = setTimeout(arm, MAX_TIMER_MS)
        else
          timer = setTimeout(
            () => {
              if (cancelled) return
              // Timers run on a monotonic clock and may fire a millisecond before Date.now() reaches `at`.
              if (Date.now() < at) return arm()
              Promise.resolve()
                .then(fn)
                .catch((error) => onError(error))
            },
            Math.max(0, delay),
          )
        timer.unref()
      }
      arm()
      return () => {
        cancelled = true
        clearTimeout(timer)
      }
    },
    advance: () =>
      Promise.reject(
        new Error(
          'the system clock follows real time and cannot be advanced; give the sandbox a virtual clock (createVirtualClock()) to move time',
        ),
      ),
  }
}
