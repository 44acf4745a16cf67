import { withFaults } from '../faults/index.js'
import { StoreUnavailableError } from '../ports/store.js'
import type { EngineContext, GatewayDeps } from './context.js'
import { createContext } from './context.js'
import { errorPage, errorResponse, fail, GatewayError } from './errors.js'
import { createEventBus } from './events.js'
import type { GatewayRequest, GatewayResponse } from './http.js'
import type { EngineModule, RouteDefinition } from './modules.js'
import { parseBody } from './parse.js'
import { checkResponse } from './response-check.js'
import { createRouter } from './router.js'
import { createUnits, type Units } from './unit-of-work.js'
import type { Collections } from './model.js'
import { type SandboxWarning, warningHeader, withWarnings } from './warnings.js'

export const DEFAULT_BODY_LIMIT = 1024 * 1024

export interface Gateway {
  /** One request in, one response out: express, msw and the scenario runner all go through here. */
  handle(request: GatewayRequest): Promise<GatewayResponse>
  readonly ctx: EngineContext
  /** Runs `fn` as one unit of work: its writes commit together, its events go out after it. */
  readonly units: Units<Collections>
  /** `METHOD /path` of every route, for banners and docs. */
  routes(): string[]
  /** Stops the modules' background work (callback delivery); in-flight answers are then ignored. */
  stop(): void
}

/**
 * The engine. Transport-agnostic: adapters translate their request into a GatewayRequest and
 * write the GatewayResponse back unchanged.
 */
export function createGateway(deps: GatewayDeps, modules: EngineModule[]): Gateway {
  const units = createUnits(deps.store, createEventBus())
  const ctx = createContext(
    { ...deps, clock: unitClock(deps.clock, units), store: units.store },
    units.events,
  )
  const router = createRouter<RouteDefinition>()
  const names: string[] = []
  for (const module of modules) {
    for (const route of module.routes(ctx)) {
      router.add(route.method, route.path, route)
      names.push(`${route.method} ${route.path}`)
    }
  }
  const bodyLimit = deps.config.limits?.body_bytes ?? DEFAULT_BODY_LIMIT
  // Started once every route exists, so background work may serve requests as soon as it runs.
  const stops = modules.flatMap((module) => (module.start ? [module.start(ctx)] : []))

  return {
    ctx,
    units,
    routes: () => [...names],
    stop: () => {
      for (const stop of stops.splice(0)) stop()
    },
    async handle(request) {
      const found = router.match(request.method, request.path)
      // A path served for another method only answers as unknown too: the gateway has no other notion of it.
      if (found === undefined || found === 'method') return errorResponse(fail('ROUTE_NOT_FOUND'), 'sandbox')
      // ── Gateway faults hook (src/core/faults, issue 23): one call; without a fault rule it just runs. ──
      return withFaults(ctx, request, () => run(found.value, request, found.params))
    },
  }

  /**
   * parse → (one unit: validate → authenticate → load → apply, then the events' listeners, which
   * enqueue callbacks) → commit → respond. The declared steps run inside the route's handler
   * (pipeline.ts); the unit, the warnings and every refusal's envelope are here, once for all APIs.
   */
  async function run(
    route: RouteDefinition,
    request: GatewayRequest,
    params: Record<string, string>,
  ): Promise<GatewayResponse> {
    const envelope = route.api === 'page' ? 'sandbox' : route.api
    let warnings: SandboxWarning[] = []
    try {
      if (request.body.length > bodyLimit) throw fail('REQUEST_BODY_TOO_LARGE')
      const parsed = await parseBody(request.headers['content-type'], request.body)
      if (!parsed.ok) {
        throw fail(
          parsed.reason === 'unsupported-media-type'
            ? 'REQUEST_CONTENT_TYPE_UNSUPPORTED'
            : parsed.reason === 'too-deep'
              ? 'REQUEST_NESTING_TOO_DEEP'
              : 'REQUEST_BODY_MALFORMED',
        )
      }
      if (route.prepare) await route.prepare({ request, params, body: parsed.value, ctx })
      const { value, durable } = units.run(() =>
        withWarnings((ctx.config as { strict?: boolean }).strict === true, () =>
          route.handler({ request, params, body: parsed.value, ctx }),
        ),
      )
      warnings = value.warnings
      const response = value.value
      await durable
      // respond: under --check-responses the answer is checked against its declared schema (logged, counted, sent unchanged).
      checkResponse(ctx, route, parsed.value, response)
      return withWarningHeaders(response, warnings)
    } catch (error) {
      if (error instanceof GatewayError) {
        const refused = route.api === 'page' ? errorPage(error) : errorResponse(error, envelope)
        return withWarningHeaders(refused, warnings)
      }
      if (error instanceof StoreUnavailableError) {
        ctx.logger.warn('store unavailable: write refused', { path: request.path, error: error.message })
        const refused = errorResponse(fail('SANDBOX_STORE_UNAVAILABLE'), envelope)
        return { ...refused, headers: { ...refused.headers, 'retry-after': '5' } }
      }
      ctx.logger.error('unhandled error', {
        path: request.path,
        error: String((error as Error)?.stack ?? error),
      })
      return {
        status: 500,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ http_code: 500, error_code: 0, error_message: 'Internal sandbox error.' }),
      }
    }
  }

  function withWarningHeaders(response: GatewayResponse, list: SandboxWarning[]): GatewayResponse {
    if (!list.length) return response
    for (const w of list)
      ctx.logger.warn('sandbox warning', {
        field: w.field,
        sent: w.sent,
        documented: w.documented,
        source: w.source,
      })
    ctx.events.emit({ type: 'warning', warnings: list, at: ctx.clock.now() })
    return { ...response, warnings: list.map(warningHeader) }
  }
}

/**
 * Jobs on the clock (scheduled charges, callback retries, session expiry) run as units too: a
 * scheduled charge lands whole, with its callbacks, or not at all.
 */
function unitClock(clock: GatewayDeps['clock'], units: Units<Collections>): GatewayDeps['clock'] {
  return new Proxy(clock, {
    get(target, property, receiver) {
      if (property === 'at')
        return (at: number, job: () => void | Promise<void>) =>
          target.at(at, () => {
            const { value, durable } = units.run(job)
            durable.catch(() => {
              // The store refused the job's batch and rolled it back (it logs why); nothing half-done remains.
            })
            return value
          })
      const value = Reflect.get(target, property, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
