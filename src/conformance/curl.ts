import { maskCard } from '../core/engine/format.js'

/** One HTTP request the kit made or observed, as a failure reports it. */
export interface RecordedRequest {
  method: string
  url: string
  headers: Record<string, string>
  body: string
}

/**
 * The platform's published test cards (docs/rules.md#test-data): documentation values, so a reproduction
 * command may carry them in full. Any other card number is masked (first 6, last 4) wherever it
 * appears: a report is a log, and a log never holds a full card number.
 */
const TEST_CARDS = new Set(['4111111111111111', '4601541833776519', '1111222233334444'])

/** A card number is Luhn-valid; an id (a UUID's last group, a timestamp) seldom is, and is never masked for being long. */
function luhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0 && !/^0+$/.test(digits)
}

export const maskCards = (text: string): string =>
  text.replace(/(?<![\w-])\d{12,19}(?![\w-])/g, (digits) =>
    TEST_CARDS.has(digits) || !luhn(digits) ? digits : maskCard(digits),
  )

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

const SKIP_HEADERS = new Set([
  'content-length',
  'host',
  'connection',
  'user-agent',
  'accept-encoding',
  'accept',
])

/** A `curl` command that sends the same request again. */
export function toCurl(request: RecordedRequest): string {
  const parts = ['curl', '-sS', '-X', request.method, quote(request.url)]
  for (const [name, value] of Object.entries(request.headers)) {
    if (SKIP_HEADERS.has(name.toLowerCase())) continue
    parts.push('-H', quote(`${name}: ${value}`))
  }
  if (request.body) parts.push('--data-raw', quote(maskCards(request.body)))
  return parts.join(' ')
}
