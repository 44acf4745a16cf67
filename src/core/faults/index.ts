import type { SandboxFaultRequest } from '../../generated/types.js'
import type { EngineContext } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import { type GatewayRequest, type GatewayResponse, jsonResponse } from '../engine/http.js'
import type { EngineModule } from '../engine/modules.js'
import { declareControlRoute } from '../engine/pipeline.js'
import { dropped, FAULT_HEADER, holdAnswer, proxyPage, waitOnClock } from './answers.js'
import {
  addFault,
  clearFaults,
  DEFAULT_HOLD_SECONDS,
  type FaultMode,
  type FaultRule,
  listFaults,
  takeFault,
} from './rules.js'

/**
 * Gateway faults (docs/conformance.md, Gateway faults): the next N requests that match a route
 * (method, path), an S2S action or a kind of request (every status lookup, every refund, ...)
 * time out, answer 5xx, lose their connection, are done while their answer is lost (dropped, or
 * replaced by a proxy's 502/503/504 page), or are done and answered late. Real gateways and the
 * proxies in front of them do all of these; a merchant recovers with the status lookup, never by
 * sending a payment, refund, capture or void again blindly.
 *
 * The request lifecycle calls `withFaults` once (gateway.handle); an adapter honours the one thing
 * the engine cannot do itself: `fault: 'drop'` on the response, which closes the connection
 * without an answer, and it tells the engine when its client goes away (`request.signal`), which
 * ends a held answer.
 */

export { FAULT_HEADER } from './answers.js'
export {
  addFault,
  clearFaults,
  DEFAULT_HOLD_SECONDS,
  DONE_MODES,
  type FaultKind,
  type FaultMode,
  type FaultRule,
  kindOf,
  listFaults,
} from './rules.js'

/** What a response carries when a fault took its answer away: adapters close the connection. */
export type FaultEffect = 'drop'

/** Thrown by adapters that cannot close a connection (fetch): the caller sees a network error. */
export class ConnectionDropped extends TypeError {
  constructor(readonly mode: FaultMode) {
    super(`fetch failed: the connection was dropped (sandbox fault: ${mode})`)
  }
}

const marked = (response: GatewayResponse, mode: FaultMode): GatewayResponse => ({
  ...response,
  headers: { ...response.headers, [FAULT_HEADER]: mode },
})

/**
 * The lifecycle's one hook: `run` is the request's normal handling. A matching rule answers
 * instead (timeout, error, drop: nothing done), or lets it run and loses the answer (lost), or
 * lets it run and holds the answer until the client gave up (late).
 */
export async function withFaults(
  ctx: EngineContext,
  request: GatewayRequest,
  body: unknown,
  run: () => Promise<GatewayResponse>,
): Promise<GatewayResponse> {
  const rule = takeFault(ctx, request, body)
  if (!rule) return run()
  ctx.logger.warn('sandbox fault injected', { id: rule.id, mode: rule.mode, path: request.path })
  switch (rule.mode) {
    case 'error':
      return proxyPage(rule.status ?? 503, 'error')
    case 'drop':
      return dropped('drop')
    case 'timeout':
      // With hold_seconds the merchant's own client times out for real; the clock moves on either way.
      if (rule.hold_seconds !== undefined) {
        await holdAnswer(request, rule.hold_seconds)
        if (ctx.clock.kind === 'virtual') await ctx.clock.advance(rule.seconds * 1000)
      } else await waitOnClock(ctx, rule.seconds)
      return dropped('timeout')
    case 'lost': {
      await run()
      return rule.status !== undefined ? proxyPage(rule.status, 'lost') : dropped('lost')
    }
    case 'late': {
      const answer = await run()
      const gone = await holdAnswer(request, rule.hold_seconds ?? DEFAULT_HOLD_SECONDS)
      return gone ? dropped('late') : marked(answer, 'late')
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
  ...(rule.hold_seconds !== undefined ? { hold_seconds: rule.hold_seconds } : {}),
  hits: rule.hits,
})

/** POST /sandbox/faults, GET /sandbox/faults, DELETE /sandbox/faults[/:id] (plain envelope). */
export const faultsModule: EngineModule = {
  name: 'faults',
  // The lifecycle's faults step (engine/modules.ts LifecycleHooks): gateway.handle calls it.
  hooks: { faults: withFaults },
  routes: (ctx) => [
    declareControlRoute<SandboxFaultRequest>({
      method: 'POST',
      path: '/sandbox/faults',
      summary:
        'Make the next N matching requests time out, answer 5xx, drop the connection, lose their answer after doing the work (dropped or a 502/503/504 page), or answer late',
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
