import { StoreUnavailableError } from '../ports/store.js'
import {
  type ControlGuardOptions,
  checkControlRequest,
  crossOrigin,
  guardOptions,
  isControlPath,
} from './control-guard.js'
import type { EngineContext, GatewayDeps } from './context.js'
import { createContext } from './context.js'
import { errorPage, errorResponse, fail, GatewayError } from './errors.js'
import { createEventBus } from './events.js'
import {
  type BodyRead,
  FAULT_HEADER,
  type GatewayRequest,
  type GatewayResponse,
  IN_PROCESS,
  type IncomingRequest,
} from './http.js'
import type { EngineModule, LifecycleHooks, RequestTrace, RouteDefinition } from './modules.js'
import { parseBody } from './parse.js'
import { pageGuard } from './page-guard.js'
import { normalisePath, PATH_INVALID, PATH_OUTSIDE } from './path.js'
import { ruleHeader } from './refusal.js'
import { servesOnReserve } from './reserve.js'
import { checkResponse } from './response-check.js'
import { createRouter } from './router.js'
import { createUnits, type Units } from './unit-of-work.js'
import { withRetention } from './retention.js'
import type { Collections } from './model.js'
import { type SandboxWarning, warningHeader, withWarnings } from './warnings.js'

export const DEFAULT_BODY_LIMIT = 1024 * 1024

export interface Gateway {
  /**
   * One request in, one response out: express, msw, `sandbox.fetch` and the kit's host all go
   * through here, and it never rejects. The whole lifecycle is here (docs/architecture.md):
   * normalise the path → control guard → route → limits from the head → read and parse the body →
   * the declared pipeline in one unit of work → commit (503 when the store cannot persist) →
   * flush → respond; deliveries and the event stream hear the events once the batch is stored.
   */
  handle(request: IncomingRequest): Promise<GatewayResponse>
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
  // docs/rules.md#retention: below the unit of work, so a unit's batch forgets, in the same commit,
  // the oldest unit of a merchant (or of the demo page) it takes past its bound.
  const units = createUnits(retained(deps), createEventBus())
  const ctx = createContext(
    { ...deps, clock: unitClock(deps.clock, units), store: units.store },
    units.events,
  )
  const router = createRouter<RouteDefinition>()
  const inProcess = createRouter<RouteDefinition>()
  const names: string[] = []
  for (const module of modules) {
    for (const route of module.routes(ctx)) {
      router.add(route.method, route.path, route)
      names.push(`${route.method} ${route.path}`)
    }
    for (const route of module.inProcessRoutes?.(ctx) ?? []) inProcess.add(route.method, route.path, route)
  }
  const bodyLimit = deps.config.limits?.body_bytes ?? DEFAULT_BODY_LIMIT
  const hooks = lifecycleHooks(modules)
  const faults = hooks.faults ?? noFaults
  const guards = new WeakMap<readonly string[], { baseUrl: string; options: ControlGuardOptions }>()
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
      const seen: Seen = { path: request.path }
      // docs/rules.md#request-log: every request that passes the door is recorded once, answered.
      const trace = hooks.startTrace?.(ctx)
      const response = dated(announced(request, await answer(request, seen, trace), seen))
      if (trace) hooks.recordRequest?.(ctx, request, response, trace)
      return response
    },
  }

  /**
   * docs/rules.md#rule-book: a refused answer carries its rule, once, here: the `Sandbox-Rule`
   * header beside the platform's body (every adapter writes the headers unchanged), a log line and
   * a `refusal` event for the event stream. The request log reads `response.refusal`.
   */
  function announced(request: IncomingRequest, response: GatewayResponse, seen: Seen): GatewayResponse {
    const { refusal } = response
    if (!refusal) {
      // Only an answer whose rule is missing gets here with a 4xx: an engine bug, said where it shows.
      if (response.status >= 400 && response.status < 500 && !response.headers[FAULT_HEADER])
        ctx.logger.warn('refused without a rule', {
          method: request.method,
          path: seen.path,
          status: response.status,
        })
      return response
    }
    const header = ruleHeader(refusal)
    ctx.logger.info('request refused', {
      method: request.method,
      path: seen.path,
      ...(seen.action ? { action: seen.action } : {}),
      status: response.status,
      rule: header,
    })
    ctx.events.emit({
      type: 'refusal',
      method: request.method,
      path: seen.path,
      ...(seen.action ? { action: seen.action } : {}),
      ...(seen.merchant ? { merchant_key: seen.merchant } : {}),
      status: response.status,
      refusal,
      at: ctx.clock.now(),
    })
    return withRuleHeader(response)
  }

  /** The merchant a request names (its credential field, or its session's Token), when the sandbox has it. */
  function merchantOf(request: GatewayRequest, body: Record<string, unknown>): string | undefined {
    const key = body.merchant_key ?? body.client_key
    if (typeof key === 'string' && ctx.merchant(key)) return key
    const token = request.headers.token
    return token ? ctx.store.findBy('sessions', 'token', token)[0]?.merchant_key : undefined
  }

  /**
   * Every answer carries the sandbox's clock in the HTTP `Date` header (RFC 9110: when the message
   * was originated): on a virtual or advanced clock, the day and time the payments, financial days
   * and callbacks of this gateway live in (docs/sandbox-choices.md). Set here once for all adapters.
   */
  function dated(response: GatewayResponse): GatewayResponse {
    if (response.headers.date !== undefined) return response
    return { ...response, headers: { ...response.headers, date: new Date(ctx.clock.now()).toUTCString() } }
  }

  async function answer(
    request: IncomingRequest,
    seen: Seen,
    trace?: RequestTrace,
  ): Promise<GatewayResponse> {
    try {
      const path = normalisePath(request.path, request.basePath)
      if (path === PATH_INVALID) return errorResponse(fail('REQUEST_PATH_INVALID'), 'sandbox')
      if (path === PATH_OUTSIDE)
        return errorResponse(fail('ROUTE_NOT_FOUND', { rule: 'base-path' }), 'sandbox')
      seen.path = path
      if (trace) trace.path = path
      const normal: IncomingRequest = path === request.path ? request : { ...request, path }
      // The control guard reads the normalised path: every spelling of a control path is guarded.
      if (isControlPath(path)) {
        const refused = checkControlRequest(normal, guardFor(request.servedHosts))
        if (refused) return errorResponse(fail(refused), 'sandbox')
      }
      // An in-process caller (the payer helpers) reaches the in-process routes too; nobody else does.
      const own = request.door === IN_PROCESS ? inProcess.match(normal.method, path) : undefined
      const found = own !== undefined && own !== 'method' ? own : router.match(normal.method, path)
      // A path served for another method only answers as unknown too: the gateway has no other notion of it.
      if (found === undefined || found === 'method') return errorResponse(fail('ROUTE_NOT_FOUND'), 'sandbox')
      if (trace) {
        trace.route = found.value
        trace.params = found.params
      }
      // docs/rules.md#page-guard: a page that changes state takes no cross-site request (the control guard's rule).
      const crossSite = () => crossOrigin(normal.headers, guardFor(request.servedHosts))
      const refusedPage = pageGuard(found.value, normal, crossSite, ctx.baseUrl)
      if (refusedPage) return refusedPage
      // docs/rules.md#connections: a connection on the reserve is kept for health, control and payers.
      if (normal.onReserve && !servesOnReserve(found.value))
        return errorResponse(fail('SANDBOX_CONNECTIONS_FULL'), envelopeOf(found.value))
      return await run(found.value, normal, found.params, seen, trace)
    } catch (error) {
      return internalError(request, error)
    }
  }

  /** The guard's options: the config's token and hosts, the base URL's host, what the adapter serves. */
  function guardFor(servedHosts: readonly string[] | undefined): ControlGuardOptions {
    const key = servedHosts ?? NO_HOSTS
    const cached = guards.get(key)
    if (cached && cached.baseUrl === ctx.baseUrl) return cached.options
    const options = guardOptions(ctx.config, ctx.baseUrl, key)
    guards.set(key, { baseUrl: ctx.baseUrl, options })
    return options
  }

  function internalError(request: IncomingRequest, error: unknown): GatewayResponse {
    ctx.logger.error('unhandled error', {
      path: request.path,
      error: String((error as Error)?.stack ?? error),
    })
    return internalErrorResponse()
  }

  /**
   * parse → (one unit: validate → authenticate → load → apply, then the events' listeners, which
   * enqueue callbacks) → commit → respond. The declared steps run inside the route's handler
   * (pipeline.ts); the unit, the warnings and every refusal's envelope are here, once for all APIs.
   */
  async function run(
    route: RouteDefinition,
    incoming: IncomingRequest,
    params: Record<string, string>,
    seen: Seen,
    trace?: RequestTrace,
  ): Promise<GatewayResponse> {
    const envelope = envelopeOf(route)
    let warnings: SandboxWarning[] = []
    let request = incoming as GatewayRequest
    try {
      // Limits from the head: a body declared too large is refused before a byte of it is read.
      const declared = incoming.headers['content-length']
      if (declared !== undefined && Number(declared) > bodyLimit) throw fail('REQUEST_BODY_TOO_LARGE')
      const body = incoming.body ?? (incoming.readBody ? bodyOf(await incoming.readBody(bodyLimit)) : NO_BODY)
      if (body.length > bodyLimit) throw fail('REQUEST_BODY_TOO_LARGE')
      if (incoming.body !== body) request = { ...incoming, body }
      const parsed = await parseBody(request.headers['content-type'], body)
      if (trace) trace.bytes = body.length
      if (!parsed.ok) {
        throw fail(
          parsed.reason === 'unsupported-media-type'
            ? 'REQUEST_CONTENT_TYPE_UNSUPPORTED'
            : parsed.reason === 'too-deep'
              ? 'REQUEST_NESTING_TOO_DEEP'
              : 'REQUEST_BODY_MALFORMED',
        )
      }
      if (trace) trace.body = parsed.value
      const action = route.declared?.kind === 'actions' ? parsed.value.action : undefined
      if (typeof action === 'string') seen.action = action
      seen.merchant = merchantOf(request, parsed.value)
      // The client went away before its request was handled (its own time-out fired while the
      // server was busy): nothing is done, since no answer can reach it. A loaded machine never
      // turns a request its sender gave up on into a payment it did not wait for.
      if (request.signal?.aborted) return CLIENT_GONE
      // ── Gateway faults hook (src/core/faults, issue 23): one call, once the body is read (a rule may
      // name an S2S action); without a fault rule it just runs. ──
      // An in-process payer action crosses no network: no network fault applies to it.
      const faulted = incoming.door === IN_PROCESS ? noFaults : faults
      return await faulted(ctx, request, parsed.value, async () => {
        if (route.prepare) await route.prepare({ request, params, body: parsed.value, ctx })
        const { value, durable, ops } = units.run(() =>
          withWarnings((ctx.config as { strict?: boolean }).strict === true, () =>
            route.handler({ request, params, body: parsed.value, ctx }),
          ),
        )
        if (trace) trace.written = ops
        warnings = value.warnings
        const response = value.value
        await durable
        // An answer promises its change: a persistent store has it on disk before the caller hears of it.
        await ctx.store.flush()
        // respond: under --check-responses the answer is checked against its declared schema (logged, counted, sent unchanged).
        checkResponse(ctx, route, parsed.value, response)
        return withWarningHeaders(response, warnings)
      })
    } catch (error) {
      if (error instanceof GatewayError) {
        const refused = route.api === 'page' ? errorPage(error) : errorResponse(error, envelope)
        return withWarningHeaders(refused, warnings)
      }
      if (error instanceof StoreUnavailableError) {
        ctx.logger.warn('store unavailable: write refused', { path: request.path, error: error.message })
        return errorResponse(fail('SANDBOX_STORE_UNAVAILABLE'), envelope)
      }
      return internalError(request, error)
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

/** The store with the engine's retention, unless it has its own (a test's, a store already wrapped). */
function retained(deps: GatewayDeps): GatewayDeps['store'] {
  if (deps.store.retention) return deps.store
  const limits = deps.config.limits as { retain?: number; retain_demo?: number } | undefined
  return withRetention(deps.store, {
    retain: limits?.retain,
    retainDemo: limits?.retain_demo,
    logger: deps.logger,
  })
}

/** The envelope a route's refusals use (a page's refusals outside its form: the control API's). */
const envelopeOf = (route: RouteDefinition) => (route.api === 'page' ? 'sandbox' : route.api)

/** The catalogue rows an HTTP server answers itself, for requests `handle` never sees. */
export type TransportRefusal =
  | 'REQUEST_TIMEOUT'
  | 'REQUEST_HEAD_INVALID'
  | 'REQUEST_HEADERS_TOO_LARGE'
  | 'REQUEST_BODY_MALFORMED'
  | 'SANDBOX_CONNECTIONS_FULL'

/**
 * The answer to a request that never reached `handle` because the transport gave up on it (a head
 * that did not arrive in time, could not be parsed or was too large; a chunked body whose framing
 * broke): the adapter writes it on the raw connection, in the control API's envelope (no route
 * can be named for it).
 */
export function transportRefusal(id: TransportRefusal): GatewayResponse {
  return withRuleHeader(errorResponse(fail(id), 'sandbox'))
}

/** `Sandbox-Rule: docs/rules.md#<anchor>; field=…; formula=…` beside the platform's body (docs/rules.md#rule-book). */
function withRuleHeader(response: GatewayResponse): GatewayResponse {
  if (!response.refusal) return response
  return { ...response, headers: { ...response.headers, 'sandbox-rule': ruleHeader(response.refusal) } }
}

/** What the gateway learnt of a request as it read it, for the refusal's log line and event. */
interface Seen {
  /** As received, then normalised once it is. */
  path: string
  action?: string
  merchant?: string | undefined
}

/** The engine's answer to its own bug: a structured 500, never HTML, never the error's text. */
export function internalErrorResponse(): GatewayResponse {
  return {
    status: 500,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ http_code: 500, error_code: 0, error_message: 'Internal sandbox error.' }),
  }
}

const noFaults: NonNullable<LifecycleHooks['faults']> = (_ctx, _request, _body, run) => run()

/** The lifecycle steps the modules fill in (modules.ts `LifecycleHooks`), each by one module at most. */
function lifecycleHooks(modules: readonly EngineModule[]): LifecycleHooks {
  const hooks: Record<string, unknown> = {}
  const by: Record<string, string> = {}
  for (const module of modules)
    for (const [step, hook] of Object.entries(module.hooks ?? {})) {
      if (by[step])
        throw new Error(`modules ${by[step]} and ${module.name} both fill the lifecycle step ${step}`)
      by[step] = module.name
      hooks[step] = hook
    }
  return hooks as LifecycleHooks
}
const NO_HOSTS: readonly string[] = Object.freeze([])
const NO_BODY = new Uint8Array(0)
/** No answer for a client that left before its request was handled: adapters close the connection. */
const CLIENT_GONE: GatewayResponse = Object.freeze({
  status: 499,
  headers: {},
  body: '',
  fault: 'drop' as const,
})

/** The bytes an adapter read, or the catalogue row that refuses what it could not read. */
function bodyOf(read: BodyRead): Uint8Array {
  if (read.ok) return read.body
  throw fail(
    read.reason === 'too-large'
      ? 'REQUEST_BODY_TOO_LARGE'
      : read.reason === 'encoding'
        ? 'REQUEST_CONTENT_TYPE_UNSUPPORTED'
        : read.reason === 'timeout'
          ? 'REQUEST_TIMEOUT'
          : 'REQUEST_BODY_MALFORMED',
  )
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
