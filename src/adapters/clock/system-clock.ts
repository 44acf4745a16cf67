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
  /** Position in the heap; -1 once run or cancelled. */
  index: number
}

const before = (a: Job, b: Job) => a.at < b.at || (a.at === b.at && a.seq < b.seq)

/**
 * Real time, for `serve`, plus an offset: advance(ms) moves the clock ahead of the computer's
 * (config schema: "POST /sandbox/clock/advance adds an offset") and runs every job that falls due
 * in the skipped window in time order (ties in scheduling order), awaiting each, with now() at
 * the job's time while it runs (as the virtual clock does), so a job that schedules another
 * inside the window sees it run in the same advance: a callback retried at 1, 5 and 15 minutes
 * gets all of its attempts from one advance of an hour (rule book, callbacks: "Advancing the
 * clock runs every attempt that falls due"). advance() resolves once they have run, with now()
 * at the end of the window. A failing job goes to onError and does not stop the others. Advances
 * queue behind each other.
 *
 * Pending jobs sit in a binary heap (a cancelled job leaves it at once), behind one timer for
 * the earliest: scheduling and cancelling cost O(log n), and thousands of pending jobs (session
 * expiries, callback retries) cost no timers and no work until one is due. The timer is unref'd:
 * pending jobs do not keep a process alive that has nothing else to do.
 */
export function createSystemClock(options: SystemClockOptions = {}): Clock {
  const onError =
    options.onError ?? ((error: unknown) => console.error('paysandbox: a scheduled job failed:', error))
  let offset = options.offsetMs ?? 0
  if (!Number.isFinite(offset) || offset < 0)
    throw new RangeError(`system clock: offsetMs must be a finite number >= 0, got ${offset}`)
  const now = () => Date.now() + offset
  const heap = createHeap()
  let nextSeq = 0
  let queue: Promise<unknown> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined
  let timerAt = Number.POSITIVE_INFINITY
  let advancing = false

  const start = (job: Job) => {
    Promise.resolve()
      .then(job.fn)
      .catch((error) => onError(error))
  }

  /** Runs what is due, then sets the one timer for the earliest job left. */
  function tick() {
    timer = undefined
    timerAt = Number.POSITIVE_INFINITY
    if (advancing) return // the advance re-arms when it is done
    // Timers run on a monotonic clock and may fire a millisecond before Date.now() reaches `at`.
    const t = now()
    for (let job = heap.peek(); job && job.at <= t; job = heap.peek()) {
      heap.remove(job)
      start(job)
    }
    arm()
  }

  function arm() {
    const first = heap.peek()
    if (!first || advancing) {
      if (timer) clearTimeout(timer)
      timer = undefined
      timerAt = Number.POSITIVE_INFINITY
      return
    }
    if (timer && timerAt <= first.at) return
    if (timer) clearTimeout(timer)
    timerAt = first.at
    const delay = Math.max(0, first.at - now())
    timer = setTimeout(tick, Math.min(delay, MAX_TIMER_MS))
    timer.unref()
  }

  async function skip(ms: number) {
    const target = offset + ms
    const until = now() + ms
    advancing = true
    if (timer) clearTimeout(timer)
    timer = undefined
    timerAt = Number.POSITIVE_INFINITY
    try {
      for (let job = heap.peek(); job && job.at <= until; job = heap.peek()) {
        heap.remove(job)
        // now() is the job's time while it runs (never back: an overdue job runs at the present).
        offset = Math.min(target, Math.max(offset, job.at - Date.now()))
        try {
          await job.fn()
        } catch (error) {
          onError(error)
        }
      }
    } finally {
      offset = Math.max(offset, target)
      advancing = false
      arm()
    }
  }

  return {
    kind: 'system',
    now,
    at(at, fn) {
      if (!Number.isFinite(at))
        throw new RangeError(`system clock: a job time must be a finite number of ms, got ${at}`)
      const job: Job = { at, seq: nextSeq++, fn, index: -1 }
      heap.push(job)
      arm()
      return () => {
        if (job.index < 0) return
        heap.remove(job)
        if (heap.size() === 0) arm()
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

/** A binary min-heap on (time, scheduling order) whose jobs know their place, so any can leave. */
function createHeap() {
  const items: Job[] = []
  const set = (i: number, job: Job) => {
    items[i] = job
    job.index = i
  }
  const up = (i: number) => {
    const job = items[i] as Job
    while (i > 0) {
      const parent = (i - 1) >> 1
      const p = items[parent] as Job
      if (!before(job, p)) break
      set(i, p)
      i = parent
    }
    set(i, job)
  }
  const down = (i: number) => {
    const job = items[i] as Job
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let min = i
      let minJob = job
      if (l < items.length && before(items[l] as Job, minJob)) {
        min = l
        minJob = items[l] as Job
      }
      if (r < items.length && before(items[r] as Job, minJob)) {
        min = r
        minJob = items[r] as Job
      }
      if (min === i) break
      set(i, minJob)
      i = min
    }
    set(i, job)
  }
  return {
    size: () => items.length,
    peek: (): Job | undefined => items[0],
    push(job: Job) {
      items.push(job)
      up(items.length - 1)
    },
    remove(job: Job) {
      const i = job.index
      if (i < 0) return
      job.index = -1
      const last = items.pop() as Job
      if (i === items.length) return
      set(i, last)
      up(i)
      down(last.index)
    },
  }
}
