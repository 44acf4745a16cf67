import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  createSystemClock,
  createVirtualClock,
  DEFAULT_VIRTUAL_START_MS,
  MAX_TIMER_MS,
} from '../../src/adapters/index.js'
import { describeClockContract } from './clock-contract.js'

/** Design rule "Time is virtual": "One `Clock` drives session expiry, callback retries and schedules." */

describeClockContract('virtual', () => {
  const clock = createVirtualClock()
  return { clock, pass: (ms) => clock.advance(ms) }
})

// Real delays: the test waits a little longer than the clock needs (timers are not exact).
describeClockContract('system', () => ({
  clock: createSystemClock(),
  pass: (ms) => new Promise((resolve) => setTimeout(resolve, ms + 15)),
}))

// Config schema: "`system`: time runs with the computer's clock, and `POST /sandbox/clock/advance` adds an offset."
describeClockContract('system, moved by advance()', () => {
  const clock = createSystemClock()
  return { clock, pass: (ms) => clock.advance(ms) }
})

describe('virtual clock', () => {
  it('stands still until advanced, then moves by exactly the amount', async () => {
    const clock = createVirtualClock(1_000)
    expect(clock.now()).toBe(1_000)
    expect(createVirtualClock().now()).toBe(DEFAULT_VIRTUAL_START_MS)
    await clock.advance(0)
    await clock.advance(250)
    expect(clock.now()).toBe(1_250)
  })

  it("sets now() to each job's time while it runs, then to the end of the window", async () => {
    const clock = createVirtualClock(0)
    const seen: number[] = []
    for (const t of [30, 10]) clock.at(t, () => void seen.push(clock.now()))
    await clock.advance(100)
    expect(seen).toEqual([10, 30])
    expect(clock.now()).toBe(100)
  })

  it('runs ties in scheduling order', async () => {
    const clock = createVirtualClock(0)
    const order: string[] = []
    for (const name of ['a', 'b', 'c']) clock.at(50, () => void order.push(name))
    await clock.advance(50)
    expect(order).toEqual(['a', 'b', 'c'])
  })

  it('runs jobs that jobs schedule inside the window, in time order; later ones wait', async () => {
    const clock = createVirtualClock(0)
    const order: string[] = []
    clock.at(10, () => {
      order.push('10')
      clock.at(15, () => void order.push('15 (from 10)'))
      clock.at(200, () => void order.push('200'))
    })
    clock.at(20, () => void order.push('20'))
    await clock.advance(100)
    expect(order).toEqual(['10', '15 (from 10)', '20'])
    expect(clock.pending()).toBe(1)
    await clock.advance(100)
    expect(order.at(-1)).toBe('200')
  })

  it('awaits async jobs one after another', async () => {
    const clock = createVirtualClock(0)
    const log: string[] = []
    clock.at(1, async () => {
      log.push('first start')
      await new Promise((r) => setTimeout(r, 10))
      log.push('first end')
    })
    clock.at(2, () => void log.push('second'))
    await clock.advance(5)
    expect(log).toEqual(['first start', 'first end', 'second'])
  })

  it('runs a past job on the next advance(0) without moving time back', async () => {
    const clock = createVirtualClock(1_000)
    const seen: number[] = []
    clock.at(500, () => void seen.push(clock.now()))
    await clock.advance(0)
    expect(seen).toEqual([1_000])
  })

  it('queues concurrent advances one after the other', async () => {
    const clock = createVirtualClock(0)
    const seen: number[] = []
    clock.at(15, () => void seen.push(clock.now()))
    await Promise.all([clock.advance(10), clock.advance(10)])
    expect(clock.now()).toBe(20)
    expect(seen).toEqual([15])
  })

  it('a failing job does not stop the others; advance() rejects with its error', async () => {
    const clock = createVirtualClock(0)
    let after = 0
    clock.at(1, () => {
      throw new Error('job broke')
    })
    clock.at(2, () => void after++)
    await expect(clock.advance(10)).rejects.toThrow('job broke')
    expect(after).toBe(1)
    expect(clock.now()).toBe(10)
    clock.at(11, () => Promise.reject(new Error('one')))
    clock.at(12, () => Promise.reject(new Error('two')))
    await expect(clock.advance(10)).rejects.toBeInstanceOf(AggregateError)
    await clock.advance(1)
  })

  it('refuses a negative advance and a time that is not a number', async () => {
    const clock = createVirtualClock(0)
    await expect(clock.advance(-1)).rejects.toThrow(RangeError)
    expect(() => clock.at(Number.NaN, () => {})).toThrow(RangeError)
  })
})

describe('system clock', () => {
  afterEach(() => {
    // In this order: the spy wraps the fake setTimeout, so it goes before the real one returns.
    vi.restoreAllMocks()
    vi.useRealTimers()
  })

  // Config schema: "`system`: time runs with the computer's clock, and `POST /sandbox/clock/advance` adds an offset."
  it('advance() adds an offset to real time', async () => {
    const clock = createSystemClock()
    const before = Date.now()
    await clock.advance(3_600_000)
    const ahead = clock.now() - Date.now()
    expect(ahead).toBeGreaterThanOrEqual(3_600_000 - 5)
    expect(ahead).toBeLessThanOrEqual(3_600_000)
    expect(clock.now()).toBeGreaterThanOrEqual(before + 3_600_000)
    const resumed = createSystemClock({ offsetMs: 86_400_000 })
    expect(resumed.now() - Date.now()).toBeGreaterThanOrEqual(86_400_000 - 5)
    expect(() => createSystemClock({ offsetMs: -1 })).toThrow(RangeError)
  })

  it('runs the jobs due within the advanced window, in order, before advance() resolves', async () => {
    const clock = createSystemClock()
    const t = clock.now()
    const order: string[] = []
    clock.at(t + 3 * 3_600_000, () => void order.push('3h'))
    clock.at(t + 60_000, async () => {
      await new Promise((r) => setTimeout(r, 5))
      order.push('1m')
      // scheduled by a job, still inside the window: runs in the same advance
      clock.at(t + 120_000, () => void order.push('2m (from 1m)'))
    })
    clock.at(t + 3_600_000, () => void order.push('1h'))
    clock.at(t + 3_600_000, () => void order.push('1h, second'))
    clock.at(t + 86_400_000, () => void order.push('1d'))
    await clock.advance(3 * 3_600_000 + 1_000)
    expect(order).toEqual(['1m', '2m (from 1m)', '1h', '1h, second', '3h'])
  })

  // Rule book, callbacks: "Advancing the clock runs every attempt that falls due, not one per callback" (issue 25 item 6).
  it("sets now() to each job's time while advance() runs it, so a job's follow-up inside the window runs too", async () => {
    const clock = createSystemClock()
    const t = clock.now()
    const seen: number[] = []
    const retry = (n: number) => () => {
      seen.push(clock.now() - t)
      if (n < 4) clock.at(clock.now() + 60_000, retry(n + 1))
    }
    clock.at(t + 60_000, retry(1))
    await clock.advance(3_600_000)
    expect(seen).toHaveLength(4)
    for (const [i, at] of seen.entries()) expect(Math.abs(at - (i + 1) * 60_000)).toBeLessThan(1_000)
    expect(clock.now() - t).toBeGreaterThanOrEqual(3_600_000)
  })

  it('re-arms later jobs for the new time, so they fire that much sooner', async () => {
    const clock = createSystemClock()
    let ran = 0
    clock.at(clock.now() + 3_600_000, () => void ran++)
    await clock.advance(3_600_000 - 30)
    expect(ran).toBe(0)
    // Due 30 ms from now, not in an hour: the bound only reports a hang (a starved machine fires late).
    await vi.waitFor(() => expect(ran).toBe(1), { timeout: 30_000, interval: 10 })
  })

  it('hands a failing job to onError during advance() and runs the others', async () => {
    const errors: unknown[] = []
    const clock = createSystemClock({ onError: (e) => errors.push(e) })
    let after = 0
    clock.at(clock.now() + 1_000, () => {
      throw new Error('job broke')
    })
    clock.at(clock.now() + 2_000, () => void after++)
    await clock.advance(5_000)
    expect(after).toBe(1)
    expect(errors.map((e) => (e as Error).message)).toEqual(['job broke'])
  })

  it('refuses a negative or non-finite advance', async () => {
    const clock = createSystemClock()
    await expect(clock.advance(-1)).rejects.toThrow(RangeError)
    await expect(clock.advance(Number.POSITIVE_INFINITY)).rejects.toThrow(RangeError)
  })

  it('waits longer than setTimeout can (2^31-1 ms) by chaining timers', () => {
    vi.useFakeTimers()
    // Fake timers accept any delay; Node's real setTimeout would fire a longer one after 1 ms.
    const setTimer = vi.spyOn(globalThis, 'setTimeout')
    const clock = createSystemClock()
    let ran = 0
    clock.at(Date.now() + MAX_TIMER_MS * 2, () => void ran++)
    vi.advanceTimersByTime(MAX_TIMER_MS)
    expect(ran).toBe(0)
    vi.advanceTimersByTime(MAX_TIMER_MS - 1)
    expect(ran).toBe(0)
    vi.advanceTimersByTime(1)
    expect(Math.max(...setTimer.mock.calls.map((call) => Number(call[1])))).toBeLessThanOrEqual(MAX_TIMER_MS)
    return vi.waitFor(() => expect(ran).toBe(1))
  })

  it("hands a job's error to onError instead of leaving it unhandled", async () => {
    const errors: unknown[] = []
    const clock = createSystemClock({ onError: (e) => errors.push(e) })
    clock.at(clock.now(), () => Promise.reject(new Error('late')))
    clock.at(clock.now(), () => {
      throw new Error('sync')
    })
    await new Promise((r) => setTimeout(r, 20))
    expect(errors.map((e) => (e as Error).message).sort()).toEqual(['late', 'sync'])
  })
})
