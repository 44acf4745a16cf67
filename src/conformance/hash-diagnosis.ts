import { createHash } from 'node:crypto'
import type { OriginalPayment, SigningFormula } from '../core/signatures/formulas.js'
import { md5, sameSignature, sha1, sha256, upper } from '../core/signatures/primitives.js'
import {
  type DeclaredSigning,
  declaredSigning,
  declaredSignings,
  type SignedApi,
} from '../core/signing/declared.js'
import { NO_FACTS, originalFor, type PaymentMemory } from './signing.js'

/**
 * Why the gateway refused a merchant's `hash` (Authentication; docs/rules.md#signatures): the kit
 * computes the endpoint's formula again under each of a few mistakes merchants really make and
 * names the one whose result is, exactly, the hash the merchant sent. The formulas are the
 * sandbox's own (src/core/signatures, as the route or action declares them): a mistake is made
 * either in what the formula is fed (the fields, the password) or in the primitive the formula
 * hands its signed string to (the digest), never by writing a formula again. A hash no mistake
 * reproduces is not explained: the caller keeps its general advice.
 */

export interface HashDiagnosis {
  /** The mistake, as a merchant developer reads it: what its hash is, and what the formula takes. */
  mistake: string
  /** What to change, and the hash this request should have carried. */
  fix: string
  /** The mistake's name (tests, reports). */
  variant: string
}

/** What the kit knows when a request is refused for its hash. */
export interface HashEvidence {
  api: SignedApi
  path: string
  action?: string | undefined
  body: Record<string, unknown>
  password: string
  memory: PaymentMemory
  /** The scenario's earlier requests: amounts, order numbers and payment ids the merchant may have signed instead. */
  earlier: { method: string; path: string; body?: Record<string, unknown>; answer?: { json?: unknown } }[]
}

type Candidate = HashDiagnosis & { hash: string | undefined }

function sign(
  formula: SigningFormula,
  body: Record<string, unknown>,
  password: string,
  original: OriginalPayment | undefined,
): string | undefined {
  try {
    return formula.sign(body, password, original)
  } catch {
    return undefined
  }
}

/**
 * The string the formula hands its digest (after its upper-casing), and what it does with the
 * digest's hex: nothing (S2S) or sha1 over it (Checkout), found by comparing with the formula's
 * own result, never assumed.
 */
function trace(
  formula: SigningFormula,
  body: Record<string, unknown>,
  password: string,
  original: OriginalPayment | undefined,
): { text: string; outer: 'none' | 'sha1' } | undefined {
  const seen: string[] = []
  const digest = (text: string) => {
    seen.push(text)
    return md5(text)
  }
  let hash: string
  try {
    hash = formula.sign(body, { password, digest }, original)
  } catch {
    return undefined
  }
  const text = seen[0]
  if (seen.length !== 1 || text === undefined) return undefined
  if (hash === md5(text)) return { text, outer: 'none' }
  if (hash === sha1(md5(text))) return { text, outer: 'sha1' }
  return undefined
}

/** a-z stand-ins the formula's upper() leaves alone (private-use code points), to see what it would sign un-upper-cased. */
const hide = (s: string) => s.replace(/[a-z]/g, (c) => String.fromCharCode(0xe000 + c.charCodeAt(0)))
const reveal = (s: string) =>
  s.replace(/[\ue061-\ue07a]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xe000))

/** Every string of a body (nested objects and arrays too) passed through `f`. */
function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value)
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f))
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]))
  return value
}

const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : value && typeof value === 'object'
      ? Object.values(value).flatMap(strings)
      : []

/** The amount fields a request signs: `amount`, `order_amount`, `order.amount`. */
const AMOUNT_PATHS: string[][] = [['amount'], ['order_amount'], ['order', 'amount']]

function getPath(body: Record<string, unknown>, path: string[]): unknown {
  let here: unknown = body
  for (const key of path) {
    if (!here || typeof here !== 'object') return undefined
    here = (here as Record<string, unknown>)[key]
  }
  return here
}

function setPath(body: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const [key, ...rest] = path
  if (key === undefined) return body
  const copy = { ...body }
  if (rest.length === 0) {
    if (value === undefined) delete copy[key]
    else copy[key] = value
    return copy
  }
  const inner = copy[key]
  copy[key] = setPath(
    inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : {},
    rest,
    value,
  )
  return copy
}

/** Other spellings of a decimal amount a merchant may sign while it sends another: "10" for "10.00", "1000" in minor units. */
function amountSpellings(sent: string): string[] {
  const out = new Set<string>()
  const m = /^(\d+)(?:\.(\d+))?$/.exec(sent)
  if (m) {
    const [, whole = '', decimals = ''] = m
    const trimmed = decimals.replace(/0+$/, '')
    out.add(trimmed ? `${whole}.${trimmed}` : whole)
    if (decimals) out.add(String(Number(`${whole}${decimals}`)))
    out.add(Number(sent).toFixed(2))
    if (decimals) out.add(`${whole},${decimals}`)
  }
  out.delete(sent)
  return [...out]
}

const nameOf = (r: HashEvidence['earlier'][number]) =>
  `${r.method} ${r.path}${typeof r.body?.action === 'string' ? ` ${r.body.action}` : ''}`

/**
 * Values the scenario's earlier requests sent (`paths` of their bodies) or were answered (`answered`
 * fields of the gateway's JSON), once each, with where each came from.
 */
function earlier(
  e: HashEvidence,
  paths: string[][],
  answered: string[] = [],
): { value: string; from: string }[] {
  const out = new Map<string, string>()
  const add = (v: unknown, from: string) => {
    if (typeof v === 'string' && v !== '' && !out.has(v)) out.set(v, from)
  }
  for (const r of e.earlier) {
    for (const path of paths) add(r.body && getPath(r.body, path), `${path.join('.')} of its ${nameOf(r)}`)
    const json = r.answer?.json as Record<string, unknown> | undefined
    for (const key of answered) add(json?.[key], `the ${key} the gateway answered to its ${nameOf(r)}`)
  }
  return [...out].map(([value, from]) => ({ value, from }))
}

const ORDER_PATHS = [['order', 'number'], ['order_id']]

/** The candidates of one refused request, most specific first. */
function* candidates(e: HashEvidence, signing: DeclaredSigning, expected: string): Generator<Candidate> {
  const { formula } = signing
  const original = originalFor(signing, e.body, e.memory)
  if (original === null) return
  const right = `for this request ${expected}`
  const traced = trace(formula, e.body, e.password, original)
  const outer = (hex: string) => (traced?.outer === 'sha1' ? sha1(hex) : hex)

  // The digest's output handed on as it should not be (Checkout: sha1 over md5's hex string).
  if (traced?.outer === 'sha1') {
    yield {
      variant: 'sha1-of-binary-md5',
      hash: createHash('sha1').update(createHash('md5').update(traced.text, 'utf8').digest()).digest('hex'),
      mistake: "the merchant's hash is sha1 of the binary md5 digest; the formula takes md5's hex digest",
      fix: `hash md5's 32-character lower-case hex digest with sha1, not its 16 raw bytes (PHP md5($s, true), Python .digest(), Node digest() without 'hex'): ${right}`,
    }
    yield {
      variant: 'sha1-of-upper-hex-md5',
      hash: sha1(md5(traced.text).toUpperCase()),
      mistake:
        "the merchant's hash is sha1 of md5's hex digest in upper case; the formula takes it in lower case",
      fix: `hash md5's hex digest as lower-case letters: ${right}`,
    }
  }
  if (traced) {
    yield {
      variant: 'sha256-for-md5',
      hash: outer(sha256(traced.text)),
      mistake:
        e.api === 'checkout'
          ? "the merchant's hash uses sha256 where the formula has md5 (Checkout has no SHA256 mode)"
          : "the merchant's hash uses sha256 where this merchant account signs with md5 (its Protocol Mapping's SHA256 mode is off)",
      fix: `use md5 as the formula says: ${right}`,
    }
  }

  // Upper-casing: Unicode rules, none at all, the password left as it is.
  const bodyStrings = strings(e.body)
  const unicode = [
    ...new Set(
      bodyStrings.flatMap((s) =>
        Array.from(s).filter((c) => c.toUpperCase() !== upper(c) && c.charCodeAt(0) > 0x7f),
      ),
    ),
  ]
  if (unicode.length)
    yield {
      variant: 'unicode-upper',
      hash: sign(
        formula,
        mapStrings(e.body, (s) => s.toUpperCase()) as Record<string, unknown>,
        e.password,
        original,
      ),
      mistake: `the merchant upper-cases with Unicode rules (toUpperCase, str.upper()), which also turn ${unicode
        .slice(0, 4)
        .map((c) => `"${c}" into "${c.toUpperCase()}"`)
        .join(', ')}; the formula upper-cases ASCII a-z only`,
      fix: `upper-case a-z alone and leave every other character as it is (docs/rules.md#signature-conventions): ${right}`,
    }
  if (traced) {
    const hiddenPassword = trace(formula, e.body, hide(e.password), original)
    if (hiddenPassword && /[a-z]/.test(e.password))
      yield {
        variant: 'password-not-upper-cased',
        hash: outer(md5(reveal(hiddenPassword.text))),
        mistake:
          "the merchant's hash takes the password as it is; the formula upper-cases it with the fields",
        fix: `append the password before upper-casing, not after: ${right}`,
      }
    const hiddenAll = trace(
      formula,
      mapStrings(e.body, hide) as Record<string, unknown>,
      hide(e.password),
      original && (mapStrings(original, hide) as OriginalPayment),
    )
    if (hiddenAll)
      yield {
        variant: 'not-upper-cased',
        hash: outer(md5(reveal(hiddenAll.text))),
        mistake:
          "the merchant's hash is over the fields as they are; the formula upper-cases them first (ASCII a-z)",
        fix: `upper-case the signed string before hashing it: ${right}`,
      }
  }

  // The password: left out, or another credential in its place.
  yield {
    variant: 'password-left-out',
    hash: sign(formula, e.body, '', original),
    mistake: "the merchant's hash leaves the password out",
    fix: `sign with the merchant's password where the formula places it: ${right}`,
  }
  for (const key of ['merchant_key', 'client_key']) {
    const credential = e.body[key]
    if (typeof credential === 'string' && credential && credential !== e.password)
      yield {
        variant: 'key-as-password',
        hash: sign(formula, e.body, credential, original),
        mistake: `the merchant's hash is signed with its ${key} where the formula takes its password`,
        fix: `sign with the password, not the ${key}: ${right}`,
      }
  }

  // Amounts: another spelling of the amount sent, another amount, an amount when none was sent.
  for (const path of AMOUNT_PATHS) {
    const sent = getPath(e.body, path)
    const field = path.join('.')
    if (typeof sent === 'string') {
      for (const other of amountSpellings(sent))
        yield {
          variant: 'amount-spelled-otherwise',
          hash: sign(formula, setPath(e.body, path, other), e.password, original),
          mistake: `the merchant's hash is over ${field} "${other}" where the request sent "${sent}"`,
          fix: `sign ${field} exactly as sent ("${sent}"): ${right}`,
        }
    }
    if (path[0] !== 'amount') continue
    for (const { value, from } of earlier(e, AMOUNT_PATHS)) {
      if (value === sent) continue
      yield {
        variant: sent === undefined ? 'amount-signed-when-none-sent' : 'other-amount-signed',
        hash: sign(formula, setPath(e.body, path, value), e.password, original),
        mistake:
          sent === undefined
            ? `the merchant's hash is over amount "${value}" (${from}) where the request sent no amount`
            : `the merchant's hash is over amount "${value}" (${from}) where the request sent amount "${sent}"`,
        fix:
          sent === undefined
            ? `a request without an amount is signed without one: ${right}`
            : `sign the amount the request sends ("${sent}"): ${right}`,
      }
    }
    if (typeof sent === 'string')
      yield {
        variant: 'amount-sent-not-signed',
        hash: sign(formula, setPath(e.body, path, undefined), e.password, original),
        mistake: `the merchant's hash leaves out the amount "${sent}" the request sent`,
        fix: `sign the amount when it is sent, exactly as sent: ${right}`,
      }
  }

  // A Checkout status lookup signed over the other identifier.
  if (e.api === 'checkout' && e.path === '/api/v1/payment/status') {
    const { payment_id: paymentId, order_id: orderId, ...rest } = e.body
    if (paymentId !== undefined)
      for (const { value, from } of earlier(e, ORDER_PATHS))
        yield {
          variant: 'lookup-signed-over-other-id',
          hash: sign(formula, { ...rest, order_id: value }, e.password, original),
          mistake: `the merchant's lookup by payment_id is signed over the order number "${value}" (${from}); a lookup by payment_id is signed over that payment_id`,
          fix: `sign the payment_id the lookup sends (${JSON.stringify(paymentId)}): ${right}`,
        }
    else if (orderId !== undefined)
      for (const { value, from } of earlier(e, [['payment_id']], ['payment_id']))
        yield {
          variant: 'lookup-signed-over-other-id',
          hash: sign(formula, { ...rest, payment_id: value }, e.password, original),
          mistake: `the merchant's lookup by order_id is signed over the payment_id "${value}" (${from}); a lookup by order_id is signed over that order_id`,
          fix: `sign the order_id the lookup sends (${JSON.stringify(orderId)}): ${right}`,
        }
  }

  // An S2S CARD status lookup signed with the formula of the other lookup (Formula 2 by trans_id, Formula 7 by order_id).
  if (e.api === 's2s-card' && (e.action === 'GET_TRANS_STATUS' || e.action === 'GET_TRANS_STATUS_BY_ORDER')) {
    const byOrder = e.action === 'GET_TRANS_STATUS'
    const other = declaredSigning('s2s-card', {
      action: byOrder ? 'GET_TRANS_STATUS_BY_ORDER' : 'GET_TRANS_STATUS',
    })
    const ids = byOrder ? earlier(e, ORDER_PATHS) : earlier(e, [], ['trans_id'])
    const { trans_id: transId, order_id: orderId, ...rest } = e.body
    for (const { value, from } of other ? ids : []) {
      const body = { ...rest, ...(byOrder ? { order_id: value } : { trans_id: value }) }
      const facts = byOrder ? e.memory.forOrder(value) : e.memory.forTrans(value)
      if (!other || !facts) continue
      yield {
        variant: 'lookup-signed-over-other-id',
        hash: sign(other.formula, body, e.password, facts),
        mistake: `the merchant's ${e.action} is signed with ${other.formula.id} over the ${byOrder ? 'order_id' : 'trans_id'} "${value}" (${from}); a lookup by ${byOrder ? 'trans_id' : 'order_id'} takes ${formula.id} over the ${byOrder ? 'trans_id' : 'order_id'} it sends`,
        fix: `sign the ${byOrder ? `trans_id the lookup sends (${JSON.stringify(transId)})` : `order_id the lookup sends (${JSON.stringify(orderId)})`}: ${right}`,
      }
    }
  }

  // A lookup of a CREDIT2CARD signed like a card payment's, or the other way round (Formula 2 and 6).
  if (original && original !== NO_FACTS && formula.needsOriginal) {
    const flipped = { ...original, credit2card: !original.credit2card }
    yield {
      variant: original.credit2card ? 'payout-lookup-signed-as-payment' : 'payment-lookup-signed-as-payout',
      hash: sign(formula, e.body, e.password, flipped),
      mistake: `the merchant's hash is ${formula.id} of a ${original.credit2card ? "card payment (with the payer's e-mail)" : 'CREDIT2CARD (no e-mail)'} where this original is a ${original.credit2card ? 'CREDIT2CARD' : 'card payment'}: ${formula.text}`,
      fix: `sign with the formula of the original payment's kind: ${right}`,
    }
  }

  // Another formula of the same API over the request as sent (a payout signed like a SALE).
  const byFormula = new Map<string, { signing: DeclaredSigning; names: string[] }>()
  for (const [name, other] of declaredSignings(e.api)) {
    if (other.formula.id === formula.id) continue
    const entry = byFormula.get(other.formula.id) ?? { signing: other, names: [] }
    entry.names.push(name)
    byFormula.set(other.formula.id, entry)
  }
  const own = e.action ?? e.path
  for (const { signing: other, names } of byFormula.values()) {
    const theirs = originalFor(other, e.body, e.memory)
    // A formula over an original payment the kit has not seen would be claimed over empty data.
    if (theirs === null || theirs === NO_FACTS) continue
    yield {
      variant: 'other-formula',
      hash: sign(other.formula, e.body, e.password, theirs),
      mistake: `the merchant's hash is the formula of ${names.slice(0, 3).join(', ')}${names.length > 3 ? ' and others' : ''} (${other.formula.id}) over this request; ${own} takes ${formula.id}: ${formula.text}`,
      fix: `sign ${own} with its own formula: ${right}`,
    }
  }
}

/**
 * The mistake that reproduces the hash `sent`, exactly, or undefined when none does (or the kit
 * cannot compute this request's formula).
 */
export function diagnoseHash(e: HashEvidence, sent: unknown): HashDiagnosis | undefined {
  if (typeof sent !== 'string' || sent === '') return undefined
  const signing = declaredSigning(e.api, { path: e.path, ...(e.action ? { action: e.action } : {}) })
  if (!signing) return undefined
  const original = originalFor(signing, e.body, e.memory)
  if (original === null) return undefined
  const expected = sign(signing.formula, e.body, e.password, original)
  if (!expected || sameSignature(expected, sent)) return undefined
  for (const c of candidates(e, signing, expected)) {
    if (c.hash && c.hash !== expected && sameSignature(c.hash, sent))
      return { variant: c.variant, mistake: c.mistake, fix: c.fix }
  }
  return undefined
}
