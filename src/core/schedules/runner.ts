import type { EngineContext } from '../engine/context.js'
import { GatewayError } from '../engine/errors.js'
import { isZeroAmount } from '../engine/format.js'
import type { Chain, ChainRun, Payment, Schedule } from '../engine/model.js'
import { chargeRecurring } from './charge-recurring.js'
import { plan } from './chain-calendar.js'
import { chainsOf } from './chains.js'
import { inCurrency, trialOf } from './params.js'

/**
 * Runs scheduled payments on the sandbox clock. Each active chain of a running schedule has one
 * clock job, at its `next_run_at`; the job makes that payment and arms the next one. The virtual
 * clock runs jobs in time order, including jobs armed during the same advance, so a jump over
 * many periods makes every payment in order. Exactly once: the job claims its run in the store
 * (runs_done, next_run_at) before charging, and a job whose time is no longer the chain's
 * `next_run_at` (re-armed, paused, restarted from the store) does nothing.
 */
export interface ScheduleRunner {
  /** Re-arms the chain's job from its stored state (or cancels it when it should not run). */
  arm(chain: Chain): void
  armSchedule(scheduleId: string): void
  /** Arms every chain in the store: a restart on a persisted store. */
  armAll(): void
  disarmAll(): void
}

const runners = new WeakMap<EngineContext, ScheduleRunner>()

/** The started runner of this engine, if the schedules module runs. */
export const runnerOf = (ctx: EngineContext): ScheduleRunner | undefined => runners.get(ctx)

export function startRunner(ctx: EngineContext): ScheduleRunner {
  const jobs = new Map<string, () => void>()

  const cancel = (chainId: string) => {
    jobs.get(chainId)?.()
    jobs.delete(chainId)
  }

  const arm = (chain: Chain) => {
    cancel(chain.id)
    const due = chain.next_run_at
    if (chain.state !== 'active' || due === undefined) return
    if (ctx.store.get('schedules', chain.schedule_id)?.state !== 'running') return
    jobs.set(
      chain.id,
      ctx.clock.at(due, () => {
        jobs.delete(chain.id)
        runDue(ctx, chain.id, due, arm)
      }),
    )
  }

  const runner: ScheduleRunner = {
    arm,
    armSchedule: (scheduleId) => {
      for (const chain of chainsOf(ctx, scheduleId)) arm(chain)
    },
    armAll: () => {
      for (const chain of ctx.store.list('chains')) arm(chain)
    },
    disarmAll: () => {
      for (const id of [...jobs.keys()]) cancel(id)
    },
  }
  runners.set(ctx, runner)
  return runner
}

export function stopRunner(ctx: EngineContext): void {
  runners.get(ctx)?.disarmAll()
  runners.delete(ctx)
}

/** What the chain's `n`-th scheduled payment charges: the trial amount first (params.ts), then the chain's. */
function runAmount(schedule: Schedule, chain: Chain, n: number): { amount: string; trial: boolean } {
  const trial = trialOf(schedule.params)
  if (trial && n < trial.count) return { amount: inCurrency(trial.amount, chain.currency), trial: true }
  return { amount: chain.amount, trial: false }
}

/** The job of one due payment. */
function runDue(ctx: EngineContext, chainId: string, due: number, arm: (chain: Chain) => void): void {
  const chain = ctx.store.get('chains', chainId)
  if (chain?.state !== 'active' || chain.next_run_at !== due) return
  const schedule = ctx.store.get('schedules', chain.schedule_id)
  if (schedule?.state !== 'running') return
  const initial = ctx.store.get('payments', chain.id)
  const n = chain.runs_done
  const { amount, trial } = runAmount(schedule, chain, n)
  const run: ChainRun = { n, due_at: due, amount, trial, status: 'free' }

  // Claim the run first, in the same synchronous step: nothing can charge it a second time.
  chain.runs_done = n + 1
  chain.steps += 1
  chain.runs.push(run)
  chain.updated_at = ctx.clock.now()
  plan(schedule, chain, due)
  ctx.store.put('chains', chain)

  // A zero amount (a free trial, a zero initial amount with no payment_schedule_amount): counted, not charged.
  if (!isZeroAmount(amount)) charge(ctx, chain, run, initial)
  arm(chain)
}

function charge(ctx: EngineContext, chain: Chain, run: ChainRun, initial: Payment | undefined) {
  try {
    if (!initial) throw new Error('initial payment missing')
    const payment = chargeRecurring(ctx, initial, { amount: run.amount, schedule_id: chain.schedule_id })
    run.status = 'charged'
    run.payment_id = payment.id
  } catch (error) {
    // No merchant request to answer: the failure is logged and kept on the run.
    run.status = 'error'
    ctx.logger.error('scheduled payment not made', {
      chain_id: chain.id,
      schedule_id: chain.schedule_id,
      n: run.n,
      error:
        error instanceof GatewayError ? error.entry.error_message : String((error as Error)?.stack ?? error),
    })
  }
  ctx.store.put('chains', chain)
}
