import type { Clock } from '../../core/ports/clock.js'

export interface VirtualClock extends Clock {
  readonly kind: 'virtual'
  /** Jobs scheduled and not yet run or cancelled. */
  pending(): number
}

interface Job {
  at: number
  seq: number
  fn: () => void | Promise<void>
  done: boolean
}

const before = (a: Job, b: Job) => a.at < b.at || (a.at === b.at && a.seq < b.seq)

/** 2020-01-01T00:00:00Z: a fixed default start, so that runs without a start time repeat exactly. */
export const DEFAULT_VIRTUAL_START_MS = Date.UTC(2020, 0, 1)

/**
 * Time that moves only when told (tests, scenarios, a sandbox told to use virtual time).
 *
 * advance(ms) runs every job due up to now()+ms in time order (ties in scheduling order), one
 * after another, awaiting each, with now() set to the job's time while it runs; jobs that jobs
 * schedule inside the window run in the same advance. A job for a time already reached (past or
 * present) is due at once: it runs on the next advance, advance(0) included, with now() unchanged
 * (time never goes back). It never runs inside at() itself, whose caller may be mid-change.
 * A job that throws does not stop the others; advance() then rejects with its error (an
 * AggregateError when several failed). Calls to advance() queue behind each other, so a job must
 * not await advance() (it would wait for itself).
 */
export function createVirtualClock(startMs: number = DEFAULT_VIRTUAL_START_MS): VirtualClock {
  assertTime(startMs, 'start time')
  let now = startMs
  let nextSeq = 0
  const heap = createHeap()
  let live = 0
  let queue: Promise<unknown> = Promise.resolve()

  const nextDue = (until: number): Job | undefined => {
    for (let job = heap.peek(); job && job.at <= until; job = heap.peek()) {
      heap.pop()
      if (!job.done) return job
    }
    return undefined
  }

  async function run(ms: number) {
    const until = now + ms
    const errors: unknown[] = []
    for (let job = nextDue(until); job; job = nextDue(until)) {
      job.done = true
      live--
      now = Math.max(now, job.at)
      try {
        await job.fn()
      } catch (error) {
        errors.push(error)
      }
    }
    now = until
    if (errors.length === 1) throw errors[0]
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} clock jobs failed`)
  }

  return {
    kind: 'virtual',
    now: () => now,
    at(at, fn) {
      assertTime(at, 'job time')
      const job: Job = { at, seq: nextSeq++, fn, done: false }
      heap.push(job)
      live++
      return () => {
        if (job.done) return
        job.done = true
        live--
      }
    },
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0)
        return Promise.reject(new RangeError(`virtual clock: advance(ms) takes a finite ms >= 0, got ${ms}`))
      const result = queue.then(() => run(ms))
      queue = result.catch(() => {})
      return result
    },
    pending: () => live,
  }
}

function assertTime(ms: number, what: string) {
  if (!Number.isFinite(ms))
    throw new RangeError(`virtual clock: the ${what} must be a finite number of ms, got ${ms}`)
}

/** A binary min-heap on (time, scheduling order); cancelled jobs are dropped when they surface. */
function createHeap() {
  const items: Job[] = []
  const swap = (i: number, j: number) => {
    const t = items[i] as Job
    items[i] = items[j] as Job
    items[j] = t
  }
  return {
    peek: (): Job | undefined => items[0],
    push(job: Job) {
      items.push(job)
      for (let i = items.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1
        if (!before(items[i] as Job, items[parent] as Job)) break
        swap(i, parent)
        i = parent
      }
    },
    pop() {
      const last = items.pop()
      if (!last || items.length === 0) return
      items[0] = last
      for (let i = 0; ; ) {
        const l = 2 * i + 1
        const r = l + 1
        let min = i
        if (l < items.length && before(items[l] as Job, items[min] as Job)) min = l
        if (r < items.length && before(items[r] as Job, items[min] as Job)) min = r
        if (min === i) return
        swap(i, min)
        i = min
      }
    },
  }
}
