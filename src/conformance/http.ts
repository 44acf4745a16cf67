import qs from 'qs'
import type { ScenarioContext } from './context.js'

/** An answer of the gateway as the steps judge it. */
export interface HttpAnswer {
  status: number
  body: unknown
  text: string
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
  return { status: response.status, body: parsed, text }
}
