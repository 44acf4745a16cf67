import type { EngineContext } from './context.js'
import type { GatewayRequest, GatewayResponse } from './http.js'
import type { Api } from './model.js'
import type { Pipeline } from './pipeline.js'
import type { RouteParams } from './router.js'

/** A handler receives the parsed body (JSON or form, bracket notation expanded). */
export type OperationHandler = (input: {
  request: GatewayRequest
  params: RouteParams
  body: Record<string, unknown>
  ctx: EngineContext
}) => Promise<GatewayResponse> | GatewayResponse

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
  /**
   * Awaited before the unit of work starts (units are synchronous): loads what the handler needs
   * on first use, such as the hosted pages' React renderer, so that start-up does not pay for it.
   */
  prepare?: () => Promise<void>
}

/** A feature (Checkout, S2S CARD, control API, ...) contributes routes and, optionally, payer operations. */
export interface EngineModule {
  name: string
  routes(ctx: EngineContext): RouteDefinition[]
  /** Background work (the callback queue listening to events); returns its stop function. */
  start?(ctx: EngineContext): () => void
}
