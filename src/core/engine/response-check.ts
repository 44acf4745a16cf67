import { formatFieldError, validate } from '../validation/index.js'
import { resolveSchemaId, schemaRegistry } from '../validation/schema-registry.js'
import type { EngineContext } from './context.js'
import type { GatewayResponse } from './http.js'
import type { RouteDefinition } from './modules.js'

/**
 * Run-time response checks (`serve --check-responses`, `createSandbox({ checkResponses: true })`):
 * every successful JSON answer is checked against the response schema its route declares, in the
 * gateway's respond step. A mismatch is the sandbox's own defect, not the caller's: it is logged
 * and counted (`GET /sandbox/health` shows `responses`), and the answer goes out unchanged, never
 * turned into a 500.
 */
export interface ResponseChecks {
  readonly enabled: boolean
  checked: number
  mismatches: number
}

const CHECKS = new WeakMap<object, ResponseChecks>()

/** The counters of this engine (one per context); `enabled` from the configuration's `check_responses`. */
export function responseChecks(ctx: EngineContext): ResponseChecks {
  let checks = CHECKS.get(ctx)
  if (!checks) {
    const enabled = (ctx.config as { check_responses?: boolean }).check_responses === true
    checks = { enabled, checked: 0, mismatches: 0 }
    CHECKS.set(ctx, checks)
  }
  return checks
}

/** The `x-endpoint.response` (or `responseV2` at `/v2/post`) a request schema names. */
function endpointResponse(schema: string, v2: boolean): string | undefined {
  const x = schemaRegistry().schema(resolveSchemaId(schema))?.['x-endpoint'] as
    | { response?: string; responseV2?: string }
    | undefined
  return (v2 ? (x?.responseV2 ?? x?.response) : x?.response) ?? undefined
}

/**
 * The schema a successful answer of `route` must match: its own `response` (control routes), or
 * the one its declared request schema names in `x-endpoint` (Checkout, Token routes, and each S2S
 * action of a dispatch table, by the body's `action`). Undefined when it declares none (pages).
 */
export function responseSchemaOf(route: RouteDefinition, body: Record<string, unknown>): string | undefined {
  if (route.response) return route.response
  const declared = route.declared
  if (!declared) return undefined
  const v2 = route.path === '/v2/post'
  if (declared.kind === 'pipeline') return endpointResponse(declared.pipeline.schema, v2)
  if (declared.kind === 'token') return declared.schema ? endpointResponse(declared.schema, v2) : undefined
  if (declared.kind === 'actions') {
    const action = typeof body.action === 'string' ? body.action : undefined
    const found = action && Object.hasOwn(declared.actions, action) ? declared.actions[action] : undefined
    return found ? endpointResponse(found.pipeline.schema, v2) : undefined
  }
  return undefined
}

/** Checks one answer when checks are on; logs and counts a mismatch, never changes the answer. */
export function checkResponse(
  ctx: EngineContext,
  route: RouteDefinition,
  body: Record<string, unknown>,
  response: GatewayResponse,
): void {
  const checks = responseChecks(ctx)
  if (!checks.enabled || response.stream) return
  if (response.status < 200 || response.status >= 300) return
  if (!(response.headers['content-type'] ?? '').startsWith('application/json')) return
  try {
    const schema = responseSchemaOf(route, body)
    if (!schema) return
    checks.checked++
    const result = validate(schema, JSON.parse(response.body))
    if (result.valid) return
    checks.mismatches++
    ctx.logger.error('response does not match its schema', {
      route: `${route.method} ${route.path}`,
      schema,
      errors: result.errors.slice(0, 10).map(formatFieldError).join('; '),
    })
  } catch (error) {
    checks.mismatches++
    ctx.logger.error('response could not be checked against its schema', {
      route: `${route.method} ${route.path}`,
      error: String((error as Error)?.message ?? error),
    })
  }
}
