import type { RuleId } from './rules.js'

/**
 * docs/rules.md#rule-book: a refusal is data before it is text. Every answer the gateway refuses
 * carries the rule it applied (the anchor of that rule in docs/rules.md), the field paths it
 * refused, and for a signature the formula it checked with (its declared id) and the names of the
 * inputs it used (never their values, never a secret). The platform's body stays exactly as the
 * platform writes it; the reason travels beside it: the `Sandbox-Rule` response header, the
 * request log, the event stream, the console and the conformance kit read this one record.
 */
export interface Refusal {
  /** The anchor of the rule in docs/rules.md, without `#` (`amounts`, `checkout-signatures`). */
  rule: RuleId
  /** The field paths refused, as the platform writes them (`order.amount`, `hash`). */
  fields?: string[]
  /** The declared signature formula (`src/core/signatures/formulas.ts` ids) a hash refusal was checked with. */
  formula?: string
  /** The names of the inputs that formula was computed over, in order (no values, no secrets). */
  inputs?: string[]
  /** The catalogue row answered (schemas/catalogue/errors.json `id`). */
  row?: string
  /** The row of the payment state table that refused the move (src/core/payments/state-machine.ts `TRANSITIONS` id). */
  transition?: string
}

const PREFIX = 'docs/rules.md#'

/** `Sandbox-Rule: docs/rules.md#<anchor>; field=<path>[; field=<path>…]; formula=<id>` (ASCII, one line). */
export function ruleHeader(refusal: Refusal): string {
  const parts = [`${PREFIX}${refusal.rule}`]
  for (const field of refusal.fields ?? []) parts.push(`field=${field}`)
  if (refusal.formula) parts.push(`formula=${refusal.formula}`)
  return parts.join('; ').replace(/[^\x20-\x7e]/g, '?')
}

/**
 * The rule, fields and formula of a `Sandbox-Rule` header, as another paysandbox sent it (the
 * kit's gateway mode); undefined for anything else. The rule is kept as sent: the caller checks
 * it against its own table.
 */
export function parseRuleHeader(
  value: string | null | undefined,
): (Omit<Refusal, 'rule'> & { rule: string }) | undefined {
  if (!value?.startsWith(PREFIX)) return undefined
  const [anchor = '', ...rest] = value.slice(PREFIX.length).split('; ')
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(anchor)) return undefined
  const fields = rest.filter((p) => p.startsWith('field=')).map((p) => p.slice('field='.length))
  const formula = rest.find((p) => p.startsWith('formula='))?.slice('formula='.length)
  return { rule: anchor, ...(fields.length ? { fields } : {}), ...(formula ? { formula } : {}) }
}
