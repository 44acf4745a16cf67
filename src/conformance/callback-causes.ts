import { type RuleId, ruleLine, ruleSection } from '../core/engine/rules.js'
import { CALLBACK_FORMULAS, type CallbackFormula } from '../core/signatures/formulas.js'
import { type CallbackAttempt, type CallbackRecord, describeAttempts } from './callback-channel.js'
import { type CallbackSigning, callbackSigning } from './callback-signing.js'
import type { ScenarioContext } from './context.js'
import { maskCards } from './refusal-causes.js'
import { describeCallback } from './steps/select.js'
import type { Finding } from './types.js'

/**
 * Cause first for a callback the merchant did not acknowledge (docs/conformance.md, Read a
 * failure): what its handler did and the rule (docs/rules.md#callback-format, #acknowledgement,
 * the callback's formula as src/core/signatures declares it), then the attempt that failed. The
 * handler's answer is the merchant's own text, which the kit may read to tell a parse error from
 * a refused hash.
 */

/** The first genuine callback whose first attempt that reached the merchant was not acknowledged. */
export function firstUnacknowledged(
  ctx: ScenarioContext,
): { record: CallbackRecord; first: CallbackAttempt } | undefined {
  for (const record of ctx.channel.log) {
    if (record.source !== 'gateway' || record.expectedRefusal) continue
    const first = record.attempts.filter((a) => !a.byKit)[0]
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

/** Words of the merchant's own answer that say it could not parse the body, or refused the hash. */
const PARSE_TROUBLE = /json|unexpected\stoken|parse|syntax/i
const HASH_TROUBLE = /hash|signature/i

const answerOf = (attempt: CallbackAttempt) => attempt.body ?? attempt.error ?? ''
const hashTroubleIn = (attempt: CallbackAttempt) =>
  !PARSE_TROUBLE.test(answerOf(attempt)) && HASH_TROUBLE.test(answerOf(attempt))

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

/** The callback's formula, as src/core/signatures declares it (the one the kit checked it with, when it did). */
function formulaOf(r: CallbackRecord, signing?: CallbackSigning): CallbackFormula {
  const payout = ['CREDIT2CARD', 'CREDIT2VIRTUAL', 'CREDIT2CRYPTO'].includes(r.fields.action ?? '')
  const name = (
    r.api === 'checkout' ? 'checkout' : `${r.api}${payout ? '-payout' : ''}`
  ) as keyof typeof CALLBACK_FORMULAS
  return signing?.formula ?? CALLBACK_FORMULAS[name] ?? CALLBACK_FORMULAS.checkout
}

const FORM = 'callbacks are form-encoded (application/x-www-form-urlencoded)'

/** What the merchant's handler did, as the cause of the failed attempt, and its rule; undefined when the kit cannot tell. */
function handlerCause(r: CallbackRecord, first: CallbackAttempt, signing: CallbackSigning | undefined) {
  const status = first.status ?? 0
  const causes: [boolean, string, RuleId][] = [
    [
      PARSE_TROUBLE.test(answerOf(first)),
      `the merchant's callback handler could not read the body: ${FORM}, not JSON`,
      'callback-format',
    ],
    [
      status >= 500,
      `the merchant's callback handler failed on the callback (HTTP 5xx); ${FORM}, read them as a form`,
      'callback-format',
    ],
    [
      !!first.timedOut,
      "the merchant's callback handler did not answer in time: a time-out is a failed attempt (answer first, then do slow work)",
      'acknowledgement',
    ],
    [
      !!signing,
      `the merchant's check of the callback's hash computes another hash: the gateway signed it right (the kit checked its hash with the adapter's password), so the merchant uses another formula, or other values than the callback's${r.api === 'checkout' ? ' flat' : ''} form fields (${signing?.formula.id})`,
      signing?.formula.rule ?? 'signatures',
    ],
    [
      status >= 300 && status < 400,
      `the merchant's callback URL answers with a redirect: a redirect is not an acknowledgement: the callback URL itself answers ${r.api === 'checkout' ? 'a 2xx' : '200 with the body OK'}, and the kit does not follow it`,
      'acknowledgement',
    ],
    [
      r.api !== 'checkout' && status === 200,
      'the merchant acknowledges S2S callbacks with another body: an S2S callback is acknowledged by the body OK, and only by it',
      'acknowledgement',
    ],
  ]
  const [, cause, anchor] = causes.find(([applies]) => applies) ?? []
  return cause && anchor ? { cause: `${cause} (docs/rules.md#${anchor})`, anchor } : undefined
}

/** A genuine callback whose first attempt that reached the merchant was not acknowledged. */
export function callbackFinding(ctx: ScenarioContext): Finding | undefined {
  const found = firstUnacknowledged(ctx)
  if (!found) return undefined
  const { record: r, first } = found
  const hashTrouble = hashTroubleIn(first)
  const signing = hashTrouble ? signedRight(ctx, r) : undefined
  const ack = r.api === 'checkout' ? 'any 2xx' : 'the body OK'
  const formula = formulaOf(r, signing)
  const probe = ctx.callbackProbe?.index === r.index ? ctx.callbackProbe : undefined
  const read = probe?.flat && probe.nested ? { flat: probe.flat, nested: probe.nested } : undefined
  const mistake = r.api !== 'checkout' ? probe?.mistake : undefined
  const handler = handlerCause(r, first, signing)
  const signed = formula.inputs.flatMap((k) =>
    k === 'password' ? [] : [`${k} ${JSON.stringify(r.fields[k] ?? '')}`],
  )
  const verify =
    signing && r.api === 'checkout'
      ? `read the callback's flat form fields (${Object.keys(r.fields).join(', ')}): hash = ${formula.text} over ${signed.join(', ')} and the adapter's password is ${r.fields.hash ?? ''}, the hash this callback carries; then answer ${ack}`
      : signing
        ? `verify the callback with ${formula.id}: hash = ${formula.text} over ${signing.over} and the adapter's password: for this callback ${r.fields.hash ?? ''}, the hash it carries${mistake ? ` (signed ${mistake.name}, it is ${mistake.hash})` : ''}; then answer ${ack}`
        : undefined
  const refused = `it refused ${describeCallback(r)}, signed right, with ${answerText(first)}, and acknowledged the same callback`
  const [cause, symptom] = read
    ? [
        `the merchant reads the callback's ${read.flat} from ${read.nested}, where the gateway posts the flat form field ${read.flat} (docs/rules.md#callback-format)`,
        `${refused} once the kit added ${read.nested}`,
      ]
    : mistake
      ? [
          `the merchant verifies ${r.api === 's2s-apm' ? 'S2S APM' : 'S2S CARD'} callbacks with a hash computed ${mistake.name} (${formula.id}, docs/rules.md#${formula.rule})`,
          `${refused} signed ${mistake.name}`,
        ]
      : handler
        ? [handler.cause, `it did not acknowledge ${describeCallback(r)}: ${describeAttempts([first])}`]
        : [`the merchant did not acknowledge ${describeCallback(r)}`, describeAttempts([first])]
  return {
    kind: 'unacknowledged-callback',
    cause,
    headline: `${cause}: ${symptom}`,
    request: `POST ${r.url} (application/x-www-form-urlencoded) ${maskCards(r.text).slice(0, 400)}`,
    answer: describeAttempts(r.attempts),
    rule: hashTrouble
      ? `the callback's ${formula.id}: hash = ${formula.text} (docs/rules.md#${formula.rule}); ${ruleLine('callback-format')}`
      : `${ruleLine('callback-format')}; ${ruleLine('acknowledgement')}`,
    fix: verify
      ? `${read ? `take ${read.flat} from the flat field ${read.flat} (a callback carries no ${read.nested}); ` : ''}${verify}`
      : hashTrouble
        ? `the gateway signed this callback correctly (hash ${r.fields.hash ?? ''}): verify it with ${formula.id} and the adapter's password, then answer ${ack}`
        : handler?.anchor === 'callback-format'
          ? `parse the callback body as a form (content-type application/x-www-form-urlencoded) and answer ${ack}`
          : `answer ${ack} once the callback is verified and booked`,
    section: `Events; ${ruleSection(hashTrouble ? formula.rule : (handler?.anchor ?? 'acknowledgement'))}`,
  }
}
