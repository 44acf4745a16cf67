import type { SandboxFaultRequest } from '../../generated/types.js'
import type { EngineContext } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import { type GatewayRequest, type GatewayResponse, jsonResponse } from '../engine/http.js'
import type { EngineModule } from '../engine/modules.js'
import { declareControlRoute } from '../engine/pipeline.js'

/**
 * Gateway faults (docs/conformance.md, Gateway faults): the next N requests that match a route
 * (method, path) or an S2S action time out, answer 5xx, lose their connection, or succeed while
 * their answer is lost. Real gateways do all four; a merchant recovers with the status lookup,
 * never by sending a payment again blindly.
 *
 * The rules live in memory beside the engine (they are test controls, not records: a reset or a
 * restart forgets them). The request lifecycle calls `withFaults` once (gateway.handle); an
 * adapter honours the one thing the engine cannot do itself: `fault: 'drop'` on the response,
 * which closes the connection without an answer.
 */

export type FaultMode = SandboxFaultRequest['mode']

export interface FaultRule {
  id: string
  mode: FaultMode
  match: { method?: string; path?: string; action?: string }
  /** Requests still to fail. */
  remaining: number
  seconds: number
  status?: number
  /** Requests this rule made fail so far. */
  hits: number
}

/** What a response carries when a fault took its answer away: adapters close the connection. */
export type FaultEffect = 'drop'

/** The header every injected answer carries, so logs and the kit never take a fault for the gateway's word. */
export const FAULT_HEADER = 'sandbox-fault'

/** Thrown by adapters that cannot close a connection (fetch): the caller sees a network error. */
export class ConnectionDropped extends TypeError {
  constructor(readonly mode: FaultMode) {
    super(`fetch failed: the connection was dropped (sandbox fault: ${mode})`)
  }
}

interface FaultTable {
  rules: FaultRule[]
  next: number
}

const tables = new WeakMap<EngineContext, FaultTable>()
const tableOf = (ctx: EngineContext): FaultTable => {
  let table = tables.get(ctx)
  if (!table) {
    table = { rules: [], next: 1 }
    tables.set(ctx, table)
  }
  return table
}

/** The rules in force, oldest first (a copy). */
export const listFaults = (ctx: EngineContext): FaultRule[] => tableOf(ctx).rules.map((r) => ({ ...r }))

/** Adds a rule; answers it. */
export function addFault(ctx: EngineContext, request: SandboxFaultRequest): FaultRule {
  const table = tableOf(ctx)
  const rule: FaultRule = {
    id: `fault-${table.next++}`,
    mode: request.mode,
    match: { ...(request.match ?? {}) },
    remaining: request.count ?? 1,
    seconds: request.seconds ?? 30,
    ...(request.status !== undefined ? { status: request.status } : {}),
    hits: 0,
  }
  table.rules.push(rule)
  return { ...rule }
}

/** Removes one rule (by id) or all; answers how many were removed. */
export function clearFaults(ctx: EngineContext, id?: string): number {
  const table = tableOf(ctx)
  const before = table.rules.length
  table.rules = id === undefined ? [] : table.rules.filter((r) => r.id !== id)
  return before - table.rules.length
}

function actionOf(body: unknown): string | undefined {
  const action = body && typeof body === 'object' ? (body as Record<string, unknown>).action : undefined
  return typeof action === 'string' ? action : undefined
}

function take(ctx: EngineContext, request: GatewayRequest, body: unknown): FaultRule | undefined {
  const table = tables.get(ctx)
  if (!table?.rules.length || request.path.startsWith('/sandbox/')) return undefined
  const action = actionOf(body)
  const rule = table.rules.find(
    (r) =>
      (!r.match.method || r.match.method === request.method) &&
      (!r.match.path || r.match.path === request.path) &&
      (!r.match.action || r.match.action === action),
  )
  if (!rule) return undefined
  rule.remaining--
  rule.hits++
  if (rule.remaining <= 0) table.rules.splice(table.rules.indexOf(rule), 1)
  return rule
}

/** A proxy's page in front of the gateway: what a merchant meets when the gateway is down. */
const errorPage = (status: number, mode: FaultMode): GatewayResponse => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', [FAULT_HEADER]: mode },
  body: `<html><head><title>${status} Service Unavailable</title></head><body><h1>${status} Service Unavailable</h1><p>The gateway did not answer in time.</p></body></html>`,
})

const dropped = (mode: FaultMode): GatewayResponse => ({
  status: 504,
  headers: { [FAULT_HEADER]: mode },
  body: '',
  fault: 'drop',
})

/** Time passes on the sandbox's clock: a virtual clock moves on, a system clock is waited for. */
async function wait(ctx: EngineContext, seconds: number): Promise<void> {
  if (ctx.clock.kind === 'virtual') await ctx.clock.advance(seconds * 1000)
  else await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
}

/**
 * The lifecycle's one hook: `run` is the request's normal handling. A matching rule answers
 * instead (timeout, error, drop: nothing done), or lets it run and loses the answer (lost).
 */
export async function withFaults(
  ctx: EngineContext,
  request: GatewayRequest,
  body: unknown,
  run: () => Promise<GatewayResponse>,
): Promise<GatewayResponse> {
  const rule = take(ctx, request, body)
  if (!rule) return run()
  ctx.logger.warn('sandbox fault injected', { id: rule.id, mode: rule.mode, path: request.path })
  switch (rule.mode) {
    case 'error':
      return errorPage(rule.status ?? 503, 'error')
    case 'drop':
      return dropped('drop')
    case 'timeout':
      await wait(ctx, rule.seconds)
      return dropped('timeout')
    case 'lost': {
      await run()
      return rule.status !== undefined ? errorPage(rule.status, 'lost') : dropped('lost')
    }
  }
}

const view = (rule: FaultRule) => ({
  id: rule.id,
  mode: rule.mode,
  match: rule.match,
  remaining: rule.remaining,
  ...(rule.mode === 'timeout' ? { seconds: rule.seconds } : {}),
  ...(rule.status !== undefined ? { status: rule.status } : {}),
  hits: rule.hits,
})

/** POST /sandbox/faults, GET /sandbox/faults, DELETE /sandbox/faults[/:id] (plain envelope). */
export const faultsModule: EngineModule = {
  name: 'faults',
  routes: (ctx) => [
    declareControlRoute<SandboxFaultRequest>({
      method: 'POST',
      path: '/sandbox/faults',
      summary:
        'Make the next N matching requests time out, answer 5xx, drop the connection, or lose their answer',
      pipeline: { schema: 'sandbox/fault-request' },
      response: 'control/fault-response',
      status: 201,
      handler: ({ input }) => jsonResponse(201, { fault: view(addFault(ctx, input)) }),
    }),
    declareControlRoute({
      method: 'GET',
      path: '/sandbox/faults',
      summary: 'The gateway faults still to happen',
      pipeline: {},
      response: 'control/faults-response',
      handler: () => jsonResponse(200, { faults: listFaults(ctx).map(view) }),
    }),
    declareControlRoute({
      method: 'DELETE',
      path: '/sandbox/faults',
      summary: 'Forget every gateway fault still to happen',
      pipeline: {},
      response: 'control/faults-removed-response',
      handler: () => jsonResponse(200, { removed: clearFaults(ctx) }),
    }),
    declareControlRoute({
      method: 'DELETE',
      path: '/sandbox/faults/:id',
      summary: 'Forget one gateway fault',
      pipeline: {},
      response: 'control/faults-removed-response',
      handler: ({ params }) => {
        const removed = clearFaults(ctx, params.id)
        if (!removed) throw fail('SANDBOX_FAULT_NOT_FOUND')
        return jsonResponse(200, { removed })
      },
    }),
  ],
}
