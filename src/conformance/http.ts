import qs from 'qs'
import { errorCatalogue } from '../core/engine/errors.js'
import { parseRuleHeader, type Refusal } from '../core/engine/refusal.js'
import { isRuleId, type RuleId } from '../core/engine/rules.js'
import type { ScenarioContext } from './context.js'

/** An answer of the gateway as the steps judge it. */
export interface HttpAnswer {
  status: number
  body: unknown
  text: string
  /** Why the gateway refused it (docs/rules.md#rule-book), when it says or its codes tell. */
  refusal?: Pick<Refusal, 'rule' | 'fields' | 'formula'>
}

/**
 * The refusal of an answer: its `Sandbox-Rule` header (a paysandbox); else, from another gateway,
 * the rule of the catalogue's rows of its status and codes, when they name one (codes and rows are
 * data: the answer's words are never read; 100000 and 0 name too many rules to tell).
 */
export function refusalOf(header: string | null, status: number, body: unknown): HttpAnswer['refusal'] {
  const sent = parseRuleHeader(header)
  if (sent && isRuleId(sent.rule)) return { ...sent, rule: sent.rule }
  const b = (body && typeof body === 'object' ? body : {}) as {
    error_code?: unknown
    errors?: { error_code?: unknown }[]
  }
  const codes = [b.error_code, ...(Array.isArray(b.errors) ? b.errors.map((e) => e.error_code) : [])]
  const rows = [...errorCatalogue().values()].filter(
    (row) => row.http_code === status && row.error_code > 100000,
  )
  const rules = new Set(rows.filter((row) => codes.includes(row.error_code)).map((row) => row.rule as RuleId))
  const [rule] = rules
  return rules.size === 1 && rule ? { rule } : undefined
}

/** Nested values become bracket notation, as S2S forms carry them (docs/rules.md#transport). */
export const encodeS2sForm = (body: Record<string, unknown>): string =>
  qs.stringify(body, { encodeValuesOnly: true, arrayFormat: 'indices' })

/**
 * One request to the scenario's gateway over HTTP, recorded on the context so a failure can
 * print it as a curl command. Never throws for an HTTP answer; a refused connection fails the step.
 */
export async function sendToGateway(
  ctx: ScenarioContext,
  request: {
    method: string
    path: string
    headers?: Record<string, string>
    json?: unknown
    form?: Record<string, unknown>
  },
): Promise<HttpAnswer> {
  const url = ctx.gatewayUrl + request.path
  const body =
    request.form !== undefined
      ? encodeS2sForm(request.form)
      : request.json !== undefined
        ? JSON.stringify(request.json)
        : ''
  const headers: Record<string, string> = {
    ...(request.form !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    ...(request.json !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(ctx.controlToken && request.path.startsWith('/sandbox/')
      ? { 'x-sandbox-control-token': ctx.controlToken }
      : {}),
    ...(request.headers ?? {}),
  }
  ctx.request = { method: request.method, url, headers, body }
  const response = await fetch(url, {
    method: request.method,
    headers,
    ...(body && request.method !== 'GET' ? { body } : {}),
    signal: AbortSignal.timeout(30_000),
  })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // An HTML page or an empty answer stays text; the expectation says whether that is wrong.
  }
  const refusal = refusalOf(response.headers.get('sandbox-rule'), response.status, parsed)
  return { status: response.status, body: parsed, text, ...(refusal ? { refusal } : {}) }
}
