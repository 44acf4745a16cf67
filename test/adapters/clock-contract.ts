import { describe, expect, it } from 'vitest'
import type { Clock } from '../../src/core/ports/clock.js'

/**
 * Design rule: "each port has one contract test suite that every implementation must pass (...
 * `clock`: virtual and system ...)". Comments quote ports/clock.ts.
 */
export interface ClockDriver {
  clock: Clock
  /** Lets `ms` of the clock's time pass and every job due by then run. */
  pass(ms: number): Promise<void>
}

export function describeClockContract(name: string, make: () => ClockDriver) {
  describe(`Clock contract: ${name}`, () => {
    it('tells the time in epoch milliseconds, never going back', async () => {
      const { clock, pass } = make()
      const t0 = clock.now()
      expect(Number.isInteger(t0) && t0 > Date.UTC(2000, 0, 1)).toBe(true)
      await pass(20)
      expect(clock.now()).toBeGreaterThanOrEqual(t0 + 20)
    })

    it('runs a job once the clock reaches its time, not before ("Runs `fn` once the clock reaches `at`")', async () => {
      const { clock, pass } = make()
      const due = clock.now() + 30
      const seen: number[] = []
      clock.at(due, () => {
        seen.push(clock.now())
      })
      await pass(5)
      // A loaded machine may oversleep a real wait: only while the time has not come must it not have run.
      if (clock.now() < due) expect(seen).toEqual([])
      await pass(40)
      expect(seen).toHaveLength(1)
      expect(seen[0]).toBeGreaterThanOrEqual(due)
    })

    it('runs jobs in time order, whatever the order they were scheduled in', async () => {
      const { clock, pass } = make()
      const t = clock.now()
      const order: string[] = []
      clock.at(t + 40, () => void order.push('40'))
      clock.at(t + 5, () => void order.push('5'))
      clock.at(t + 20, () => void order.push('20'))
      await pass(50)
      expect(order).toEqual(['5', '20', '40'])
    })

    it('a cancelled job never runs ("returns a cancel function"); cancelling twice is harmless', async () => {
      const { clock, pass } = make()
      let ran = 0
      const cancel = clock.at(clock.now() + 10, () => void ran++)
      clock.at(clock.now() + 10, () => void ran++)
      cancel()
      cancel()
      await pass(30)
      expect(ran).toBe(1)
    })

    it('runs a job whose time has passed on the next tick of the clock, never inside at()', async () => {
      const { clock, pass } = make()
      let ran = 0
      clock.at(clock.now() - 1000, () => void ran++)
      expect(ran).toBe(0)
      await pass(0)
      expect(ran).toBe(1)
    })
  })
}
