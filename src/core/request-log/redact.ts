import { maskCard } from '../engine/format.js'
import { luhnValid } from '../payments/card.js'

/**
 * What may be kept of a request or an answer (docs/rules.md#request-log): a card number only
 * masked (first 6, last 4), no security code and no password at all, no token's value. One
 * module for the request log, the order's scenario and the replay's report and files, so every
 * output hides the same things, whatever its input held (a captured browser session holds the
 * full card number and the CVV the payer typed).
 */

/** What a token's value is replaced with: the key stays, so a reader sees one was sent. */
export const REMOVED = '[removed]'
/** `[removed]`, or a redacted capture's role placeholder (`[token-2]`): already nothing to hide. */
export const PLACEHOLDER = /^\[[a-z0-9-]+\]$/

const CARD_KEYS = new Set([
  'card_number',
  'payer_card_number',
  'cardnumber',
  'card_no',
  'pan',
  'ccnumber',
  'cc_number',
])
const CVV_KEYS = new Set([
  'cvv',
  'cvv2',
  'cvc',
  'cvc2',
  'csc',
  'cid',
  'card_cvv',
  'card_cvv2',
  // S2S CARD CARD2CARD names the payer's card with a `payer_` prefix (payer_card_number is a card key above).
  'payer_card_cvv2',
  'card_cvc',
  'security_code',
])
const SECRET_KEYS = new Set([
  'password',
  'passwd',
  'pass',
  'merchant_pass',
  'merchant_password',
  'secret',
  'client_secret',
  'api_secret',
  'control_token',
  'x-sandbox-control-token',
])
const TOKEN_KEYS = new Set([
  'token',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api_key',
])

/** `card[cvv2]` and `card.number` are read by their last part; `Card-Number` as `card_number`. */
const lastPart = (key: string): string => {
  const parts = key
    .toLowerCase()
    .replace(/-/g, '_')
    .split(/[[\].]+/)
  for (let i = parts.length - 1; i >= 0; i--) if (parts[i]) return parts[i] as string
  return ''
}

const isFlag = (value: unknown): boolean =>
  typeof value !== 'string' || /^(y|n|yes|no|true|false|0|1)$/i.test(value) || value === ''

type Kind = 'card' | 'cvv' | 'secret' | 'token' | undefined

/** Keys repeat on every request (`order`, `amount`, `hash`): each is read once, up to a bound. */
const kinds = new Map<string, Kind>()
const KINDS_KEPT = 4096

/** Which kind of secret a key names, given its parent (`number` is a card number inside `card`). */
export function sensitiveKind(key: string, parent = ''): Kind {
  const cacheKey = parent ? `${parent}\u0000${key}` : key
  const known = kinds.get(cacheKey)
  if (known !== undefined || kinds.has(cacheKey)) return known
  const name = lastPart(key)
  const lower = key.toLowerCase()
  const kind: Kind = CVV_KEYS.has(name)
    ? 'cvv'
    : SECRET_KEYS.has(name) || SECRET_KEYS.has(lower)
      ? 'secret'
      : CARD_KEYS.has(name) || (name === 'number' && /card/i.test(`${parent}${key}`))
        ? 'card'
        : TOKEN_KEYS.has(name) || TOKEN_KEYS.has(lower) || /_token$/.test(name)
          ? 'token'
          : undefined
  if (kinds.size >= KINDS_KEPT) kinds.clear()
  kinds.set(cacheKey, kind)
  return kind
}

/** The page token in a hosted page's path (`/auth/<token>`, `/hpf/<token>`, the fields SDK's). */
const PAGE_TOKEN = /(\/(?:auth|hpf|sdk\/hosted-fields|sandbox\/sessions)\/)([A-Za-z0-9_-]{8,})/g
/** A token in a query string or a form (`token=…`, `card_token=…`). */
const QUERY_TOKEN = /([?&](?:[a-z_]*token|password|cvv2?|(?:payer_)?card_cvv2)=)[^&#\s"']*/gi
/** A token or a secret as a JSON member, in a text that is (or holds) JSON. */
const JSON_SECRET =
  /("(?:[A-Za-z_]*_token|token|password|merchant_pass|(?:payer_)?card_cvv2|cvv2?|cvc)"\s*:\s*)"(?:[^"\\]|\\.)*"/g
/**
 * A run of 12 to 19 digits (spaces, dashes or a form's `+` between groups allowed) not inside a longer word, nor
 * a JSON number (`"now_ms":1793613600000`: after a colon or a dot); cards travel as strings.
 */
const CARD_RUN = /(?<![\w.:-])\d(?:[ +-]?\d){11,18}(?![\w.-])/g

/**
 * Free text (a URL, a message, an HTML page, a JSON answer): Luhn-valid card numbers masked,
 * page tokens and token or password members replaced, CVV members removed of their value.
 */
export function redactText(text: string): string {
  // Most values hold none of these (an amount, a currency, a key): each pattern runs only when its
  // cheap sign is there, which keeps the request log's cost per request small.
  if (text.length < 8) return text
  let out = text
  if (/\d{4}/.test(out))
    out = out.replace(CARD_RUN, (run) => {
      const digits = run.replace(/\D/g, '')
      return luhnValid(digits) && !/^0+$/.test(digits) ? maskCard(digits) : run
    })
  if (SIGN_PAGE.test(out)) out = out.replace(PAGE_TOKEN, `$1${REMOVED}`)
  if (out.includes('=') && SIGN_SECRET.test(out)) out = out.replace(QUERY_TOKEN, `$1${REMOVED}`)
  if (out.includes('"') && SIGN_SECRET.test(out)) out = out.replace(JSON_SECRET, `$1"${REMOVED}"`)
  return out
}

const SIGN_PAGE = /\/(auth|hpf|sdk|sandbox)\//
const SIGN_SECRET = /token|password|merchant_pass|cvv|cvc/i

/**
 * A parsed body (JSON or form, bracket notation expanded), copied: card numbers masked under
 * their keys and wherever a Luhn-valid number stands, security codes and passwords left out,
 * tokens replaced by `[removed]`. Flags named like tokens (`req_token: true`) stay.
 */
export function redactValue(value: unknown, key = '', parent = ''): unknown {
  if (typeof value === 'string') {
    const kind = key ? sensitiveKind(key, parent) : undefined
    if (kind === 'card') return /^\d{6}\*+\d{4}$/.test(value) ? value : maskCard(value)
    if (kind === 'token' && !isFlag(value) && !PLACEHOLDER.test(value)) return REMOVED
    return redactText(value)
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, key, parent))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const kind = sensitiveKind(k, key)
      if (kind === 'cvv' || kind === 'secret') continue
      out[k] = redactValue(v, k, key)
    }
    return out
  }
  return value
}

/** Headers as they may be kept: secrets left out, tokens and cookies replaced. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const kind = sensitiveKind(name)
    if (kind === 'cvv' || kind === 'secret') continue
    out[name] = kind === 'token' || kind === 'card' ? REMOVED : redactText(value)
  }
  return out
}

/**
 * A body as text, by its content type: a form and a JSON document field by field (redactValue:
 * security codes and passwords left out, not only emptied), anything else as free text.
 */
export function redactBody(text: string, contentType = ''): string {
  if (!text) return text
  if (/json/i.test(contentType) || /^\s*[{[]/.test(text)) {
    try {
      return JSON.stringify(redactValue(JSON.parse(text)))
    } catch {
      return redactText(text)
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType) || /^[\w%[\].-]+=/.test(text)) {
    const out = new URLSearchParams()
    for (const [key, value] of new URLSearchParams(text)) {
      const kind = sensitiveKind(key)
      if (kind === 'cvv' || kind === 'secret') continue
      out.append(key, String(redactValue(value, key)))
    }
    return out.toString().replace(/%2A/gi, '*').replace(/%5B/gi, '[').replace(/%5D/gi, ']')
  }
  return redactText(text)
}
