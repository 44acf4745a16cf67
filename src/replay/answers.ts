import type { GatewayResponse } from '../core/engine/http.js'
import { ruleHeader } from '../core/engine/refusal.js'
import { redactBody, redactText } from '../core/request-log/redact.js'
import type { ReplayAnswer } from './run.js'

/** How the replay's report shows an answer and a callback: redacted, cut, a page by its size. */

const BODY_SHOWN = 4000

/** A dropped connection (a fault) has no status: 0, as a capture records an answer that never came. */
export const answerStatus = (r: GatewayResponse) => (r.fault === 'drop' ? 0 : r.status)

export const shown = (text: string, type?: string) => {
  const redacted = redactBody(text, type)
  return redacted.length > BODY_SHOWN
    ? `${redacted.slice(0, BODY_SHOWN)}… (${text.length} characters)`
    : redacted
}

function bodyShown(type: string | undefined, body: string): string {
  if (type && /html/i.test(type)) return `(a page of ${body.length} characters)`
  return shown(body, type)
}

export function recordedAnswer(r: {
  status: number
  headers: Record<string, string>
  body: string
}): ReplayAnswer {
  const type = r.headers['content-type']
  return {
    status: r.status,
    ...(type ? { type } : {}),
    ...(r.headers.location ? { location: redactText(r.headers.location) } : {}),
    body: bodyShown(type, r.body),
    ...(r.headers['sandbox-rule'] ? { rule: r.headers['sandbox-rule'] } : {}),
  }
}

export function sandboxAnswer(r: GatewayResponse): ReplayAnswer {
  const type = r.headers['content-type']
  return {
    status: answerStatus(r),
    ...(type ? { type } : {}),
    ...(r.headers.location ? { location: redactText(r.headers.location) } : {}),
    body: bodyShown(type, r.body),
    ...(r.refusal ? { rule: ruleHeader(r.refusal) } : {}),
    ...(r.warnings?.length ? { warnings: r.warnings } : {}),
  }
}

/** `sale/settled` (Checkout), `SALE SUCCESS SETTLED` (S2S): what a callback reported. */
export function describeCallback(request: { body: string }): string {
  const f = new URLSearchParams(request.body)
  const status = f.get('order_status')
  return status !== null
    ? `${f.get('type') ?? ''}/${status}`
    : [f.get('action'), f.get('result'), f.get('status')].filter(Boolean).join(' ')
}
