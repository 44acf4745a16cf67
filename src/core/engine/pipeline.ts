import { sameSignature } from '../signatures/index.js'
import type { OriginalPayment, SigningFormula } from '../signatures/formulas.js'
import type { PathStyle } from '../validation/index.js'
import { apiSession, requireHash, tokenHeader } from './auth.js'
import type { EngineContext, SandboxMerchant } from './context.js'
import type { Session } from './model.js'
import { releaseOf, releaseProblems } from '../validation/releases.js'
import { fail, invalid } from './errors.js'
import type { GatewayRequest, GatewayResponse } from './http.js'
import type { RouteDefinition, RouteDeclaration } from './modules.js'
import type { RouteParams } from './router.js'
import { validated } from './request-validation.js'

/**
 * What a route declares about its request, and what the gateway then does before the operation
 * runs (docs/architecture.md): validate against `schema` → authenticate the merchant named by
 * `credential` → `load` what the operation works on → check `signature`. The operation itself
 * receives the typed input, the merchant and what was loaded, and does nothing of that again.
 *
 * Order follows the interface's answers: a wrong key is refused before a missing payment, and a
 * signature that needs the stored payment (S2S CARD Formula 2) is checked after loading it
 * (`signatureAfterLoad`), so an unknown id answers not-found, not "Hash is not valid.".
 */
export type { OriginalPayment, SigningFormula } from '../signatures/formulas.js'
export { field } from '../signatures/formulas.js'

export interface Pipeline<I, L> {
  /** Request schema, a path under schemas/ without `.schema.json` (its `x-endpoint` names the route). */
  schema: string
  /** `bracket` for S2S forms (field paths as `order_amount`, empty optional values dropped). */
  pathStyle?: PathStyle
  /** Replaces the plain schema check where the interface quotes its own message for a field. */
  validate?: (body: Record<string, unknown>, ctx: EngineContext) => I
  /** The body field naming the merchant: `merchant_key` (Checkout) or `client_key` (S2S). */
  credential: keyof I & string
  load?: (ctx: EngineContext, input: I, merchant: SandboxMerchant) => L
  /** The hash the request must carry in `hash`, computed as the signature table says. */
  signature?: (input: I, merchant: SandboxMerchant, loaded: L) => string
  /**
   * The signature as a named formula (signatures/formulas.ts), which the conformance kit, the
   * library's signing helpers and the OpenAPI document read from this declaration.
   */
  formula?: SigningFormula
  /** For a formula that `needsOriginal`: the original payment's payer and card, from what was loaded. */
  original?: (loaded: L) => OriginalPayment
  /**
   * How a signer finds the original payment a formula reads (the kit remembers payments by these):
   * by `trans_id`, by `order_id`, or the initial payment of a recurring request.
   */
  originalBy?: 'trans_id' | 'order_id' | 'recurring'
  /** The operation checks the formula itself (Formula 7: any payment of the order may sign it). */
  signedInOperation?: boolean
  signatureAfterLoad?: boolean
}

export interface PreparedInput<I, L> {
  input: I
  merchant: SandboxMerchant
  loaded: L
  request: GatewayRequest
  params: RouteParams
  ctx: EngineContext
}

export type PreparedHandler<I, L> = (prepared: PreparedInput<I, L>) => GatewayResponse

/** Runs a pipeline's steps on a parsed body; throws the interface's row at the first refusal. */
export function prepare<I, L>(
  pipeline: Pipeline<I, L>,
  ctx: EngineContext,
  body: Record<string, unknown>,
): { input: I; merchant: SandboxMerchant; loaded: L } {
  const input = pipeline.validate
    ? pipeline.validate(body, ctx)
    : validated<I>(pipeline.schema, body, pipeline.pathStyle)
  const merchant = ctx.merchant((input as Record<string, unknown>)[pipeline.credential])
  if (!merchant) throw fail('AUTH_MERCHANT_UNKNOWN')
  const hash = (input as { hash?: unknown }).hash
  const check = (loaded: L) => {
    if (pipeline.signedInOperation) return
    if (pipeline.formula) {
      const original = pipeline.original?.(loaded)
      requireHash(hash, pipeline.formula, input as Record<string, unknown>, merchant, original)
      return
    }
    const expected = pipeline.signature?.(input, merchant, loaded)
    if (expected !== undefined && !sameSignature(expected, hash)) throw fail('AUTH_HASH_INVALID')
  }
  if (!pipeline.signatureAfterLoad) check(undefined as L)
  const loaded = pipeline.load ? pipeline.load(ctx, input, merchant) : (undefined as L)
  if (pipeline.signatureAfterLoad) check(loaded)
  // docs/rules.md#releases: a merchant pinned to release 6.6.5 is refused the fields 6.7.0 added.
  const tooNew = releaseProblems(releaseOf(merchant), pipeline.schema, body)
  if (tooNew.length) throw invalid(tooNew)
  return { input, merchant, loaded }
}

/**
 * A route whose request goes through a declared pipeline. The handler is synchronous: its checks
 * and writes form one unit (unit-of-work.ts) that commits whole or not at all.
 */
export function declareRoute<I, L = undefined>(
  route: Omit<RouteDefinition, 'handler' | 'pipeline'> & {
    pipeline: Pipeline<I, L>
    handler: PreparedHandler<I, L>
  },
): RouteDefinition {
  const { pipeline, handler, ...rest } = route
  return {
    ...rest,
    pipeline: pipeline as Pipeline<unknown, unknown>,
    declared: { kind: 'pipeline', pipeline: pipeline as Pipeline<unknown, unknown> },
    handler: ({ body, ctx, request, params }) => {
      const { input, merchant, loaded } = prepare(pipeline, ctx, body)
      return handler({ input, merchant, loaded, request, params, ctx })
    },
  }
}

export interface TokenPreparedInput<I> {
  input: I
  session: Session
  merchant: SandboxMerchant
  request: GatewayRequest
  params: RouteParams
  ctx: EngineContext
}

/**
 * A route authenticated by the `Token` header (session update, Hosted Payment Fields payments):
 * the header is checked before the body, as on every Token route; then the body against `schema`
 * when the route has one.
 */
export function declareTokenRoute<I = Record<string, unknown>>(
  route: Omit<RouteDefinition, 'handler' | 'pipeline'> & {
    pipeline: { token: 'session'; schema?: string; validate?: (body: Record<string, unknown>) => I }
    handler: (prepared: TokenPreparedInput<I>) => GatewayResponse
  },
): RouteDefinition {
  const { pipeline, handler, ...rest } = route
  return {
    ...rest,
    declared: { kind: 'token', ...(pipeline.schema ? { schema: pipeline.schema } : {}) },
    handler: ({ body, ctx, request, params }) => {
      const session = apiSession(ctx, tokenHeader(request))
      const merchant = ctx.merchant(session.merchant_key)
      if (!merchant) throw fail('TOKEN_INVALID')
      const input = pipeline.validate
        ? pipeline.validate(body)
        : pipeline.schema
          ? validated<I>(pipeline.schema, body)
          : (body as I)
      return handler({ input, session, merchant, request, params, ctx })
    },
  }
}

/** What an S2S module's dispatch table calls for one action (the module writes the answer). */
export type ActionInput = { body: Record<string, unknown>; ctx: EngineContext; request?: GatewayRequest }

/** An S2S action with its declared pipeline: the same steps as `declareRoute`, for one `action`. */
export type DeclaredAction = ((input: ActionInput) => Record<string, unknown>) & {
  pipeline: Pipeline<unknown, unknown>
}

export function declareAction<I, L = undefined>(
  pipeline: Pipeline<I, L>,
  operation: (prepared: {
    input: I
    merchant: SandboxMerchant
    loaded: L
    ctx: EngineContext
  }) => Record<string, unknown>,
): DeclaredAction {
  const run = ({ body, ctx }: ActionInput) => {
    const { input, merchant, loaded } = prepare(pipeline, ctx, body)
    return operation({ input, merchant, loaded, ctx })
  }
  return Object.assign(run, { pipeline: pipeline as Pipeline<unknown, unknown> })
}

/**
 * A route that declares it has no request pipeline, and why (a hosted page that reads only its
 * path token, a static asset, the event stream): the declaration test accepts it, a route with no
 * declaration at all fails it.
 */
export function none(reason: string): RouteDeclaration {
  if (!reason.trim()) throw new Error('a route declared without a pipeline must say why')
  return { kind: 'none', reason }
}

/** What a control route declares: its body or query schema and what it loads from the path. */
export interface ControlPipeline<L> {
  /** Body schema, a path under schemas/ without `.schema.json`. */
  schema?: string
  /** Query-string schema (GET listings), a path under schemas/ without `.schema.json`. */
  query?: string
  /** What the operation works on, from the path's parameters (the payment of `:id`, ...). */
  load?: (ctx: EngineContext, params: RouteParams) => L
}

export interface ControlPreparedInput<I, L> {
  input: I
  loaded: L
  request: GatewayRequest
  params: RouteParams
  ctx: EngineContext
}

/**
 * A control route (`/sandbox/...`) with its declared pipeline: the control guard has already run
 * (control-guard.ts); then the body or query is validated against its schema, then `load` runs,
 * then the synchronous handler. `response` names the schema of its successful JSON answer
 * (schemas/control/, checked in the tests and under `serve --check-responses`), or says why it has
 * none (a stream). `status` is the status of its successful answer when not 200 (201 created, 202
 * accepted): the OpenAPI document lists it from here, and a handler whose successful answer has
 * another status is an engine bug, refused as one.
 */
export function declareControlRoute<I = undefined, L = undefined>(
  route: Omit<
    RouteDefinition,
    'handler' | 'pipeline' | 'declared' | 'request' | 'query' | 'response' | 'api'
  > & {
    pipeline: ControlPipeline<L>
    response: string | { none: string }
    handler: (prepared: ControlPreparedInput<I, L>) => GatewayResponse
  },
): RouteDefinition {
  const { pipeline, handler, response, ...rest } = route
  if (pipeline.schema && pipeline.query)
    throw new Error(`${route.path}: a body schema or a query schema, not both`)
  const status = route.status ?? 200
  return {
    ...rest,
    api: 'sandbox',
    ...(pipeline.schema ? { request: `${pipeline.schema}.schema.json` } : {}),
    ...(pipeline.query ? { query: `${pipeline.query}.schema.json` } : {}),
    ...(typeof response === 'string' ? { response: `${response}.schema.json` } : {}),
    declared: {
      kind: 'control',
      ...(pipeline.schema ? { schema: pipeline.schema } : {}),
      ...(pipeline.query ? { query: pipeline.query } : {}),
      response,
    },
    handler: ({ body, ctx, request, params }) => {
      const input = pipeline.schema
        ? validated<I>(pipeline.schema, body)
        : pipeline.query
          ? validated<I>(pipeline.query, { ...request.query })
          : (undefined as I)
      const loaded = pipeline.load ? pipeline.load(ctx, params) : (undefined as L)
      const answer = handler({ input, loaded, request, params, ctx })
      if (answer.status !== status && answer.status >= 200 && answer.status < 300)
        throw new Error(
          `${route.method} ${route.path} answered ${answer.status}, but declares ${status} (declareControlRoute status)`,
        )
      return answer
    },
  }
}
