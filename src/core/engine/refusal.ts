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
  rule: string
  /** The field paths refused, as the platform writes them (`order.amount`, `hash`). */
  fields?: string[]
  /** The declared signature formula (`src/core/signatures/formulas.ts` ids) a hash refusal was checked with. */
  formula?: string
  /** The names of the inputs that formula was computed over, in order (no values, no secrets). */
  inputs?: string[]
}

/** `Sandbox-Rule: docs/rules.md#<anchor>; field=<path>[; field=<path>…]; formula=<id>` (ASCII, one line). */
export function ruleHeader(refusal: Refusal): string {
  const parts = [`docs/rules.md#${refusal.rule}`]
  for (const field of refusal.fields ?? []) parts.push(`field=${field}`)
  if (refusal.formula) parts.push(`formula=${refusal.formula}`)
  return parts.join('; ').replace(/[^\x20-\x7e]/g, '?')
}
