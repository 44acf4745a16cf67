import type { SandboxPayerReturnRequest, SandboxSchedulesQuery } from '../../generated/types.js'
import type { EngineContext } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import { formatDateTime } from '../engine/format.js'
import { jsonResponse } from '../engine/http.js'
import type { Chain, Schedule } from '../engine/model.js'
import type { RouteDefinition } from '../engine/modules.js'
import { declareControlRoute } from '../engine/pipeline.js'
import { chainsOf } from '../schedules/chains.js'
import { pauseSchedule, runSchedule } from '../schedules/lifecycle.js'

/** A chain as the schedules view shows it: its initial payment, state and next run. */
const chainView = (chain: Chain) => ({
  id: chain.id,
  initial_payment_id: chain.id,
  state: chain.state,
  amount: chain.amount,
  currency: chain.currency,
  runs_done: chain.runs_done,
  runs: chain.runs,
  ...(chain.next_run_at !== undefined
    ? { next_run_at: chain.next_run_at, next_run: formatDateTime(chain.next_run_at) }
    : {}),
})

const scheduleView = (ctx: EngineContext, schedule: Schedule) => {
  const chains = chainsOf(ctx, schedule.id).map(chainView)
  const next = chains.flatMap((c) =>
    c.next_run_at !== undefined && c.state === 'active' ? [c.next_run_at] : [],
  )
  const nextRun = next.length ? Math.min(...next) : undefined
  return {
    ...schedule,
    chains,
    ...(nextRun !== undefined && schedule.state === 'running' ? { next_run: formatDateTime(nextRun) } : {}),
  }
}

/** A schedule that pause and run may act on: a deleted one answers as missing, as the S2S actions do (2.3). */
function liveSchedule(ctx: EngineContext, id: string | undefined): Schedule {
  const schedule = id ? ctx.store.get('schedules', id) : undefined
  if (!schedule || schedule.state === 'deleted') throw fail('SANDBOX_SCHEDULE_NOT_FOUND')
  return schedule
}

/**
 * Schedules for the operator (the admin panel's role): every merchant's, with their chains, and
 * pause/run through the same lifecycle as the S2S PAUSE and RUN actions (schedules/lifecycle.ts).
 */
export function scheduleRoutes(ctx: EngineContext): RouteDefinition[] {
  const act = (path: string, summary: string, move: typeof pauseSchedule): RouteDefinition =>
    declareControlRoute<SandboxPayerReturnRequest, Schedule>({
      method: 'POST',
      path,
      summary,
      pipeline: { schema: 'sandbox/payer-return-request', load: (c, params) => liveSchedule(c, params.id) },
      response: 'control/schedule-response',
      handler: ({ loaded: schedule }) => {
        move(ctx, schedule)
        return jsonResponse(200, scheduleView(ctx, liveSchedule(ctx, schedule.id)))
      },
    })
  return [
    declareControlRoute<SandboxSchedulesQuery>({
      method: 'GET',
      path: '/sandbox/schedules',
      summary: 'Schedules, newest first, with their chains (initial payment, state, next run)',
      pipeline: { query: 'sandbox/schedules-query' },
      response: 'control/schedules-response',
      handler: ({ input: query }) => {
        const found = (
          query.merchant
            ? ctx.store.findBy('schedules', 'merchant_key', query.merchant)
            : ctx.store.list('schedules')
        )
          .filter((s) => !query.state || s.state === query.state)
          .sort((a, b) => b.created_at - a.created_at)
        return jsonResponse(200, { schedules: found.map((s) => scheduleView(ctx, s)), total: found.length })
      },
    }),
    act(
      '/sandbox/schedules/:id/pause',
      'Pause a schedule: no scheduled payment is made until it runs again',
      pauseSchedule,
    ),
    act(
      '/sandbox/schedules/:id/run',
      'Run a paused schedule again (payments due while paused are not made up)',
      runSchedule,
    ),
  ]
}
