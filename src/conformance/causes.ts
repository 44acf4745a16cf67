import { describeAttempts } from './callback-channel.js'
import type { ScenarioContext } from './context.js'
import { apiOfPath } from './endpoints.js'
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
import { expectedHash, PaymentMemory } from './signing.js'
import { describeCallback } from './steps/select.js'
import type { Finding } from './types.js'

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

function memoryOf(requests: ObservedRequest[]): PaymentMemory {
  const memory = new PaymentMemory()
  for (const r of requests) {
    if (!r.body) continue
    if (typeof r.body.action === 'string' && r.body.action.startsWith('RECURRING_'))
      memory.learnRecurring(r.body, r.answer.json)
    else memory.learn(r.body, r.answer.json)
  }
  return memory
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
): { rule: string; fix: string } {
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
  if (/void is not allowed/i.test(words) || (action === 'VOID' && r.answer.status >= 400))
    return {
      rule: VOID_RULE,
      fix: 'release a held authorization with a refund of its full amount (no amount); refund a settled payment after its financial day',
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
    return {
      rule: `${formula} (Authentication; docs/rules.md#signatures)`,
      fix:
        sent === undefined || sent === ''
          ? `sign the request: it carried no hash${expected ? `; with the adapter's password this one is ${expected}` : ''}`
          : `compute the hash with that formula${expected ? `: for this request ${expected}, not ${JSON.stringify(sent)}` : ''}`,
    }
  }
  if (field && /(^|\.|_)amount$/.test(field) && /bigger|exceed|more than|above/i.test(words))
    return {
      rule: 'a refund or capture is at most what the payment has left: charged less refunded, or the authorized amount (States and transitions)',
      fix: `send at most what remains, or no amount for all of it (it was ${JSON.stringify(valueAt(body, field))})`,
    }
  if (field && /(^|\.|_)amount$/.test(field)) {
    const sent = valueAt(body, field)
    const fix =
      typeof sent === 'number'
        ? `send ${field} as a string ("${sent.toFixed(2)}" for a 2-decimal currency), not the JSON number ${sent}`
        : typeof sent === 'string' && sent.includes(',')
          ? `use a dot as the decimal separator: ${JSON.stringify(sent.replace(',', '.'))}`
          : `send ${field} with the currency's decimals (it was ${JSON.stringify(sent)})`
    return { rule: AMOUNT_RULE, fix }
  }
  if (field === 'session_expiry') {
    const sent = valueAt(body, field)
    const fix =
      typeof sent === 'number' && sent > 720 && sent % 60 === 0
        ? `session_expiry ${sent} looks like seconds: send minutes (${sent / 60})`
        : typeof sent === 'string'
          ? `send session_expiry as a JSON integer, not the string ${JSON.stringify(sent)}`
          : `send a whole number of minutes from 1 to 720 (it was ${JSON.stringify(sent)})`
    return { rule: SESSION_EXPIRY_RULE, fix }
  }
  if (field) {
    const sent = valueAt(body, field)
    const asBoolean =
      typeof sent === 'string' && /^(true|false|Y|N|yes|no|0|1)$/i.test(sent) && api === 'checkout'
        ? `; Checkout takes booleans as JSON true/false, not ${JSON.stringify(sent)}`
        : ''
    const nested =
      sent === undefined && field.startsWith('order_') && body?.order && typeof body.order === 'object'
        ? `; the request nests its order under "order" (as a session request does), where ${r.path} takes flat order_id, order_amount, order_currency and order_description`
        : ''
    return {
      rule: `${field} as the ${api} request schema of ${requestName(r)} describes it (docs/conformance.md; \`paysandbox validate\`)`,
      fix: `${sent === undefined ? `send ${field} (the gateway: "${words}")` : `correct ${field}, which was ${JSON.stringify(sent)} (the gateway: "${words}")`}${asBoolean}${nested}`,
    }
  }
  return {
    rule: `the gateway's answer to ${requestName(r)} (HTTP ${r.answer.status})`,
    fix: `send what the gateway asks: ${words}`,
  }
}

function requestFinding(r: ObservedRequest, ctx: ScenarioContext, requests: ObservedRequest[]): Finding {
  const words = gatewayWords(r)
  const { rule, fix } = ruleAndFix(r, words[0] ?? '', ctx, requests)
  const release = releaseNote(`${words.join(' ')} ${r.answer.text}`)
  return {
    kind: 'refused-request',
    headline: `the gateway refused the merchant's ${requestName(r)} (HTTP ${r.answer.status}): ${words.join('; ')}`,
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

/** A genuine callback whose first attempt that reached the merchant was not acknowledged. */
function callbackFinding(ctx: ScenarioContext): Finding | undefined {
  for (const r of ctx.channel.log) {
    if (r.source !== 'gateway' || r.expectedRefusal) continue
    const reached = r.attempts.filter((a) => !(a.error && KIT_FAILED.test(a.error)))
    const first = reached[0]
    if (!first || first.acknowledged) continue
    const text = first.body ?? first.error ?? ''
    const parseTrouble = /json|unexpected token|parse|syntax/i.test(text)
    const serverError = (first.status ?? 0) >= 500
    const diagnosis = parseTrouble
      ? ': its callback handler could not read the body: callbacks are form-encoded (application/x-www-form-urlencoded), not JSON'
      : serverError
        ? ': its callback handler failed on the callback (HTTP 5xx); callbacks are form-encoded (application/x-www-form-urlencoded), read them as a form'
        : first.timedOut
          ? ': a time-out is a failed attempt (answer first, then do slow work)'
          : ''
    const rule = r.api === 'checkout' ? 'any 2xx' : 'the body OK'
    const hashTrouble = !parseTrouble && /hash|signature/i.test(text)
    return {
      kind: 'unacknowledged-callback',
      headline: `the merchant did not acknowledge ${describeCallback(r)}: ${describeAttempts([first])}${diagnosis}`,
      request: `POST ${r.url} (application/x-www-form-urlencoded) ${maskCards(r.text).slice(0, 400)}`,
      answer: describeAttempts(r.attempts),
      rule: hashTrouble
        ? `the callback's ${CALLBACK_FORMULAS[r.api] ?? 'hash'} (Authentication; docs/rules.md#signatures)`
        : CALLBACK_RULE,
      fix: hashTrouble
        ? `the gateway signed this callback correctly (hash ${r.fields.hash ?? ''}): verify it with that formula and the adapter's password, then answer ${rule}`
        : parseTrouble || serverError
          ? `parse the callback body as a form (content-type application/x-www-form-urlencoded) and answer ${rule}`
          : `answer ${rule} once the callback is verified and booked`,
    }
  }
  return undefined
}

/** Every cause the kit saw so far in the scenario, in the order the merchant made them. */
export function causesOf(ctx: ScenarioContext): Finding[] {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return []
  const requests = ctx.hosted.requests
  const found: Finding[] = []
  for (const r of requests) {
    if (isRefused(r)) found.push(requestFinding(r, ctx, requests))
    else if (r.answer.warnings?.length && !r.fault) found.push(warningFinding(r))
  }
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
