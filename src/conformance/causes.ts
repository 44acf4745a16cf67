import { currencyExponent, formatDay } from '../core/engine/format.js'
import type { Payment } from '../core/engine/model.js'
import { formatMinor, refundableMinor } from '../core/payments/ledger.js'
import { documentedDecimals } from '../core/validation/amounts.js'
import { type CallbackAttempt, type CallbackRecord, describeAttempts } from './callback-channel.js'
import { callbackSigning, memoryOf } from './callback-signing.js'
import type { ScenarioContext } from './context.js'
import { apiOfPath } from './endpoints.js'
import { chainDiagnosis } from './chain-diagnosis.js'
import { diagnoseHash } from './hash-diagnosis.js'
import { isRefundRequest, paymentIdOf } from './observations.js'
import {
  AMOUNT_RULE,
  CALLBACK_FORMULAS,
  CALLBACK_RULE,
  CONTENT_TYPE_RULE,
  formulaFor,
  HPF_ENDPOINT_RULE,
  releaseNote,
  VOID_RULE,
  SESSION_EXPIRY_RULE,
} from './rules.js'
import type { ObservedRequest } from './sandbox-host.js'
import { expectedHash } from './signing.js'
import { describeCallback } from './steps/select.js'
import type { Finding } from './types.js'
import { doneUnanswered, faultAnswer, faultOutcome, unanswered, wasDone } from './fault-outcomes.js'
import { moneyActionFindings } from './resent-actions.js'
import { unappliedCallbackFindings } from './unapplied-callbacks.js'

/**
 * Cause first (docs/conformance.md, Read a failure): what the merchant did that the gateway
 * refused or warned about, and the callbacks it did not acknowledge, each a finding of its own
 * with the request as sent, the gateway's answer, the rule it broke and the fix. The headline of
 * a failure is derived from these observations (the first refused request, else the first
 * unacknowledged callback), never from a text fixed per scenario.
 */

/** 4111111111111111 → 411111******1111: a card number is never shown in full. */
export const maskCards = (text: string): string =>
  text.replace(
    /\b(\d{6})(\d{3,9})(\d{4})\b/g,
    (_, a: string, mid: string, b: string) => `${a}${'*'.repeat(mid.length)}${b}`,
  )

/** A request the gateway refused: an HTTP error, or an S2S `result: ERROR`. Injected faults and expected refusals are not the merchant's. */
export function isRefused(r: ObservedRequest): boolean {
  if (r.fault || r.expectedRefusal || notFoundLookup(r)) return false
  const json = r.answer.json as Record<string, unknown> | undefined
  return r.answer.status >= 400 || (!!json && typeof json === 'object' && json.result === 'ERROR')
}

const LOOKUPS = new Set(['GET_TRANS_STATUS', 'GET_TRANS_STATUS_BY_ORDER', 'GET_TRANS_DETAILS'])

/** A status lookup answered "not found" is information (nothing was done), not a refusal. */
function notFoundLookup(r: ObservedRequest): boolean {
  const json = (r.answer.json ?? {}) as Record<string, unknown>
  const lookup = r.path === '/api/v1/payment/status' || LOOKUPS.has(String(r.body?.action ?? ''))
  return (
    lookup && (String(json.error_code) === '101000' || /not (be )?found|does not exist/i.test(r.answer.text))
  )
}

/** The gateway's own words: `hash: This value should not be blank.`, each item of `errors[]`, else error_message. */
export function gatewayWords(r: ObservedRequest): string[] {
  const json = r.answer.json as Record<string, unknown> | undefined
  if (!json || typeof json !== 'object') return [r.answer.text.slice(0, 200) || `HTTP ${r.answer.status}`]
  const items = Array.isArray(json.errors)
    ? (json.errors as Record<string, unknown>[]).map((e) => String(e.error_message ?? '')).filter(Boolean)
    : []
  if (items.length) return items
  return [String(json.error_message ?? json.decline_reason ?? r.answer.text.slice(0, 200))]
}

const fieldOf = (words: string): string | undefined => /^([A-Za-z0-9_.[\]]+):\s/.exec(words)?.[1]

function valueAt(body: Record<string, unknown> | undefined, path: string): unknown {
  let here: unknown = body
  for (const key of path.replace(/\[(\w+)\]/g, '.$1').split('.')) {
    if (!here || typeof here !== 'object') return undefined
    here = (here as Record<string, unknown>)[key]
  }
  return here
}

const actionOf = (r: ObservedRequest) => (typeof r.body?.action === 'string' ? r.body.action : undefined)

export const requestName = (r: ObservedRequest) =>
  `${r.method} ${r.path}${actionOf(r) ? ` ${actionOf(r)}` : ''}`

/** The rule and the fix for one of the gateway's messages about a request. */
function ruleAndFix(
  r: ObservedRequest,
  words: string,
  ctx: ScenarioContext,
  requests: ObservedRequest[],
): { rule: string; fix: string; cause?: string } {
  const api = apiOfPath(r.path) ?? 'checkout'
  const action = actionOf(r)
  const field = fieldOf(words)
  const body = r.body
  if (r.answer.status === 415 || (!body && r.text))
    return {
      rule: CONTENT_TYPE_RULE,
      fix: `send ${r.path} with the content type of its API (it was sent as ${r.headers['content-type'] ?? 'no content type'})`,
    }
  if (/endpoint does not match the session operation/i.test(words))
    return {
      rule: HPF_ENDPOINT_RULE,
      fix: `send the card to the endpoint of the session's operation, not ${r.path}`,
    }
  if (/payment already exists/i.test(words))
    return {
      rule: 'one session, one payment: a payment request whose answer never came may have been done, and the status lookup says what became of it (Events; docs/conformance.md, Gateway faults)',
      fix: "the session's payment was already made by an earlier request: look it up (POST /api/v1/payment/status by order_id) and book what the gateway answers instead of paying again",
    }
  const chain = chainDiagnosis(r, words, ctx)
  if (chain) return chain
  if (/void is not allowed/i.test(words) || (action === 'VOID' && r.answer.status >= 400))
    return {
      rule: VOID_RULE,
      ...voidDiagnosis(r, ctx),
    }
  if (field === 'hash' || /\bhash\b|signature/i.test(words)) {
    const formula = formulaFor(api, r.path, action) ?? 'the formula of this endpoint (Authentication)'
    let expected: string | undefined
    try {
      expected = body
        ? expectedHash(
            api,
            { path: r.path, ...(action ? { action } : {}) },
            body,
            ctx.credentials.password,
            memoryOf(requests.filter((o) => o.seq < r.seq)),
          )
        : undefined
    } catch {
      expected = undefined
    }
    const sent = body?.hash
    const earlier = requests.filter((o) => o.seq < r.seq)
    const { password } = ctx.credentials
    const memory = memoryOf(earlier)
    const cause = body && diagnoseHash({ api, path: r.path, action, body, password, memory, earlier }, sent)
    return {
      rule: `${formula} (Authentication; docs/rules.md#signatures)`,
      fix: cause
        ? cause.fix
        : sent === undefined || sent === ''
          ? `sign the request: it carried no hash${expected ? `; with the adapter's password this one is ${expected}` : ''}`
          : `compute the hash with that formula${expected ? `: for this request ${expected}, not ${JSON.stringify(sent)}` : ''}`,
      ...(cause
        ? { cause: cause.mistake }
        : sent === undefined || sent === ''
          ? { cause: 'the merchant sent it unsigned (no hash)' }
          : {}),
    }
  }
  if (field && /(^|\.|_)amount$/.test(field) && /bigger|exceed|more than|above/i.test(words))
    return {
      rule: 'a refund or capture is at most what the payment has left: charged less refunded, or the authorized amount (States and transitions)',
      fix: `send at most what remains, or no amount for all of it (it was ${JSON.stringify(valueAt(body, field))})`,
      ...leftOf(r, ctx, valueAt(body, field)),
    }
  if (field && /(^|\.|_)amount$/.test(field)) {
    const sent = valueAt(body, field)
    const fix =
      typeof sent === 'number'
        ? `send ${field} as a string ("${sent.toFixed(2)}" for a 2-decimal currency), not the JSON number ${sent}`
        : typeof sent === 'string' && sent.includes(',')
          ? sent.includes('.')
            ? `leave the thousands separators out: ${JSON.stringify(sent.replaceAll(',', ''))}`
            : `use a dot as the decimal separator: ${JSON.stringify(sent.replace(',', '.'))}`
          : `send ${field} with the currency's decimals (it was ${JSON.stringify(sent)})`
    const cause =
      typeof sent === 'number'
        ? `the merchant sent ${field} as the JSON number ${sent}, where the API takes a decimal string`
        : typeof sent === 'string' && sent.includes(',')
          ? `the merchant sent ${field} ${JSON.stringify(sent)}, with a comma as ${sent.includes('.') ? 'a thousands separator' : 'the decimal separator'}`
          : undefined
    return { rule: AMOUNT_RULE, fix, ...(cause ? { cause } : {}) }
  }
  if (field === 'session_expiry') {
    const sent = valueAt(body, field)
    const seconds = typeof sent === 'number' && sent > 720 && sent % 60 === 0
    const fix = seconds
      ? `session_expiry ${sent} looks like seconds: send minutes (${sent / 60})`
      : typeof sent === 'string'
        ? `send session_expiry as a JSON integer, not the string ${JSON.stringify(sent)}`
        : `send a whole number of minutes from 1 to 720 (it was ${JSON.stringify(sent)})`
    return {
      rule: SESSION_EXPIRY_RULE,
      fix,
      ...(seconds
        ? {
            cause: `session_expiry ${sent} looks like seconds (${sent / 60} minutes); it is counted in minutes`,
          }
        : {}),
    }
  }
  if (field) {
    const sent = valueAt(body, field)
    const asBoolean =
      typeof sent === 'string' && /^(true|false|Y|N|yes|no|0|1)$/i.test(sent) && api === 'checkout'
        ? `; Checkout takes booleans as JSON true/false, not ${JSON.stringify(sent)}`
        : api !== 'checkout' && /\bY, N\b/.test(words) && sent !== undefined
          ? `; S2S flags are the letters Y or N (docs/rules.md#booleans): ${JSON.stringify(sent)} is ${/^(true|yes|1|y)$/i.test(String(sent)) ? `${field}=Y` : `${field}=N, or no ${field} at all`}`
          : ''
    const nested =
      sent === undefined && field.startsWith('order_') && body?.order && typeof body.order === 'object'
        ? `; the request nests its order under "order" (as a session request does), where ${r.path} takes flat order_id, order_amount, order_currency and order_description`
        : ''
    const cause = nested
      ? `the merchant nests its order under "order", where ${r.path} takes flat order_id, order_amount, order_currency and order_description`
      : asBoolean && api !== 'checkout'
        ? `the merchant sent ${field} ${JSON.stringify(sent)}, a boolean spelled as a word, where S2S flags are the letters Y or N`
        : undefined
    return {
      rule: `${field} as the ${api} request schema of ${requestName(r)} describes it (docs/conformance.md; \`paysandbox validate\`)`,
      fix: `${sent === undefined ? `send ${field} (the gateway: "${words}")` : `correct ${field}, which was ${JSON.stringify(sent)} (the gateway: "${words}")`}${asBoolean}${nested}`,
      ...(cause ? { cause } : {}),
    }
  }
  return {
    rule: `the gateway's answer to ${requestName(r)} (HTTP ${r.answer.status})`,
    fix: `send what the gateway asks: ${words}`,
  }
}

function requestFinding(r: ObservedRequest, ctx: ScenarioContext, requests: ObservedRequest[]): Finding {
  const words = gatewayWords(r)
  const { rule, fix, cause } = ruleAndFix(r, words[0] ?? '', ctx, requests)
  const release = releaseNote(`${words.join(' ')} ${r.answer.text}`)
  return {
    kind: 'refused-request',
    headline: `the gateway refused the merchant's ${requestName(r)} (HTTP ${r.answer.status}): ${words.join('; ')}${cause ? `: ${cause}` : ''}`,
    request: `${requestName(r)} ${maskCards(r.text).slice(0, 600)}`,
    answer: `HTTP ${r.answer.status} ${r.answer.text.slice(0, 400)}`,
    rule: release ? `${rule}; ${release}` : rule,
    fix,
  }
}

function warningFinding(r: ObservedRequest): Finding {
  const warnings = r.answer.warnings ?? []
  const documented = warnings.map((w) => /documented: ([^;]*)/.exec(w)?.[1]).filter(Boolean)
  return {
    kind: 'warning',
    headline: `the gateway served the merchant's ${requestName(r)} with a Sandbox-Warning: ${warnings.join(' | ')}`,
    request: `${requestName(r)} ${maskCards(r.text).slice(0, 600)}`,
    answer: `HTTP ${r.answer.status} ${r.answer.text.slice(0, 300)}`,
    rule: `the platform documents this form differently and may refuse it (docs/rules.md#warnings-and-releases)${releaseNote(warnings.join(' ')) ? `; ${releaseNote(warnings.join(' '))}` : ''}`,
    fix: documented.length
      ? `send it as documented: ${documented.join('; ')}`
      : 'send it as the interface documents it',
  }
}

const KIT_FAILED = /refused by the kit/

/** The first genuine callback whose first attempt that reached the merchant was not acknowledged. */
function firstUnacknowledged(
  ctx: ScenarioContext,
): { record: CallbackRecord; first: CallbackAttempt } | undefined {
  for (const record of ctx.channel.log) {
    if (record.source !== 'gateway' || record.expectedRefusal) continue
    const first = record.attempts.filter((a) => !(a.error && KIT_FAILED.test(a.error)))[0]
    if (first && !first.acknowledged) return { record, first }
  }
  return undefined
}

/**
 * A callback whose hash the kit recomputes with the sandbox's formula and the adapter's password
 * (MD5 or SHA256 mode) and finds right, with the formula over its values and the mistakes to try.
 */
const signedRight = (ctx: ScenarioContext, r: CallbackRecord) =>
  callbackSigning(r, ctx.credentials.password, ctx.hosted?.requests ?? [])

const hashTroubleIn = (attempt: CallbackAttempt) =>
  !/json|unexpected token|parse|syntax/i.test(attempt.body ?? attempt.error ?? '') &&
  /hash|signature/i.test(attempt.body ?? attempt.error ?? '')

/**
 * Where a merchant may look for a Checkout callback's flat field: the nested key of the session
 * request it sent (`order[number]` for `order_number`), as a form parser names it.
 */
const NESTED_READS: [flat: string, nested: string][] = [
  ['order_number', 'order[number]'],
  ['order_amount', 'order[amount]'],
  ['order_currency', 'order[currency]'],
  ['order_description', 'order[description]'],
]

/** At most this many re-sends of one refused S2S callback, each signed by one mistake. */
const MAX_PROBES = 6

/**
 * A genuine callback the merchant refused for its hash: the gateway signed it right, so the
 * merchant computed its hash over other values, or by another formula. Checkout: the kit sends the
 * same callback again with one nested key added at a time (the flat fields and the hash
 * unchanged); the one the merchant then acknowledges is the key it reads. S2S CARD and S2S APM:
 * the kit sends it again with only its hash replaced, by the hash of one common mistake in the
 * formula at a time (src/core/signatures: `s2sCardCallbackMistakes`, `s2sApmCallbackMistakes`);
 * the first the merchant acknowledges is the mistake it makes. Once per scenario, after a step
 * failed (the scenario stops there), and shown in the report as `[probe]` callbacks.
 */
export async function probeRefusedCallback(ctx: ScenarioContext): Promise<void> {
  if (ctx.mode !== 'merchant' || !ctx.hosted || ctx.callbackProbe) return
  const found = firstUnacknowledged(ctx)
  if (!found) return
  // Only a callback the kit found signed right: then the merchant's check, not the callback, is wrong.
  const signing = hashTroubleIn(found.first) ? signedRight(ctx, found.record) : undefined
  if (!signing) return
  const { record } = found
  ctx.callbackProbe = { index: record.index }
  if (record.api !== 'checkout') {
    for (const mistake of signing.mistakes.slice(0, MAX_PROBES)) {
      const probe = await ctx.channel.sendOwn(record, { ...record.fields, hash: mistake.hash }, 'probe')
      probe.forgery = `the same callback signed ${mistake.name}`
      if (probe.attempts.at(-1)?.acknowledged) {
        ctx.callbackProbe = { index: record.index, mistake }
        return
      }
    }
    return
  }
  for (const [flat, nested] of NESTED_READS) {
    const value = record.fields[flat]
    if (value === undefined || nested in record.fields) continue
    const probe = await ctx.channel.sendOwn(record, { ...record.fields, [nested]: value }, 'probe')
    probe.forgery = `the same callback with ${nested} added`
    if (probe.attempts.at(-1)?.acknowledged) {
      ctx.callbackProbe = { index: record.index, flat, nested }
      return
    }
  }
}

/** `HTTP 400 "invalid hash"`: one answer of the merchant to a callback. */
const answerText = (a: CallbackAttempt) =>
  a.error ? a.error : `HTTP ${a.status}${a.body ? ` ${JSON.stringify(a.body.slice(0, 120))}` : ''}`

/** Checkout: the flat fields the hash is computed over, with the values this callback carries. */
const CHECKOUT_SIGNED = ['id', 'order_number', 'order_amount', 'order_currency', 'order_description']

/** A genuine callback whose first attempt that reached the merchant was not acknowledged. */
function callbackFinding(ctx: ScenarioContext): Finding | undefined {
  const found = firstUnacknowledged(ctx)
  if (!found) return undefined
  const { record: r, first } = found
  const text = first.body ?? first.error ?? ''
  const parseTrouble = /json|unexpected token|parse|syntax/i.test(text)
  const serverError = (first.status ?? 0) >= 500
  const hashTrouble = hashTroubleIn(first)
  const signing = hashTrouble ? signedRight(ctx, r) : undefined
  const verified = !!signing
  const diagnosis = parseTrouble
    ? ': its callback handler could not read the body: callbacks are form-encoded (application/x-www-form-urlencoded), not JSON'
    : serverError
      ? ': its callback handler failed on the callback (HTTP 5xx); callbacks are form-encoded (application/x-www-form-urlencoded), read them as a form'
      : first.timedOut
        ? ': a time-out is a failed attempt (answer first, then do slow work)'
        : verified
          ? `: the gateway signed it right (the kit checked its hash with the adapter's password), so the merchant's check computes another hash (another formula, or other values than the callback's${r.api === 'checkout' ? ' flat' : ''} form fields)`
          : (first.status ?? 0) >= 300 && (first.status ?? 0) < 400
            ? `: a redirect is not an acknowledgement: the callback URL itself answers ${r.api === 'checkout' ? 'a 2xx' : '200 with the body OK'}, and the kit does not follow it (docs/rules.md#acknowledgement)`
            : r.api !== 'checkout' && first.status === 200
              ? ': an S2S callback is acknowledged by the body OK, and only by it (docs/rules.md#acknowledgement)'
              : ''
  const rule = r.api === 'checkout' ? 'any 2xx' : 'the body OK'
  const probe = ctx.callbackProbe?.index === r.index ? ctx.callbackProbe : undefined
  const read = probe?.flat && probe.nested ? { flat: probe.flat, nested: probe.nested } : undefined
  const mistake = r.api !== 'checkout' ? probe?.mistake : undefined
  const flatFields =
    verified && r.api === 'checkout'
      ? `read the callback's flat form fields (${Object.keys(r.fields).join(', ')}): ${CALLBACK_FORMULAS.checkout} over ${CHECKOUT_SIGNED.map((k) => `${k} ${JSON.stringify(r.fields[k] ?? '')}`).join(', ')} and the adapter's password is ${r.fields.hash ?? ''}, the hash this callback carries; then answer ${rule}`
      : signing
        ? `verify the callback with ${signing.over} and the adapter's password: for this callback ${r.fields.hash ?? ''}, the hash it carries${mistake ? ` (signed ${mistake.name}, it is ${mistake.hash})` : ''}; then answer ${rule}`
        : undefined
  const apiName = r.api === 's2s-apm' ? 'S2S APM' : 'S2S CARD'
  return {
    kind: 'unacknowledged-callback',
    headline: read
      ? `the merchant reads the callback's ${read.flat} from ${read.nested}, where the gateway posts the flat form field ${read.flat}: it refused ${describeCallback(r)}, signed right, with ${answerText(first)}, and acknowledged the same callback once the kit added ${read.nested}`
      : mistake
        ? `the merchant verifies ${apiName} callbacks with a hash computed ${mistake.name}: it refused ${describeCallback(r)}, signed right, with ${answerText(first)}, and acknowledged the same callback signed ${mistake.name}`
        : `the merchant did not acknowledge ${describeCallback(r)}: ${describeAttempts([first])}${diagnosis}`,
    request: `POST ${r.url} (application/x-www-form-urlencoded) ${maskCards(r.text).slice(0, 400)}`,
    answer: describeAttempts(r.attempts),
    rule: hashTrouble
      ? `the callback's ${CALLBACK_FORMULAS[r.api] ?? 'hash'}, over its flat form fields (Authentication; docs/rules.md#signatures; docs/rules.md#callbacks)`
      : CALLBACK_RULE,
    fix: flatFields
      ? read
        ? `take ${read.flat} from the flat field ${read.flat} (a callback carries no ${read.nested}); ${flatFields}`
        : flatFields
      : hashTrouble
        ? `the gateway signed this callback correctly (hash ${r.fields.hash ?? ''}): verify it with that formula and the adapter's password, then answer ${rule}`
        : parseTrouble || serverError
          ? `parse the callback body as a form (content-type application/x-www-form-urlencoded) and answer ${rule}`
          : `answer ${rule} once the callback is verified and booked`,
  }
}

/** A decimal string as an integer and its scale: "12.345" → 12345n, 3. */
function decimal(value: unknown): { n: bigint; scale: number } | undefined {
  const text = typeof value === 'number' ? String(value) : value
  if (typeof text !== 'string' || !/^\d{1,18}(\.\d{1,8})?$/.test(text)) return undefined
  const [whole = '0', fraction = ''] = text.split('.')
  return { n: BigInt(whole + fraction), scale: fraction.length }
}

/** a / b as a power of ten (2 for a hundred times, -1 for a tenth), 0 when equal, undefined otherwise. */
function powerOfTen(a: string, b: string): number | undefined {
  const x = decimal(a)
  const y = decimal(b)
  if (!x || !y) return undefined
  const scale = Math.max(x.scale, y.scale)
  const p = x.n * 10n ** BigInt(scale - x.scale)
  const q = y.n * 10n ** BigInt(scale - y.scale)
  if (p === q) return 0
  if (p === 0n || q === 0n) return undefined
  const [big, small, sign] = p > q ? [p, q, 1] : [q, p, -1]
  if (big % small !== 0n) return undefined
  const ratio = (big / small).toString()
  return /^10+$/.test(ratio) ? sign * (ratio.length - 1) : undefined
}

/** The decimals `sent` has when it is `asked` rounded (or cut) to fewer decimals: 2 for "12.35" of "12.345". */
function roundedTo(sent: string, asked: string): number | undefined {
  const x = decimal(asked)
  const y = decimal(sent)
  if (!x || !y || y.scale >= x.scale) return undefined
  const unit = 10n ** BigInt(x.scale - y.scale)
  const cut = x.n / unit
  const rounded = (x.n + unit / 2n) / unit
  return y.n === cut || y.n === rounded ? y.scale : undefined
}

/** "1500" JPY as the platform documents it: "1500.00". */
function documentedForm(amount: string, currency: string): string {
  const decimals = documentedDecimals(currency)
  const [whole = '0', fraction = ''] = amount.split('.')
  return decimals ? `${whole}.${fraction.padEnd(decimals, '0').slice(0, decimals)}` : whole
}

const PAYMENT_ACTIONS = new Set(['SALE', 'DEBIT', 'AUTH', 'CREDIT2CARD'])
const FLAGS = ['recurring_init', 'req_token', 'auth'] as const
const truthy = (value: unknown) => value === true || /^(y|yes|true|1)$/i.test(String(value ?? ''))

/** The order a payment request is about, as the merchant sent it: number, amount field and flags. */
function sentOrder(
  r: ObservedRequest,
):
  | { number: string; field: string; amount: unknown; currency: unknown; flags: Record<string, unknown> }
  | undefined {
  const body = r.body
  if (!body) return undefined
  const flags = Object.fromEntries(FLAGS.filter((f) => f in body).map((f) => [f, body[f]]))
  const nested =
    body.order && typeof body.order === 'object' ? (body.order as Record<string, unknown>) : undefined
  if ((r.path === '/api/v1/session' || r.path === '/api/v1/session/token') && nested)
    return {
      number: String(nested.number),
      field: 'order.amount',
      amount: nested.amount,
      currency: nested.currency,
      flags,
    }
  const action = actionOf(r)
  const payment =
    r.path === '/api/v1/payment/card/credit' || (action !== undefined && PAYMENT_ACTIONS.has(action))
  if (payment && body.order_id !== undefined)
    return {
      number: String(body.order_id),
      field: 'order_amount',
      amount: body.order_amount,
      currency: body.order_currency,
      flags,
    }
  return undefined
}

/**
 * Intent (issue 23, requirement 3): what the merchant sent for an order against what the kit asked
 * it for at merchant.start: the amount in its currency, and no flag (recurring_init, req_token,
 * auth) it was not asked for.
 */
function intentFindings(r: ObservedRequest, ctx: ScenarioContext): Finding[] {
  const sent = sentOrder(r)
  if (!sent) return []
  const found: Finding[] = []
  const request = `${requestName(r)} ${maskCards(r.text).slice(0, 600)}`
  const answer = `HTTP ${r.answer.status} ${r.answer.text.slice(0, 300)}`
  const asked = ctx.asked?.[sent.number]
  const [askedAmount, askedCurrency] = (asked?.amounts.at(-1) ?? '').split(' ')
  const currency = typeof sent.currency === 'string' ? sent.currency : askedCurrency
  const amount = sent.amount
  // A malformed amount ("1234,50", a JSON number) is a matter of form: the gateway's refusal or warning says so.
  if (
    askedAmount &&
    askedCurrency &&
    currency === askedCurrency &&
    decimal(amount) &&
    typeof amount === 'string'
  ) {
    const power = powerOfTen(amount, askedAmount)
    const anyAsked = asked?.amounts.some(
      (a) => a.endsWith(` ${currency}`) && powerOfTen(amount, a.split(' ')[0] ?? '') === 0,
    )
    if (power !== 0 && !anyAsked) {
      const exponent = currencyExponent(currency)
      const cut = roundedTo(amount, askedAmount)
      const how =
        power === undefined
          ? cut !== undefined && cut < exponent
            ? `the order's amount rounded to ${cut} decimal${cut === 1 ? '' : 's'}; ${currency} has ${exponent} (ISO 4217)`
            : 'another amount than the order'
          : power < 0
            ? `1/${10 ** -power} of it, as if ${currency} had ${exponent - power} decimals; ${currency} has ${exponent || 'none'} (ISO 4217)`
            : `${10 ** power} times it, as if ${currency} had ${exponent - power} decimals; ${currency} has ${exponent} (ISO 4217)`
      found.push({
        kind: 'intent',
        headline: `the merchant sent ${sent.field} ${JSON.stringify(sent.amount)} ${currency} for an order of ${askedAmount} ${currency} (${requestName(r)}): ${how}`,
        request,
        answer,
        rule: `${sent.field} is the order's amount with the currency's decimals (ISO 4217 exponent; 0: an integer, except UGX, JPY, KRW and CLP as 100.00) (2.1.1; docs/rules.md#amounts)`,
        fix: `format the amount from the currency's exponent, not a fixed number of cents: send ${sent.field} "${documentedForm(askedAmount, currency)}"`,
      })
    }
  }
  for (const flag of asked ? FLAGS : []) {
    if (asked?.flags[flag] || !truthy(sent.flags[flag])) continue
    const json = (r.answer.json ?? {}) as Record<string, unknown>
    const effect =
      flag === 'recurring_init'
        ? typeof json.recurring_token === 'string'
          ? ': the gateway started a recurring chain for it (it answered a recurring_token)'
          : ': it asks the gateway to start a recurring chain the payer did not agree to'
        : flag === 'req_token'
          ? ": it asks the gateway to save the payer's card, which the payer did not agree to"
          : ': it asks for an authorization held for capture, not a charge'
    found.push({
      kind: 'intent',
      headline: `the merchant sent ${flag} ${JSON.stringify(sent.flags[flag])} (${requestName(r)}) for a payment it was not asked to make ${flag === 'auth' ? 'two-stage' : flag === 'req_token' ? 'with a saved card' : 'recurring'}${effect}`,
      request,
      answer,
      rule: `${flag} only when the payer asked for it: Checkout takes JSON true/false, S2S the letters Y or N (2.1; 2.3; docs/rules.md#booleans)`,
      fix: `leave ${flag} out (or send ${r.path.startsWith('/api/') ? 'false' : 'N'}) unless the payer asked for it`,
    })
  }
  return found
}

const CHARGES = new Set(['SALE', 'DEBIT'])

/** A payment the gateway did: its answer says so, or it was done and its answer lost (sandbox fault `lost`). */
function charged(r: ObservedRequest): boolean {
  if (unanswered(r)) return doneUnanswered(r)
  const json = (r.answer.json ?? {}) as Record<string, unknown>
  return r.answer.status === 200 && /^(settled|pending)$/i.test(String(json.status ?? ''))
}

/**
 * Two charges for one order: payments (S2S CARD SALE or DEBIT by order_id, Hosted Payment Fields
 * by session token) the gateway did twice. The answer of the first was lost or came late; the
 * merchant sent it again.
 */
function doubleChargeFinding(r: ObservedRequest, requests: ObservedRequest[]): Finding | undefined {
  const key = paymentKey(r, requests)
  if (!key || !charged(r)) return undefined
  const first = requests.find(
    (o) => o.seq < r.seq && paymentKey(o, requests)?.label === key.label && charged(o),
  )
  if (!first) return undefined
  const lookups = orderLookups(requests, key.order, first.seq, r.seq)
  const json = (r.answer.json ?? {}) as Record<string, unknown>
  const id = json.trans_id ?? json.payment_id
  const firstWas = unanswered(first)
    ? wasDone(first)
    : `was done (HTTP ${first.answer.status} ${String((first.answer.json as { status?: unknown })?.status ?? '')})`
  return {
    kind: 'double-charge',
    headline: `the payer is charged twice for ${key.label}: the first ${requestName(first)} ${firstWas}; the merchant sent it again ${lookups.length ? `after ${lookups.map(requestName).join(', ')}` : 'without looking the order up first'}, and the gateway did the second too (HTTP ${r.answer.status} ${String(json.status ?? '')}${id ? `, ${json.trans_id ? 'trans_id' : 'payment_id'} ${String(id)}` : ''})`,
    request: `${requestName(r)} ${maskCards(r.text).slice(0, 400)}`,
    answer: `HTTP ${r.answer.status} ${r.answer.text.slice(0, 300)}`,
    rule: UNKNOWN_OUTCOME_RULE,
    fix: `before sending a payment again, ${lookupFix(r)}; refund the second charge`,
  }
}

/** A payment request the merchant sent, and the order (or session) it pays. */
function paymentKey(
  o: ObservedRequest,
  requests: ObservedRequest[],
): { label: string; order?: string } | undefined {
  const action = actionOf(o)
  if (action && CHARGES.has(action) && o.body?.order_id !== undefined)
    return { label: `order ${String(o.body.order_id)}`, order: String(o.body.order_id) }
  if (/^\/api\/v1\/processing\/\w+\/card$/.test(o.path) && o.headers.token) {
    const session = requests.find(
      (s) =>
        s.path === '/api/v1/session/token' &&
        (s.answer.json as { token?: unknown })?.token === o.headers.token,
    )
    const number = (session?.body?.order as { number?: unknown } | undefined)?.number
    return number !== undefined
      ? { label: `order ${String(number)}`, order: String(number) }
      : { label: `session ${o.headers.token}` }
  }
  return undefined
}

/** The merchant's status lookups of an order between two requests (by trans_id or payment_id names a payment it already knows). */
const orderLookups = (
  requests: ObservedRequest[],
  order: string | undefined,
  after: number,
  before: number,
) =>
  requests.filter(
    (o) =>
      o.seq > after &&
      o.seq < before &&
      ((o.path === '/api/v1/payment/status' &&
        o.body?.order_id !== undefined &&
        String(o.body.order_id) === order) ||
        (actionOf(o) === 'GET_TRANS_STATUS_BY_ORDER' && String(o.body?.order_id) === order)),
  )

const UNKNOWN_OUTCOME_RULE =
  'one order, one charge: a payment request whose answer never came may have been done; the status lookup of the order says what became of it (Events; docs/conformance.md, Gateway faults)'

const lookupFix = (r: ObservedRequest) =>
  `look the order up (${r.path === '/post' ? 'GET_TRANS_STATUS_BY_ORDER' : 'POST /api/v1/payment/status by order_id'}) and send the payment again only when the gateway has none for it (101000 "Order does not exist."); book what the lookup says`

/**
 * A payment request whose answer never came (an injected time-out, dropped connection, 5xx page or
 * lost answer) that the merchant never looked up by its order: it sent it again blindly (once
 * charged, the double charge says so), or booked the unknown outcome as it pleased.
 */
function unansweredFinding(r: ObservedRequest, requests: ObservedRequest[]): Finding | undefined {
  const key = unanswered(r) ? paymentKey(r, requests) : undefined
  if (!key) return undefined
  if (orderLookups(requests, key.order, r.seq, Number.POSITIVE_INFINITY).length) return undefined
  const again = requests.find((o) => o.seq > r.seq && paymentKey(o, requests)?.label === key.label)
  if (again && charged(r) && charged(again)) return undefined
  const done = faultOutcome(r)
  return {
    kind: 'unknown-outcome',
    headline: again
      ? `the merchant sent ${requestName(again)} again for ${key.label} without looking the order up first: ${done}; an answer that never came may mean the payment was done, and a second one charges the payer twice`
      : `the merchant never looked ${key.label} up after its ${requestName(r)} got ${faultAnswer(r)}: ${done}; an answer that never came is an unknown outcome, which only the status lookup of the order settles`,
    request: `${requestName(r)} ${maskCards(r.text).slice(0, 400)}`,
    answer: `HTTP ${r.answer.status} ${r.answer.text.slice(0, 300)}`,
    rule: UNKNOWN_OUTCOME_RULE,
    fix: lookupFix(r),
  }
}

/** Every cause the kit saw so far in the scenario, in the order the merchant made them. */
export function causesOf(ctx: ScenarioContext): Finding[] {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return []
  const requests = ctx.hosted.requests
  const found: Finding[] = []
  for (const r of requests) {
    found.push(...moneyActionFindings(r, requests, ctx))
    if (!r.fault && !r.expectedRefusal) found.push(...intentFindings(r, ctx))
    if (isRefused(r)) found.push(requestFinding(r, ctx, requests))
    else if (r.answer.warnings?.length && !r.fault) found.push(warningFinding(r))
    const twice = doubleChargeFinding(r, requests) ?? unansweredFinding(r, requests)
    if (twice) found.push(twice)
  }
  found.push(...unappliedCallbackFindings(ctx))
  const callback = callbackFinding(ctx)
  if (callback) found.push(callback)
  return found
}

/** Refused requests the merchant sent since `seq` (a step fails on them, as on warnings). */
export const refusedSince = (ctx: ScenarioContext, seq: number): ObservedRequest[] =>
  ctx.mode === 'merchant' && ctx.hosted ? ctx.hosted.requests.filter((r) => r.seq >= seq && isRefused(r)) : []

/** One finding as report lines. */
export function findingLines(f: Finding): string[] {
  return [
    f.headline,
    ...(f.request
      ? [`  ${f.kind === 'unacknowledged-callback' ? 'callback as sent' : 'request as sent'}: ${f.request}`]
      : []),
    ...(f.answer
      ? [
          `  ${f.kind === 'unacknowledged-callback' ? "the merchant's answers" : "the gateway's answer"}: ${f.answer}`,
        ]
      : []),
    ...(f.rule ? [`  rule: ${f.rule}`] : []),
    ...(f.fix ? [`  fix: ${f.fix}`] : []),
  ]
}

/**
 * Why a VOID was refused and its fix, from the payment the kit's gateway holds (States and
 * transitions): a payment that settled on an earlier financial day than the VOID is refunded; a
 * held authorization is released by a refund of its full amount; else both are said, no cause.
 */
function voidDiagnosis(r: ObservedRequest, ctx: ScenarioContext): { cause?: string; fix: string } {
  const payment = storedPayment(r, ctx)
  const sent = r.at !== undefined ? formatDay(r.at) : undefined
  // S2S CARD and S2S APM refund and release with CREDITVOID, the same trans_id and signature as the VOID.
  const s2s = actionOf(r) === 'VOID'
  if (payment?.financial_day && sent && payment.financial_day < sent)
    return {
      cause: `the payment settled on ${payment.financial_day} and the VOID was sent on ${sent}, after its financial day`,
      fix: `refund it instead${s2s ? ' with CREDITVOID' : ''} (its full amount, or what remains of it): a VOID cancels a payment on the day it settled (${payment.financial_day}) only`,
    }
  if (payment?.auth && !payment.financial_day)
    return {
      cause: 'the payment is a held authorization, never captured, which a VOID does not release',
      fix: `release it with ${s2s ? 'CREDITVOID' : 'a refund'} of its full amount (no amount), on any day: the gateway reports it as a reversal`,
    }
  return {
    fix: s2s
      ? 'release a held authorization with CREDITVOID of its full amount (no amount); refund a settled payment after its financial day with CREDITVOID'
      : 'release a held authorization with a refund of its full amount (no amount); refund a settled payment after its financial day',
  }
}

/**
 * `the payment has 6.00 left (10.00 charged, 4.00 refunded) and the merchant asked 10.00`: a refund
 * over what remains, from the payment the kit's gateway holds (States and transitions).
 */
function leftOf(r: ObservedRequest, ctx: ScenarioContext, asked: unknown): { cause?: string } {
  const payment = isRefundRequest(r) ? storedPayment(r, ctx) : undefined
  if (!payment || typeof asked !== 'string') return {}
  return {
    cause: `the payment has ${formatMinor(payment, refundableMinor(payment))} left (${payment.amount_captured} charged, ${payment.amount_refunded} refunded) and the merchant asked ${asked}`,
  }
}

/** The payment a request acts on, as the kit's own gateway holds it (merchant mode). */
function storedPayment(r: ObservedRequest, ctx: ScenarioContext): Payment | undefined {
  const id = paymentIdOf(r)
  return id ? ctx.hosted?.gateway?.ctx.store.get('payments', id) : undefined
}
