import type { SandboxClockAdvanceRequest } from '../../generated/types.js'
import type { EngineContext } from '../engine/context.js'
import { eventHistory } from '../engine/event-history.js'
import { formatDateTime } from '../engine/format.js'
import { jsonResponse } from '../engine/http.js'
import type { RouteDefinition } from '../engine/modules.js'
import { declareControlRoute } from '../engine/pipeline.js'
import { validated } from '../engine/request-validation.js'
import { responseChecks } from '../engine/response-check.js'
import { SECOND } from '../ports/clock.js'

/** What the clock answers: the control API, the CLI and the terminal UI show the same thing. */
export const clockView = (ctx: EngineContext) => {
  const now = ctx.clock.now()
  return { mode: ctx.clock.kind, now: formatDateTime(now), now_ms: now }
}

/**
 * Remembers the clock's time in the store, so a sandbox restarted on the same data file resumes
 * from it instead of going back (virtual clock) or losing its offset (system clock).
 */
export function rememberClock(ctx: EngineContext): void {
  const meta = ctx.store.get('meta', 'meta')
  ctx.store.put('meta', { id: 'meta', seq: meta?.seq ?? 0, clock_ms: ctx.clock.now() })
}

/** docs/rules.md#control-api: `GET /sandbox/health`, `GET /sandbox/clock`, `POST /sandbox/clock/advance {"seconds": n}`. */
export function clockRoutes(ctx: EngineContext): RouteDefinition[] {
  return [
    declareControlRoute({
      method: 'GET',
      path: '/sandbox/health',
      summary:
        'Ready check: 200 with the sandbox time and clock mode; status degraded, store unwritable while the disk refuses writes (reads still answer)',
      pipeline: {},
      response: 'control/health-response',
      handler: ({ request }) => {
        const now = formatDateTime(ctx.clock.now())
        const checks = responseChecks(ctx)
        const responses = checks.enabled
          ? { responses: { checked: checks.checked, mismatches: checks.mismatches } }
          : {}
        // Issue 22: what a memory store with --retain has forgotten, undelivered callbacks included.
        const retention = ctx.store.retention ? { retention: ctx.store.retention.stats() } : {}
        // docs/rules.md#connections: the HTTP server's connections (when served over HTTP) and the event streams.
        const connections = request.connections ? { connections: request.connections() } : {}
        const streams = { event_streams: eventHistory(ctx).stats() }
        // Issue 11 point 5: a full disk is not "down": reads answer, writes get 503 until it recovers.
        const state = ctx.store.writable
          ? { status: 'ok' as const }
          : { status: 'degraded' as const, store: 'unwritable' as const }
        return jsonResponse(200, {
          ...state,
          now,
          clock: ctx.clock.kind,
          ...responses,
          ...retention,
          ...connections,
          ...streams,
        })
      },
    }),
    declareControlRoute({
      method: 'GET',
      path: '/sandbox/clock',
      summary: 'The sandbox clock: mode and current time',
      pipeline: {},
      response: 'control/clock-response',
      handler: () => jsonResponse(200, clockView(ctx)),
    }),
    declareControlRoute<SandboxClockAdvanceRequest>({
      method: 'POST',
      path: '/sandbox/clock/advance',
      summary: 'Move the clock ahead by {seconds}: due expiries, callback retries and scheduled payments run',
      pipeline: { schema: ADVANCE_SCHEMA },
      response: 'control/clock-advance-response',
      // The move is asynchronous (each due job runs as its own unit), so it is the route's declared
      // prepare step, before the synchronous answer; a refused body moves nothing.
      prepare: async ({ body }) => {
        const { seconds } = validated<SandboxClockAdvanceRequest>(ADVANCE_SCHEMA, body)
        try {
          await ctx.clock.advance(Math.round(seconds * SECOND))
        } catch (error) {
          // A job that fails is the engine's bug, not the caller's: time has moved all the same.
          ctx.logger.error('a clock job failed during advance', {
            error: String((error as Error)?.stack ?? error),
          })
        }
      },
      handler: ({ input: { seconds } }) => {
        rememberClock(ctx)
        const view = clockView(ctx)
        ctx.events.emit({ type: 'clock', now: view.now_ms, at: view.now_ms })
        return jsonResponse(200, { ...view, advanced_seconds: seconds })
      },
    }),
  ]
}

const ADVANCE_SCHEMA = 'sandbox/clock-advance-request'
