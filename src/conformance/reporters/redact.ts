import { maskCard } from '../../core/engine/format.js'
import { PLACEHOLDER, REMOVED, redactText, sensitiveKind } from '../../core/request-log/redact.js'
import type { Reporter, RunSummary, ScenarioResult, StepResult } from '../types.js'

/**
 * What a kit report may hold (docs/rules.md#request-log, the request log's own rule): a card
 * number only masked (first 6, last 4), the published test cards too, and never a security code
 * (its value replaced by `[removed]`, the key kept so a reader sees one was sent); passwords and
 * tokens as the request log hides them. One module for every report: the plain, live, JSON and
 * JUnit reporters, the console's, the curl reproductions (curl.ts), and any reporter the runner
 * is handed (it wraps each in `redacting`).
 *
 * The request log's `redactText` masks every Luhn-valid run of digits and the JSON and query-string
 * spellings of tokens, passwords and CVVs; a report also holds failure messages, a curl's form
 * body and lines a merchant printed, so a key and its value are read in any of their spellings
 * (`card_cvv2=123` first in a form, `payer_card_cvv2: 123`, `card[cvv]=123`, `"cvv": 123`) and a
 * card number under a card key is masked even when it is not Luhn-valid.
 */

/** `key` `=`/`:` `value` in a form, a JSON text, a header line or a message; the value unquoted. */
const KEYED = /([A-Za-z_][\w.[\]-]*?)(\]?\\?["']?\s*[:=]\s*\\?["']?)([^\s&"'\\,;)}<>]+)/g
/** A key's last word names a security code (`payer_card_cvv2`, `card[cvc]`, `cvv`). */
const CVV_WORD = /(?:^|[_.[\]-])(?:cvv2?|cvc2?|csc|security_code)\]?$/i
/** A key's last words name a card number (`payee_card_number`, `card[number]`, `card.number`). */
const CARD_WORD = /(?:^|[_.[\]-])(?:card_?number|card[.[\]]+number|pan)\]?$/i

const isCvvKey = (key: string) => sensitiveKind(key) === 'cvv' || CVV_WORD.test(key)
const isCardKey = (key: string) => sensitiveKind(key) === 'card' || CARD_WORD.test(key)

/** Free text of a report (a message, a curl command, a finding), as a report may show it. */
export function reportText(text: string): string {
  if (text.length < 3) return text
  let out = text
  if (/cvv|cvc|csc|security_code|card|pan/i.test(out))
    out = out.replace(KEYED, (whole, key: string, between: string, value: string) => {
      if (isCvvKey(key)) return PLACEHOLDER.test(value) ? whole : `${key}${between}${REMOVED}`
      if (isCardKey(key) && /^\d[\d -]{9,}\d$/.test(value)) return `${key}${between}${maskCard(value)}`
      return whole
    })
  return redactText(out)
}

/** Every string in a value (a result, a summary), through `reportText`; the shape unchanged. */
function deep<T>(value: T): T {
  if (typeof value === 'string') return reportText(value) as T
  if (Array.isArray(value)) return value.map(deep) as T
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = deep(v)
    return out as T
  }
  return value
}

export const redactedResult = (result: ScenarioResult): ScenarioResult => deep(result)
export const redactedStep = (step: StepResult): StepResult => deep(step)
export const redactedSummary = (summary: RunSummary): RunSummary => deep(summary)

const WRAPPED = Symbol('redacting')

/**
 * A reporter that sees only what a report may hold: every result, step, summary and note goes
 * through `reportText` before it reaches `reporter`. Wrapping twice redacts once.
 */
export function redacting(reporter: Reporter): Reporter {
  if ((reporter as { [WRAPPED]?: true })[WRAPPED]) return reporter
  const wrapped: Reporter & { [WRAPPED]: true } = {
    [WRAPPED]: true,
    start: (info) => reporter.start(info.notes ? { ...info, notes: deep(info.notes) } : info),
    scenarioFinished: (result) => reporter.scenarioFinished(redactedResult(result)),
    finish: (summary) => reporter.finish(redactedSummary(summary)),
  }
  if (reporter.scenarioStarted) wrapped.scenarioStarted = (s) => reporter.scenarioStarted?.(s)
  if (reporter.stepFinished)
    wrapped.stepFinished = (s, step) => reporter.stepFinished?.(s, redactedStep(step))
  return wrapped
}
