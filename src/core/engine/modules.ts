import type { EngineContext } from './context.js'
import type { StoreOp } from '../ports/store.js'
import type { GatewayRequest, GatewayResponse, IncomingRequest } from './http.js'
import type { Api } from './model.js'
import type { Pipeline } from './pipeline.js'
import type { RouteParams } from './router.js'

/** What a handler (and a route's `prepare` step) receives: the parsed body (JSON or form, bracket notation expanded). */
export interface OperationInput {
  request: GatewayRequest
  params: RouteParams
  body: Record<string, unknown>
  ctx: EngineContext
}

/**
 * A handler is synchronous by type: it answers a `GatewayResponse`, never a promise, so nothing can
 * `await` its way out of the unit of work or the warning scope (an `async` handler does not
 * typecheck: test/engine/route-declarations.test.ts). Asynchronous work (loading a page module,
 * moving the clock) belongs to the route's `prepare` step, which runs before the unit.
 */
export type OperationHandler = (input: OperationInput) => GatewayResponse

/**
 * What a route declares about the work before its operation (docs/architecture.md, "How to
 * declare a route"): a request pipeline (schema, credential, signature formula, load, release
 * rule), the Token header, an S2S dispatch table whose every action is declared, a control
 * pipeline (request or query schema, load, response schema), or an explicit `none` with the reason.
 */
export type RouteDeclaration =
  | { kind: 'pipeline'; pipeline: Pipeline<unknown, unknown> }
  | { kind: 'token'; schema?: string }
  | { kind: 'actions'; actions: Record<string, { pipeline: Pipeline<unknown, unknown> }> }
  | { kind: 'control'; schema?: string; query?: string; response: string | { none: string } }
  | { kind: 'none'; reason: string }

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  /** Which envelope its errors use. */
  api: Api | 'sandbox' | 'page'
  handler: OperationHandler
  /** One line for the OpenAPI document (routes whose request schema has `x-endpoint` use that instead). */
  summary?: string
  /** Schema (path under schemas/) of the query string, for GET routes. */
  query?: string
  /** Schema of the body, for routes not described by an `x-endpoint` request schema. */
  request?: string
  /** The declared request pipeline (pipeline.ts `declareRoute`): schema, credential, load, signature. */
  pipeline?: Pipeline<unknown, unknown>
  /** What the route declares (pipeline.ts); every route has one, test/engine/route-declarations.test.ts checks. */
  declared?: RouteDeclaration
  /** Schema (path under schemas/) of a successful JSON answer, for routes not described by an `x-endpoint` request schema. */
  response?: string
  /**
   * A long-lived answer (the event stream): it has its own caps and is never served on the
   * connection reserve, which it would hold for ever (docs/rules.md#connections).
   */
  longLived?: true
  /**
   * docs/rules.md#page-guard: a page route another site sends the payer to by a form post (the ACS
   * page, the redirect simulator): such a post is answered 303 to the page, changing nothing. Any
   * other page route that changes state refuses a cross-site request (engine/page-guard.ts).
   */
  crossSite?: 'arrival'
  /** HTTP status of a successful answer when it is not 200 (a control route that creates: 201; that accepts work for later: 202). */
  status?: 201 | 202
  /**
   * Awaited before the unit of work starts (units are synchronous): loads what the handler needs
   * on first use, such as the hosted pages' React renderer, so that start-up does not pay for it,
   * or does a route's asynchronous work (moving the clock) before its synchronous answer.
   */
  prepare?: (input: OperationInput) => Promise<void>
}

/** A feature (Checkout, S2S CARD, control API, ...) contributes routes and, optionally, payer operations. */
export interface EngineModule {
  name: string
  routes(ctx: EngineContext): RouteDefinition[]
  /**
   * Routes only an in-process caller reaches (a request whose `door` is `IN_PROCESS`): the
   * library's and the kit's payer actions go through `gateway.handle` and its unit of work like
   * any request, without being an HTTP endpoint (not listed in `routes()`, the OpenAPI document
   * or the banner; a request off the network never matches them).
   */
  inProcessRoutes?(ctx: EngineContext): RouteDefinition[]
  /** Background work (the callback queue listening to events); returns its stop function. */
  start?(ctx: EngineContext): () => void
  /** Steps of the request lifecycle the feature fills in (gateway faults, the request log). */
  hooks?: LifecycleHooks
}

/**
 * The steps of the one request lifecycle (`gateway.handle`) that a feature fills in: the engine
 * calls each at its place and imports no feature (docs/architecture.md, "Layers"; src/core depends
 * downward only, test/engine/core-layers.test.ts). At most one module of an assembly fills each
 * hook (createGateway refuses two); an assembly without the feature runs without the step.
 */
export interface LifecycleHooks {
  /**
   * Gateway faults (src/core/faults, issue 23), once the body is read: `run` is the request's
   * handling; a matching fault rule answers instead, or loses or holds its answer. Never called
   * for an in-process request (it crosses no network).
   */
  faults?(
    ctx: EngineContext,
    request: GatewayRequest,
    body: unknown,
    run: () => Promise<GatewayResponse>,
  ): Promise<GatewayResponse>
  /** docs/rules.md#request-log: the trace of a request that passed the door, or undefined when the log is off. */
  startTrace?(ctx: EngineContext): RequestTrace | undefined
  /** Records a request once it is answered, whatever answered it; never throws. */
  recordRequest?(
    ctx: EngineContext,
    request: IncomingRequest,
    response: GatewayResponse,
    trace: RequestTrace,
  ): void
}

/**
 * What the lifecycle learns about a request as it goes (gateway.ts fills it, the request log's
 * hooks read it): the route, the parsed body and what its unit of work wrote. The record is built
 * from it once the answer is known, so a request is recorded once, whatever answered it (a
 * refusal, a fault, the operation).
 */
export interface RequestTrace {
  at: number
  /** The normalised path (path.ts), once known. */
  path?: string
  route?: RouteDefinition
  params?: Record<string, string>
  body?: Record<string, unknown>
  bytes?: number
  written?: readonly StoreOp[]
}
