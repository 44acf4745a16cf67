import { schemaRegistry } from '../../src/core/validation/schema-registry.js'
import { formatFieldError, validate } from '../../src/core/validation/index.js'

/**
 * Issue 11, point 1: "Responses are checked against their `x-endpoint.response` schemas in the
 * tests." Every successful JSON answer an API test receives through the test gateway is checked
 * against the response schema its request schema names: by path for Checkout, by path and
 * `action` for S2S (the `/v2/post` answer against `responseV2`).
 */
interface Endpoint {
  response: string
  responseV2?: string
}

let table: Map<string, Endpoint> | undefined
/** Control routes (`x-endpoint.responseOf` of schemas/control/): `METHOD /path/:param` patterns. */
let patterns: { method: string; segments: string[]; response: string }[] | undefined

function controlResponse(method: string, path: string): string | undefined {
  if (!patterns) {
    patterns = []
    const registry = schemaRegistry()
    for (const id of registry.ids()) {
      const of = (registry.schema(id) as { 'x-endpoint'?: { responseOf?: string[] } } | undefined)?.[
        'x-endpoint'
      ]?.responseOf
      for (const route of of ?? []) {
        const [m, p] = route.split(' ') as [string, string]
        patterns.push({ method: m, segments: p.split('/').filter(Boolean), response: id })
      }
    }
  }
  const parts = path.split('/').filter(Boolean)
  return patterns.find(
    (r) =>
      r.method === method &&
      r.segments.length === parts.length &&
      r.segments.every((s, i) => s.startsWith(':') || s === parts[i]),
  )?.response
}

function endpoints(): Map<string, Endpoint> {
  if (table) return table
  table = new Map()
  const registry = schemaRegistry()
  for (const id of registry.ids()) {
    const x = (
      registry.schema(id) as { 'x-endpoint'?: Record<string, string> & { alsoAt?: string[] } } | undefined
    )?.['x-endpoint']
    if (!x?.response || !x.path || !x.method) continue
    // `alsoAt`: the S2S APM debits and payouts answered at /post too (docs/rules.md#transport).
    for (const path of [x.path, ...(x.alsoAt ?? [])]) {
      const key = `${x.method} ${path}${x.action ? ` ${x.action}` : ''}`
      table.set(key, { response: x.response, ...(x.responseV2 ? { responseV2: x.responseV2 } : {}) })
    }
  }
  return table
}

/** Throws when a successful answer does not match the response schema of its endpoint (control routes included). */
export function checkResponse(
  method: string,
  path: string,
  requestBody: unknown,
  status: number,
  body: unknown,
) {
  if (status < 200 || status >= 300 || body === null || typeof body !== 'object') return
  // Issue 21 point 7: the control routes' answers (200, 201, 202) against schemas/control/.
  const control = path.startsWith('/sandbox/') ? controlResponse(method, path) : undefined
  if (control) {
    const result = validate(control, body)
    if (!result.valid)
      throw new Error(
        `${method} ${path}: the answer does not match ${control}:\n${result.errors.map((e) => `  ${formatFieldError(e)}`).join('\n')}\n${JSON.stringify(body).slice(0, 2000)}`,
      )
    return
  }
  if (status !== 200) return
  const v2 = path === '/v2/post'
  const action =
    requestBody && typeof requestBody === 'object'
      ? (requestBody as Record<string, unknown>).action
      : typeof requestBody === 'string'
        ? new URLSearchParams(requestBody).get('action')
        : undefined
  const found =
    endpoints().get(`${method} ${v2 ? '/post' : path}${typeof action === 'string' ? ` ${action}` : ''}`) ??
    endpoints().get(`${method} ${path}`)
  if (!found) return
  const schema = v2 ? (found.responseV2 ?? found.response) : found.response
  const result = validate(schema, body)
  if (!result.valid)
    throw new Error(
      `${method} ${path}: the answer does not match ${schema}:\n${result.errors.map((e) => `  ${formatFieldError(e)}`).join('\n')}\n${JSON.stringify(body)}`,
    )
}
