import type { SandboxFaultRequest } from '../../generated/types.js'
import type { EngineContext } from '../engine/context.js'
import type { GatewayRequest } from '../engine/http.js'

/**
 * The fault rules (docs/conformance.md, Gateway faults): kept in memory beside the engine (they
 * are test controls, not records: a reset or a restart forgets them), matched against each API
 * request once its body is read.
 */

export type FaultMode = SandboxFaultRequest['mode']
export type FaultKind = NonNullable<NonNullable<SandboxFaultRequest['match']>['kind']>

export interface FaultRule {
  id: string
  mode: FaultMode
  match: { method?: string; path?: string; action?: string; kind?: FaultKind }
  /** Requests still to fail. */
  remaining: number
  /** timeout: seconds on the sandbox's clock. */
  seconds: number
  status?: number
  /** late (and timeout when set): real seconds the answer is held at most, while the client waits. */
  hold_seconds?: number
  /** Requests this rule made fail so far. */
  hits: number
}

/** How long a late answer is held when the rule says nothing: longer than most HTTP clients wait. */
export const DEFAULT_HOLD_SECONDS = 60

/** Modes in which the gateway does the request before the fault takes its answer away. */
export const DONE_MODES: ReadonlySet<FaultMode> = new Set(['lost', 'late'])

/**
 * What a request does, whatever the API: a rule by `kind` fails every spelling of it (the
 * Checkout route, the S2S CARD and S2S APM actions). `lookup` is every status endpoint.
 */
const KIND_OF_PATH: Record<string, FaultKind> = {
  '/api/v1/payment/status': 'lookup',
  '/api/v1/payment/refund': 'refund',
  '/api/v1/payment/capture': 'capture',
  '/api/v1/payment/void': 'void',
  '/api/v1/payment/card/credit': 'payout',
  '/api/v1/payment/recurring': 'recurring',
  '/api/v1/processing/purchase/card': 'payment',
  '/api/v1/processing/debit/card': 'payment',
}
const S2S_PATHS = new Set(['/post', '/v2/post', '/post-va'])
const KIND_OF_ACTION: Record<string, FaultKind> = {
  GET_TRANS_STATUS: 'lookup',
  GET_TRANS_STATUS_BY_ORDER: 'lookup',
  GET_TRANS_DETAILS: 'lookup',
  SALE: 'payment',
  AUTH: 'payment',
  DEBIT: 'payment',
  DEBIT2VIRTUAL: 'payment',
  CARD2CARD: 'payment',
  CREDITVOID: 'refund',
  CAPTURE: 'capture',
  VOID: 'void',
  CREDIT2CARD: 'payout',
  CREDIT2VIRTUAL: 'payout',
  CREDIT2CRYPTO: 'payout',
  RECURRING_SALE: 'recurring',
  RECURRING_DEBIT: 'recurring',
}

/** The kind of an API request (undefined: a session, a page, anything the kinds do not name). */
export function kindOf(path: string, action: string | undefined): FaultKind | undefined {
  if (S2S_PATHS.has(path))
    return action && Object.hasOwn(KIND_OF_ACTION, action) ? KIND_OF_ACTION[action] : undefined
  return Object.hasOwn(KIND_OF_PATH, path) ? KIND_OF_PATH[path] : undefined
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
export const listFaults = (ctx: EngineContext): FaultRule[] =>
  tableOf(ctx).rules.map((r) => ({ ...r, match: { ...r.match } }))

/** Adds a rule; answers it. */
export function addFault(ctx: EngineContext, request: SandboxFaultRequest): FaultRule {
  const table = tableOf(ctx)
  const hold = request.hold_seconds ?? (request.mode === 'late' ? DEFAULT_HOLD_SECONDS : undefined)
  const rule: FaultRule = {
    id: `fault-${table.next++}`,
    mode: request.mode,
    match: { ...(request.match ?? {}) },
    remaining: request.count ?? 1,
    seconds: request.seconds ?? 30,
    ...(request.status !== undefined ? { status: request.status } : {}),
    ...(hold !== undefined ? { hold_seconds: hold } : {}),
    hits: 0,
  }
  table.rules.push(rule)
  return { ...rule, match: { ...rule.match } }
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

/** The first rule the request matches, counted as hit (and forgotten once it has no request left). */
export function takeFault(ctx: EngineContext, request: GatewayRequest, body: unknown): FaultRule | undefined {
  const table = tables.get(ctx)
  if (!table?.rules.length || request.path.startsWith('/sandbox/')) return undefined
  const action = actionOf(body)
  const rule = table.rules.find(
    (r) =>
      (!r.match.method || r.match.method === request.method) &&
      (!r.match.path || r.match.path === request.path) &&
      (!r.match.action || r.match.action === action) &&
      (!r.match.kind || r.match.kind === kindOf(request.path, action)),
  )
  if (!rule) return undefined
  rule.remaining--
  rule.hits++
  if (rule.remaining <= 0) table.rules.splice(table.rules.indexOf(rule), 1)
  return rule
}
