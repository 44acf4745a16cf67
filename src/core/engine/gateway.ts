import type { EngineContext, GatewayDeps } from './context.js'
import { createContext } from './context.js'
import { errorPage, errorResponse, fail, GatewayError } from './errors.js'
import { createEventBus } from './events.js'
import type { GatewayRequest, GatewayResponse } from './http.js'
import type { EngineModule, RouteDefinition } from './modules.js'
import { parseBody } from './parse.js'
import { createRouter } from './router.js'

export const DEFAULT_BODY_LIMIT = 1024 * 1024

export interface Gateway {
  /** One request in, one response out: express, msw and the scenario runner all go through here. */
  handle(request: GatewayRequest): Promise<GatewayResponse>
  readonly ctx: EngineContext
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
  const ctx = createContext(deps, createEventBus())
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
    routes: () => [...names],
    stop: () => {
      for (const stop of stops.splice(0)) stop()
    },
    async handle(request) {
      const found = router.match(request.method, request.path)
      // A path served for another method only answers as unknown too: the gateway has no other notion of it.
      if (found === undefined || found === 'method') return errorResponse(fail('ROUTE_NOT_FOUND'), 'sandbox')
      return run(found.value, request, found.params)
    },
  }

  async function run(
    route: RouteDefinition,
    request: GatewayRequest,
    params: Record<string, string>,
  ): Promise<GatewayResponse> {
    const envelope = route.api === 'page' ? 'sandbox' : route.api
    try {
      if (request.body.length > bodyLimit) throw fail('REQUEST_BODY_TOO_LARGE')
      const parsed = await parseBody(request.headers['content-type'], request.body)
      if (!parsed.ok) {
        throw fail(
          parsed.reason === 'unsupported-media-type'
            ? 'REQUEST_CONTENT_TYPE_UNSUPPORTED'
            : 'REQUEST_BODY_MALFORMED',
        )
      }
      return await route.handler({ request, params, body: parsed.value, ctx })
    } catch (error) {
      if (error instanceof GatewayError)
        return route.api === 'page' ? errorPage(error) : errorResponse(error, envelope)
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
}
