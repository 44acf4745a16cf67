import type { Refusal } from '../core/engine/refusal.js'
import { RULES, type RuleId, ruleLine, ruleSection } from '../core/engine/rules.js'
import { parseWarningHeader } from '../core/engine/warnings.js'
import { authorizedMinor, formatMinor, refundableMinor } from '../core/payments/ledger.js'
import { findRow, TRANSITIONS } from '../core/payments/state-machine.js'
import { declaredSigning, type SignedApi } from '../core/signing/declared.js'
import { formatDay, maskCard } from '../core/engine/format.js'
import { memoryOf } from './callback-signing.js'
import type { ScenarioContext } from './context.js'
import { apiOfPath } from './endpoints.js'
import { chainDiagnosis } from './chain-diagnosis.js'
import { diagnoseHash } from './hash-diagnosis.js'
import { sessionByToken, storedPayment } from './ledger.js'
import { paymentIdOf } from './observations.js'
import type { ObservedRequest } from './sandbox-host.js'
import { hashOf } from './signing.js'
import type { Finding } from './types.js'

/**
 * Cause first (docs/conformance.md, Read a failure): a request the gateway refused, judged from the
 * refusal the gateway answered with it (the rule, the fields, the formula, the row of the state
 * table: docs/rules.md#rule-book) and from what the engine declares (the formulas' text, the state
 * table, the ledger), never from the words of its messages, which the finding only quotes.
 */

/** What the kit knows of one refused request: its API, action and name (`POST /post SALE`), the first field refused and what was sent in it. */
interface Case {
  r: ObservedRequest
  refusal: Refusal
  ctx: ScenarioContext
  requests: ObservedRequest[]
  api: SignedApi
  action: string | undefined
  name: string
  field: string | undefined
  sent: unknown
}

/**
 * The merchant's action (`cause`, without its citation), the rule it breaks (`anchor`, and `note`:
 * the row of the state table or the formula that applied), the rule line when more than the rule
 * book's sentence (a formula's text), the fix.
 */
interface Diagnosis {
  cause: string
  /** Default: the refusal's rule. */
  anchor?: RuleId
  note?: string
  rule?: string
  fix: string
}

/** 4111111111111111 → 411111******1111: a card number is never shown in full. */
export const maskCards = (text: string): string => text.replace(/\b\d{13,19}\b/g, maskCard)

export const actionOf = (r: ObservedRequest) =>
  typeof r.body?.action === 'string' ? r.body.action : undefined

export const requestName = (r: ObservedRequest) =>
  `${r.method} ${r.path}${actionOf(r) ? ` ${actionOf(r)}` : ''}`

/** The gateway's own words, quoted as the symptom: each item of `errors[]`, else error_message. */
export function gatewayWords(r: ObservedRequest): string[] {
  const json = r.answer.json as Record<string, unknown> | undefined
  if (!json || typeof json !== 'object') return [r.answer.text.slice(0, 200) || `HTTP ${r.answer.status}`]
  const items = Array.isArray(json.errors)
    ? (json.errors as Record<string, unknown>[]).map((e) => String(e.error_message ?? '')).filter(Boolean)
    : []
  if (items.length) return items
  return [String(json.error_message ?? json.decline_reason ?? r.answer.text.slice(0, 200))]
}

function valueAt(body: Record<string, unknown> | undefined, path: string): unknown {
  let here: unknown = body
  for (const key of path.replace(/\[(\w+)\]/g, '.$1').split('.')) {
    if (!here || typeof here !== 'object') return undefined
    here = (here as Record<string, unknown>)[key]
  }
  return here
}

/** A body the gateway could not read as its API's content type: the content type, not a field. */
function contentType(c: Case): Diagnosis | undefined {
  const { r } = c
  if (r.answer.status !== 415 && !(r.body === undefined && r.text)) return undefined
  const sent = r.headers['content-type'] ?? 'no content type'
  return {
    cause: `the merchant sent ${c.name} as ${sent}, where ${c.api === 'checkout' ? 'Checkout takes JSON' : 'S2S takes a form'}`,
    anchor: 'endpoints',
    fix: `send ${r.path} with the content type of its API (it was sent as ${sent})`,
  }
}

/** A hash refused, or missing: the declared formula of the request (src/core/signatures/formulas.ts) and the mistake that reproduces the hash. */
function signature(c: Case): Diagnosis | undefined {
  const { refusal, r } = c
  const { body } = r
  if (!refusal.formula && !(refusal.rule === 'required-fields' && refusal.fields?.includes('hash')))
    return undefined
  const where = { path: r.path, ...(c.action ? { action: c.action } : {}) }
  const signing = declaredSigning(c.api, where)
  if (!signing || !body) return undefined
  const { formula } = signing
  const earlier = c.requests.filter((o) => o.seq < r.seq)
  const { password } = c.ctx.credentials
  const memory = memoryOf(earlier)
  let expected: string | undefined
  try {
    expected = hashOf(c.api, where, body, password, memory)
  } catch {
    expected = undefined
  }
  const sent = body.hash
  const said = {
    anchor: formula.rule,
    rule: `${formula.id}: ${formula.text} (${ruleLine(formula.rule)})`,
  }
  if (sent === undefined || sent === '')
    return {
      ...said,
      cause: `the merchant sent ${c.name} unsigned (no hash), where ${formula.id} signs it`,
      fix: `sign the request: it carried no hash${expected ? `; with the adapter's password this one is ${expected}` : ''}`,
    }
  const mistake = diagnoseHash(
    { api: c.api, path: r.path, action: c.action, body, password, memory, earlier },
    sent,
  )
  return mistake
    ? { ...said, cause: `${mistake.mistake} (${c.name}, ${formula.id})`, fix: mistake.fix }
    : {
        ...said,
        cause: `the merchant signed ${c.name} with another hash than ${formula.id} gives with the adapter's password`,
        fix: `compute the hash with that formula${expected ? `: for this request ${expected}, not ${JSON.stringify(sent)}` : ''}`,
      }
}

/**
 * A VOID the state table refused (docs/rules.md#void): the payment's facts from the ledger, the
 * row that refused it, and what the table allows instead (a refund of the payment, and its move).
 */
function voided(c: Case): Diagnosis {
  const payment = storedPayment(c.ctx, paymentIdOf(c.r))
  const sentOn = c.r.at !== undefined ? formatDay(c.r.at) : undefined
  const instead = payment && findRow(payment, 'REFUND', { api: payment.api })
  const moves =
    instead && typeof instead.to === 'string'
      ? `: the state table moves it to ${instead.to} (${instead.id})`
      : ''
  const fix =
    instead?.to === 'reversal'
      ? `release it with ${c.action ? 'CREDITVOID' : 'a refund'} of its full amount (no amount), on any day${moves}`
      : instead
        ? `refund it instead${c.action ? ' with CREDITVOID' : ''} (its full amount, or what remains of it)${moves}; a VOID cancels a payment on the day it settled${payment?.financial_day ? ` (${payment.financial_day})` : ''} only`
        : RULES.void.says
  const what =
    payment?.status === 'pending' && payment.auth
      ? `for a held authorization (${payment.status}, never captured), which a VOID does not release`
      : payment?.operation === 'credit'
        ? 'for a payout, which is never voided'
        : payment?.financial_day && sentOn && payment.financial_day < sentOn
          ? `on ${sentOn}, after the payment's financial day (it settled on ${payment.financial_day})`
          : `for a payment in status ${payment?.status ?? 'unknown'}`
  const row = TRANSITIONS.find((t) => t.id === c.refusal.transition)
  return {
    cause: `the merchant sent ${c.name} ${what}`,
    ...(row ? { note: `state table row ${row.id}: ${row.condition}` } : {}),
    fix,
  }
}

/** An amount above what the payment has: which limit the refusing row of the state table names (`exceeds`), how much the ledger has. */
function aboveLimit(c: Case): Diagnosis | undefined {
  const row = TRANSITIONS.find((t) => t.id === c.refusal.transition)
  const payment = storedPayment(c.ctx, paymentIdOf(c.r))
  if (!row?.exceeds || !payment || typeof c.sent !== 'string') return undefined
  const left = formatMinor(
    payment,
    row.exceeds === 'left' ? refundableMinor(payment) : authorizedMinor(payment),
  )
  return {
    cause: `the merchant asked ${c.sent} in ${c.name}, where ${row.exceeds === 'left' ? `the payment has ${left} left (${payment.amount_captured} charged, ${payment.amount_refunded} refunded)` : `the payment authorized ${left}`}`,
    note: `state table row ${row.id}`,
    fix: `send at most ${left}, or no amount for all of it (it was ${JSON.stringify(c.sent)})`,
  }
}

/** A Hosted Payment Fields payment sent to the other operation's endpoint: the session's operation, from the ledger. */
function hpfEndpoint(c: Case): Diagnosis {
  const operation = sessionByToken(c.ctx, c.r.headers.token)?.operation
  return {
    cause: `the merchant sent the card of a ${operation ?? ''} session to ${c.name}, where the payment goes to the endpoint of the session's operation`,
    fix: `send the card to the endpoint of the session's operation${operation ? `: POST /api/v1/processing/${operation}/card` : ''}`,
  }
}

const sessionPaid = (c: Case): Diagnosis => ({
  cause: `the merchant sent ${c.name} for a session that has its payment already`,
  fix: "the session's payment was already made by an earlier request: look it up (POST /api/v1/payment/status by order_id) and book what the gateway answers instead of paying again",
})

/** An amount refused for its form: what the merchant's value is, read from what it sent. */
function amountForm(c: Case): Diagnosis | undefined {
  const { field, sent } = c
  if (!field) return undefined
  const comma = typeof sent === 'string' && sent.includes(',')
  const thousands = comma && String(sent).includes('.')
  return {
    cause: `the merchant sent ${field} ${
      typeof sent === 'number'
        ? `as the JSON number ${sent}, where the API takes a decimal string`
        : `${JSON.stringify(sent)}${comma ? `, with a comma as ${thousands ? 'a thousands separator' : 'the decimal separator'}` : ''}`
    } (${c.name})`,
    fix:
      typeof sent === 'number'
        ? `send ${field} as a string ("${sent.toFixed(2)}" for a 2-decimal currency), not the JSON number ${sent}`
        : thousands
          ? `leave the thousands separators out: ${JSON.stringify(String(sent).replaceAll(',', ''))}`
          : comma
            ? `use a dot as the decimal separator: ${JSON.stringify(String(sent).replace(',', '.'))}`
            : `send ${field} with the currency's decimals (it was ${JSON.stringify(sent)})`,
  }
}

function sessionExpiry(c: Case): Diagnosis | undefined {
  const { sent } = c
  if (c.field !== 'session_expiry') return undefined
  const seconds = typeof sent === 'number' && sent > 720 && sent % 60 === 0
  return {
    cause: `the merchant sent session_expiry ${JSON.stringify(sent)}${seconds ? `, which looks like seconds (${sent / 60} minutes), where it is counted in minutes` : ''} (${c.name})`,
    fix: seconds
      ? `session_expiry ${sent} looks like seconds: send minutes (${sent / 60})`
      : typeof sent === 'string'
        ? `send session_expiry as a JSON integer, not the string ${JSON.stringify(sent)}`
        : `send a whole number of minutes from 1 to 720 (it was ${JSON.stringify(sent)})`,
  }
}

const YES = new Set(['true', 'yes', '1', 'y'])

function booleanForm(c: Case): Diagnosis | undefined {
  const { field, sent } = c
  if (!field || sent === undefined) return undefined
  const value = JSON.stringify(sent)
  if (c.api === 'checkout')
    return {
      cause: `the merchant sent ${field} ${value}, where Checkout takes a JSON boolean or number (${c.name})`,
      fix: `send ${field} as a JSON boolean (true or false) or number, not ${value}`,
    }
  return {
    cause: `the merchant sent ${field} ${value}, a boolean spelled as a word, where S2S flags are the letters Y or N (${c.name})`,
    fix: `correct ${field}, which was ${value}; S2S flags are the letters Y or N (docs/rules.md#booleans): ${value} is ${YES.has(String(sent).toLowerCase()) ? `${field}=Y` : `${field}=N, or no ${field} at all`}`,
  }
}

/** The flat order fields of a request the merchant sent nested under `order`, as a session takes them. */
function nestedOrder(c: Case): Diagnosis | undefined {
  const { field } = c
  const { body } = c.r
  if (!field?.startsWith('order_') || c.sent !== undefined) return undefined
  if (!body?.order || typeof body.order !== 'object') return undefined
  const flat = (c.refusal.fields ?? []).filter((f) => f.startsWith('order_')).join(', ')
  return {
    cause: `the merchant nests its order under "order", where ${c.name} takes flat ${flat}`,
    fix: `send ${flat} as fields of the request itself, not under "order" (as a session request does)`,
  }
}

/** Any other refusal: the field and what was sent in it (or that it was missing), or the request, and the rule. */
function otherRule(c: Case): Diagnosis {
  const { field, sent } = c
  const { rule } = c.refusal
  const fields = (c.refusal.fields ?? []).join(', ')
  if (!field) return { cause: `the merchant's ${c.name} breaks ${RULES[rule].title}`, fix: RULES[rule].says }
  if (rule === 'required-fields')
    return { cause: `the merchant sent ${c.name} without ${fields}`, fix: `send ${fields}` }
  if (rule === 'unexpected-fields')
    return {
      cause: `the merchant sent ${fields} in ${c.name}, which it does not take`,
      fix: `leave ${fields} out`,
    }
  const value = sent === undefined ? '(none)' : JSON.stringify(sent)
  return {
    cause: `the merchant sent ${field} ${value} in ${c.name}`,
    fix: `correct ${field}, which was ${value}: ${RULES[rule].says}`,
  }
}

/** What a refusal of the rule tells of the merchant's request (the rule's own diagnosis). */
const BY_RULE: Partial<Record<RuleId, (c: Case) => Diagnosis | undefined>> = {
  'hpf-endpoints': hpfEndpoint,
  'session-payments': sessionPaid,
  void: voided,
  amounts: amountForm,
  'session-expiry': sessionExpiry,
  booleans: booleanForm,
  'required-fields': nestedOrder,
  'recurring-payments': (c) => chainDiagnosis(c.r, c.ctx),
}

/** The diagnosis of a refusal: the request's form, its signature, an amount above a limit, then its rule's. */
const diagnose = (c: Case): Diagnosis =>
  contentType(c) ?? signature(c) ?? aboveLimit(c) ?? BY_RULE[c.refusal.rule]?.(c) ?? otherRule(c)

/** The refused request as a finding: its cause (the merchant's action and the rule), then the refusal. */
export function requestFinding(
  r: ObservedRequest,
  ctx: ScenarioContext,
  requests: ObservedRequest[],
): Finding {
  const name = requestName(r)
  const { refusal } = r.answer
  const field = refusal?.fields?.[0]
  const c: Case | undefined = refusal && {
    r,
    refusal,
    ctx,
    requests,
    api: apiOfPath(r.path) ?? 'checkout',
    action: actionOf(r),
    name,
    field,
    sent: field ? valueAt(r.body, field) : undefined,
  }
  const d = c && diagnose(c)
  const anchor = d?.anchor ?? refusal?.rule ?? 'errors'
  const cause = d
    ? `${d.cause} (docs/rules.md#${anchor}${d.note ? `; ${d.note}` : ''})`
    : `the gateway refused the merchant's ${name} and named no rule (no Sandbox-Rule header)`
  return {
    kind: 'refused-request',
    cause,
    headline: `${cause}: the gateway refused it (HTTP ${r.answer.status}: ${gatewayWords(r).join('; ')})`,
    request: `${name} ${maskCards(r.text).slice(0, 600)}`,
    answer: `HTTP ${r.answer.status} ${r.answer.text.slice(0, 400)}`,
    ...(d ? { rule: d.rule ?? ruleLine(anchor), fix: d.fix, section: ruleSection(anchor) } : {}),
  }
}

/** A request served with a `Sandbox-Warning`: what the merchant sent, what the platform documents, the rule. */
export function warningFinding(r: ObservedRequest): Finding {
  const warnings = (r.answer.warnings ?? []).flatMap((w) => parseWarningHeader(w) ?? [])
  const anchors = [...new Set(warnings.map((w) => w.source.split(' ')[0] ?? ''))].join(', ')
  const sent = warnings.map((w) => `${w.field}: ${w.sent}, where the platform documents ${w.documented}`)
  const cause = `the merchant sent ${sent.join('; ')} (${requestName(r)}; ${anchors})`
  return {
    kind: 'warning',
    cause,
    headline: `${cause}: the gateway served it with a Sandbox-Warning, and the platform may refuse it`,
    request: `${requestName(r)} ${maskCards(r.text).slice(0, 600)}`,
    answer: `HTTP ${r.answer.status} ${r.answer.text.slice(0, 300)}; Sandbox-Warning: ${(r.answer.warnings ?? []).join(' | ')}`,
    rule: `the platform documents this form differently and may refuse it (docs/rules.md#warnings): ${anchors}`,
    fix: `send it as documented: ${warnings.map((w) => `${w.field} ${w.documented}`).join('; ')}`,
    section: 'docs/rules.md#warnings-and-releases',
  }
}
