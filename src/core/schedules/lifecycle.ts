import type { EngineContext } from '../engine/context.js'
import type { Chain, Schedule } from '../engine/model.js'
import { plan, recalendar, resume } from './chain-calendar.js'
import { chainsOf } from './chains.js'
import { CALENDAR_PARAMS, mergeParams } from './params.js'
import { runnerOf } from './runner.js'

/**
 * What the schedule actions do to a schedule and its chains. States (sandbox definition; the
 * interface names running, paused, deleted without their moves): CREATE_SCHEDULE makes a running
 * schedule; PAUSE: running -> paused (no payment is made); RUN: paused -> running; DELETE_SCHEDULE:
 * running or paused -> deleted, final (every action then answers "Schedule not found", and its
 * chains stop). PAUSE of a paused and RUN of a running schedule change nothing.
 */

function save(ctx: EngineContext, schedule: Schedule, chains: Chain[]): void {
  const now = ctx.clock.now()
  ctx.store.put('schedules', { ...schedule, updated_at: now })
  for (const chain of chains) ctx.store.put('chains', { ...chain, updated_at: now })
  runnerOf(ctx)?.armSchedule(schedule.id)
}

/** Chains a schedule still runs, or may run again (a completed one whose payments_count grows). */
const liveChains = (ctx: EngineContext, schedule: Schedule) =>
  chainsOf(ctx, schedule.id).filter((c) => c.state === 'active' || c.state === 'completed')

/**
 * UPDATE_SCHEDULE: "only the parameters sent are changed" (2.3). A new interval or first-payment
 * rule moves the calendar of the chains (chain-calendar.ts `recalendar`); a new payments_count
 * ends or continues them; amounts and trial apply from the next payment.
 */
export function updateSchedule(ctx: EngineContext, schedule: Schedule, sent: Record<string, string>): void {
  const now = ctx.clock.now()
  const updated: Schedule = { ...schedule, params: mergeParams(schedule.params, sent) }
  const moved = Object.keys(sent).some((name) => CALENDAR_PARAMS.has(name))
  const chains = liveChains(ctx, updated)
  for (const chain of chains) {
    if (moved) recalendar(updated, chain, now)
    // A payment already due keeps its date (its job may not have fired yet on the system clock).
    else plan(updated, chain, chain.next_run_at ?? now)
  }
  save(ctx, updated, chains)
}

export function pauseSchedule(ctx: EngineContext, schedule: Schedule): void {
  if (schedule.state === 'paused') return
  save(ctx, { ...schedule, state: 'paused' }, [])
}

/** RUN: resumes; payments due while paused are not made up (chain-calendar.ts `resume`). */
export function runSchedule(ctx: EngineContext, schedule: Schedule): void {
  if (schedule.state === 'running') return
  const running: Schedule = { ...schedule, state: 'running' }
  const chains = chainsOf(ctx, schedule.id).filter((c) => c.state === 'active')
  for (const chain of chains) resume(running, chain, ctx.clock.now())
  save(ctx, running, chains)
}

export function deleteSchedule(ctx: EngineContext, schedule: Schedule): void {
  const chains = liveChains(ctx, schedule).map((chain): Chain => {
    const stopped: Chain = { ...chain, state: 'stopped' }
    delete stopped.next_run_at
    return stopped
  })
  save(ctx, { ...schedule, state: 'deleted' }, chains)
}

/** DESCHEDULE: the chain leaves the schedule; the schedule and its other chains go on. */
export function descheduleChain(ctx: EngineContext, chain: Chain): void {
  const detached: Chain = { ...chain, state: 'descheduled', updated_at: ctx.clock.now() }
  delete detached.next_run_at
  ctx.store.put('chains', detached)
  runnerOf(ctx)?.arm(detached)
}
