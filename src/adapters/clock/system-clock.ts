import type { Clock } from '../../core/ports/clock.js'

/** setTimeout's largest delay; a longer one fires at once, so longer waits are chained. */
export const MAX_TIMER_MS = 2 ** 31 - 1

export interface SystemClockOptions {
  /** Where a job's error goes (a throw there would reach no caller). Default: console.error. */
  onError?: (error: unknown) => void
  /**
   * Milliseconds the clock starts ahead of the computer's (a sandbox restarted after its clock
   * was advanced resumes from there). Default 0.
   */
  offsetMs?: number
}

interface Job {
  at: number
  seq: number
  fn: () => void | Promise<void>
  done: boolean
  timer?: NodeJS.Timeout
}

const before = (a: Job, b: Job) => a.at < b.at || (a.at === b.at && a.seq < b.seq)

/**
 * Real time, for `serve`, plus an offset: advance(ms) moves the clock ahead of the computer's
 * (config schema: "POST /sandbox/clock/advance adds an offset"), runs every job that falls due in
 * the skipped window in time order (ties in scheduling order), awaiting each, and resolves once
 * they have run; later jobs are re-armed for the new time. A failing job goes to onError and does
 * not stop the others. Advances queue behind each other. Timers are unref'd: pending jobs (a
 * session expiring in 15 minutes) do not keep a process alive that has nothing else to do.
 */
export function createSystemClock(options: SystemClockOptions = {}): Clock {
  const onError =
    options.onError ?? ((error: unknown) => console.error('paysandbox: a scheduled job failed:', error))
  let offset = options.offsetMs ?? 0
  if (!Number.isFinite(offset) || offset < 0)
    throw new RangeError(`system clock: offsetMs must be a finite number >= 0, got ${offset}`)
  const now = () => Date.now() + offset
  /** Pending jobs, kept sorted by (time, scheduling order). */
  const pending: Job[] = []
  let nextSeq = 0
  let queue: Promise<unknown> = Promise.resolve()

  const insert = (job: Job) => {
    let lo = 0
    let hi = pending.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (before(pending[mid] as Job, job)) lo = mid + 1
      else hi = mid
    }
    pending.splice(lo, 0, job)
  }

  const take = (job: Job) => {
    job.done = true
    clearTimeout(job.timer)
    const i = pending.indexOf(job)
    if (i >= 0) pending.splice(i, 1)
  }

  const arm = (job: Job) => {
    const delay = job.at - now()
    if (delay > MAX_TIMER_MS) job.timer = setTimeout(() => arm(job), MAX_TIMER_MS)
    else
      job.timer = setTimeout(
        () => {
          if (job.done) return
          // Timers run on a monotonic clock and may fire a millisecond before Date.now() reaches `at`.
          if (now() < job.at) return arm(job)
          take(job)
          Promise.resolve()
            .then(job.fn)
            .catch((error) => onError(error))
        },
        Math.max(0, delay),
      )
    job.timer.unref()
  }

  async function skip(ms: number) {
    offset += ms
    const until = now()
    for (let job = pending[0]; job && job.at <= until; job = pending[0]) {
      take(job)
      try {
        await job.fn()
      } catch (error) {
        onError(error)
      }
    }
    // Their timers were set for the old offset: they would fire late.
    for (const job of pending) {
      clearTimeout(job.timer)
      arm(job)
    }
  }

  return {
    kind: 'system',
    now,
    at(at, fn) {
      if (!Number.isFinite(at))
        throw new RangeError(`system clock: a job time must be a finite number of ms, got ${at}`)
      const job: Job = { at, seq: nextSeq++, fn, done: false }
      insert(job)
      arm(job)
      return () => {
        if (!job.done) take(job)
      }
    },
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0)
        return Promise.reject(new RangeError(`system clock: advance(ms) takes a finite ms >= 0, got ${ms}`))
      const result = queue.then(() => skip(ms))
      queue = result.catch(() => {})
      return result
    },
  }
}
