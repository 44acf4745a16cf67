import { REMOVED, sensitiveKind } from '../core/request-log/redact.js'
import { reportText } from './reporters/redact.js'

/** One HTTP request the kit made or observed, as a failure reports it. */
export interface RecordedRequest {
  method: string
  url: string
  headers: Record<string, string>
  body: string
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

const SKIP_HEADERS = new Set([
  'content-length',
  'host',
  'connection',
  'user-agent',
  'accept-encoding',
  'accept',
])

/**
 * A `curl` command that sends the same request again, as a report may hold it (reporters/redact.ts):
 * card numbers masked (first 6, last 4; the published test cards too), no security code, no
 * password. Send it with the card's own number and CVV in their place.
 */
export function toCurl(request: RecordedRequest): string {
  const parts = ['curl', '-sS', '-X', request.method, quote(reportText(request.url))]
  for (const [name, value] of Object.entries(request.headers)) {
    if (SKIP_HEADERS.has(name.toLowerCase())) continue
    // A secret header (the control token) is named, never sent on: the reader has their own.
    const shown = sensitiveKind(name) === 'secret' ? REMOVED : value
    parts.push('-H', quote(reportText(`${name}: ${shown}`)))
  }
  if (request.body) parts.push('--data-raw', quote(reportText(request.body)))
  return parts.join(' ')
}
