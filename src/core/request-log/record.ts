import type { EngineContext } from '../engine/context.js'
import type { GatewayResponse, IncomingRequest } from '../engine/http.js'
import type { Payment, Session } from '../engine/model.js'
import type { RequestTrace, RouteDefinition } from '../engine/modules.js'
import { REMOVED, redactText, redactValue, sensitiveKind } from './redact.js'
import type { RequestRecord } from './types.js'

export type { RequestTrace }

/** The request headers worth keeping for support; the rest (cookies, proxies' own) are left out. */
const REQUEST_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'user-agent',
  'origin',
  'referer',
  'accept',
  'token',
  'x-request-id',
]
const RESPONSE_HEADERS = ['content-type', 'location', 'retry-after', 'sandbox-fault', 'sandbox-rule']

/**
 * Requests that only read and would drown an order's story: the control API's reads (the console
 * polls them), static assets, the APM page's own polling and the card fields' frames.
 */
export function worthRecording(route: RouteDefinition | undefined, method: string): boolean {
  if (!route) return true
  if (route.api === 'sandbox') return method !== 'GET'
  if (route.api !== 'page' || method !== 'GET') return true
  return route.path.includes('/:') && !SKIPPED_PAGES.has(route.path)
}
const SKIPPED_PAGES = new Set(['/apm/:paymentId/state', '/sdk/hosted-fields/:token/:field'])

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

/** The named headers, each cut at 512 characters and redacted, in one pass. */
const pick = (headers: Record<string, string>, names: readonly string[]) => {
  const out: Record<string, string> = {}
  for (const name of names) {
    const value = headers[name]
    if (value === undefined) continue
    const kind = sensitiveKind(name)
    if (kind === 'cvv' || kind === 'secret') continue
    out[name] = kind ? REMOVED : redactText(value.length > 512 ? `${value.slice(0, 512)}…` : value)
  }
  return out
}

/** The facts a request concerns, gathered from its body, its route's path and what it wrote. */
interface Concerns {
  merchant?: string
  order?: string
  session?: string
  payments: string[]
  /** Callback deliveries its unit of work queued. */
  callbacks: string[]
}

function concerns(ctx: EngineContext, request: IncomingRequest, trace: RequestTrace): Concerns {
  const body = trace.body ?? {}
  const out: Concerns = { payments: [], callbacks: [] }
  const addPayment = (id: string | undefined) => {
    if (id && !out.payments.includes(id)) out.payments.push(id)
  }
  const fromPayment = (p: Payment | undefined) => {
    if (!p) return
    out.merchant ??= p.merchant_key
    out.order ??= p.order_id
    addPayment(p.id)
  }
  const fromSession = (s: Session | undefined) => {
    if (!s) return
    out.merchant ??= s.merchant_key
    out.order ??= text((s.request.order as Record<string, unknown> | undefined)?.number)
    out.session ??= s.id
    addPayment(s.payment_id)
  }
  const key = text(body.merchant_key) ?? text(body.client_key)
  if (key && ctx.merchant(key)) out.merchant = key
  const order = body.order as Record<string, unknown> | undefined
  out.order = text(order?.number) ?? text(body.order_id)
  for (const op of trace.written ?? []) {
    if (op.kind !== 'put') continue
    if (op.collection === 'payments') fromPayment(op.record as Payment)
    else if (op.collection === 'sessions') fromSession(op.record as Session)
    else if (op.collection === 'deliveries' && !out.callbacks.includes(op.id)) out.callbacks.push(op.id)
  }
  const named = text(body.payment_id) ?? text(body.trans_id)
  if (named && named.length <= 200) {
    const stored = ctx.store.get('payments', named)
    // Another merchant's payment is not this request's story: it is answered as unknown.
    if (stored && (!out.merchant || stored.merchant_key === out.merchant)) fromPayment(stored)
    else addPayment(named)
  }
  const params = trace.params ?? {}
  const paymentParam = params.paymentId ?? (trace.route?.api === 'sandbox' ? params.id : undefined)
  if (paymentParam && paymentParam.length <= 200) fromPayment(ctx.store.get('payments', paymentParam))
  const pageToken = params.token
  if (pageToken && pageToken.length <= 200)
    fromSession(ctx.store.findBy('sessions', 'page_token', pageToken)[0])
  const apiToken = request.headers.token
  if (apiToken && apiToken.length <= 200) fromSession(ctx.store.findBy('sessions', 'token', apiToken)[0])
  return out
}

const isPage = (type: string | undefined) => !!type && /text\/html/i.test(type)

/** The record of one request and its answer; every value redacted (redact.ts) before it is kept. */
export function describeRequest(
  ctx: EngineContext,
  request: IncomingRequest,
  response: GatewayResponse,
  trace: RequestTrace,
  bodyLimit: number,
): Omit<RequestRecord, 'id' | 'seq'> {
  // Built field by field, without spread copies: this runs on every request (the log's cost is
  // measured against the gateway's own, bench/).
  const facts = concerns(ctx, request, trace)
  const route = trace.route
  const bytes = trace.bytes ?? 0
  const answerType = response.headers['content-type']
  const answerBytes = response.body.length
  const dropped = response.fault === 'drop'
  const keepAnswer = !response.stream && !isPage(answerType) && !dropped
  const sent: RequestRecord['request'] = { headers: pick(request.headers, REQUEST_HEADERS), bytes }
  if (trace.body && bytes <= bodyLimit) sent.body = redactValue(trace.body)
  if (bytes > bodyLimit) sent.truncated = true
  const answered: RequestRecord['response'] = {
    status: dropped ? 0 : response.status,
    headers: pick(response.headers, RESPONSE_HEADERS),
    bytes: answerBytes,
  }
  if (keepAnswer) {
    answered.body = redactText(answerBytes > bodyLimit ? response.body.slice(0, bodyLimit) : response.body)
    if (answerBytes > bodyLimit) answered.truncated = true
  }
  const record: Omit<RequestRecord, 'id' | 'seq'> = {
    at: trace.at,
    answered_at: ctx.clock.now(),
    method: request.method,
    path: redactText(trace.path ?? request.path),
    api: route?.api ?? 'none',
    payment_ids: facts.payments,
    request: sent,
    response: answered,
    warnings: response.warnings ?? NO_WARNINGS,
  }
  if (route) record.route = route.path
  const action = text(trace.body?.action)
  if (action) record.action = action
  if (facts.merchant) record.merchant = facts.merchant
  if (facts.order) record.order_id = facts.order
  if (facts.payments[0]) record.payment_id = facts.payments[0]
  if (facts.session) record.session_id = facts.session
  if (facts.callbacks.length) record.callbacks = facts.callbacks
  const refusal = response.refusal
  if (refusal)
    record.refusal = {
      rule: refusal.rule,
      ...(refusal.fields ? { fields: [...refusal.fields] } : {}),
      ...(refusal.formula ? { formula: refusal.formula } : {}),
      ...(refusal.inputs ? { inputs: [...refusal.inputs] } : {}),
    }
  const fault = response.headers['sandbox-fault']
  if (fault) record.fault = fault
  return record
}

const NO_WARNINGS: string[] = []
