import qs from 'qs'
import { numberForMasked } from '../core/order-scenario/cards.js'
import type { Exchange } from './input/types.js'
import type { RoleMap } from './roles.js'

/**
 * A recorded request as the replay sends it: its ids and tokens replaced by the fresh sandbox's
 * (roles.ts), and what a redacted capture no longer holds put back by role: a masked test card
 * number becomes a Luhn-valid one of the same first 6 and last 4 (cards.ts), a removed CVV `123`
 * (any CVV is accepted with a test card, docs/rules.md#test-cards). Each such change is noted.
 */
export interface Prepared {
  path: string
  query: Record<string, string>
  search: string
  headers: Record<string, string>
  body: string
  /** The body as the file holds it, parsed (JSON or form); {} when it has none or it does not parse. */
  recordedFields: Record<string, unknown>
  /** The body as it will be sent, parsed. */
  sentFields: Record<string, unknown>
  notes: string[]
}

const MASKED = /(\d{6})((?:\*|%2A){2,9})(\d{4})/gi
/** Headers that describe the body or the connection: the engine's adapter would compute them again. */
const DROPPED = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'cookie',
  'accept-encoding',
  'keep-alive',
])

export const isForm = (headers: Record<string, string>) =>
  /x-www-form-urlencoded/i.test(headers['content-type'] ?? '')
const isJson = (headers: Record<string, string>) => /json/i.test(headers['content-type'] ?? '')

export function fieldsOf(text: string, headers: Record<string, string>): Record<string, unknown> {
  if (!text) return {}
  if (isJson(headers) || /^\s*\{/.test(text)) {
    try {
      const value: unknown = JSON.parse(text)
      return value && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : {}
    } catch {
      return {}
    }
  }
  return isForm(headers) || text.includes('=')
    ? (qs.parse(text, { depth: 32 }) as Record<string, unknown>)
    : {}
}

function unmask(text: string, notes: string[]): string {
  return text.replace(MASKED, (all, first: string, stars: string, last: string) => {
    const width = stars.replace(/%2A/gi, '*').length
    const number = numberForMasked(`${first}${'*'.repeat(width)}${last}`)
    if (!number) return all
    notes.push(
      `the card number is masked in the file (${first}${'*'.repeat(width)}${last}): sent as a test card with the same first 6 and last 4 digits`,
    )
    return number
  })
}

const CVV_NAMES = ['card_cvv2', 'cvv2', 'cvv']

/** A masked card with its security code removed (a redacted capture): `123` in its place, as a test card takes any. */
function restoreCvv(
  text: string,
  headers: Record<string, string>,
  fields: Record<string, unknown>,
  notes: string[],
): string {
  const hasCard = typeof fields.card_number === 'string'
  if (!hasCard || CVV_NAMES.some((n) => n in fields)) return text
  notes.push('the CVV is not in the file (removed): sent as 123, which a test card accepts')
  if (isForm(headers)) return `${text}${text ? '&' : ''}card_cvv2=123`
  if (isJson(headers)) return JSON.stringify({ ...fields, card_cvv2: '123' })
  return text
}

export function prepare(e: Exchange, gatewayPath: string, roles: RoleMap): Prepared {
  const notes: string[] = []
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(e.headers))
    if (!DROPPED.has(name)) headers[name] = roles.rewrite(value)
  const recordedFields = fieldsOf(e.body, e.headers)
  const masked = MASKED.test(e.body)
  MASKED.lastIndex = 0
  let body = unmask(roles.rewrite(e.body), notes)
  if (masked) body = restoreCvv(body, headers, fieldsOf(body, headers), notes)
  const search = roles.rewrite(e.url.search)
  return {
    path: roles.rewrite(gatewayPath),
    search,
    query: Object.fromEntries(new URLSearchParams(search)),
    headers,
    body,
    recordedFields,
    sentFields: fieldsOf(body, headers),
    notes,
  }
}

/** The prepared body with its hash replaced (the old value, as written in it, for the new one). */
export function withHash(prepared: Prepared, oldHash: unknown, hash: string): Prepared {
  if (typeof oldHash !== 'string' || !oldHash || oldHash === hash) return prepared
  const body = prepared.body.split(oldHash).join(hash)
  return { ...prepared, body, sentFields: { ...prepared.sentFields, hash } }
}
