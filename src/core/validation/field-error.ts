import type { RuleId } from '../engine/rules.js'

/**
 * One refused field, and its text in the interface's error form. Apart from validate.ts (which
 * compiles schemas) so that the engine's error envelopes format field errors without importing
 * the schema registry (no runtime import cycle inside src/core: test/engine/core-layers.test.ts).
 */
export interface FieldError {
  /** Field path as the merchant wrote it. */
  path: string
  message: string
  /** The interface section the rule comes from (for example `2.1.1`). */
  section: string
  /** The JSON Schema keyword that failed: useful to tools, never shown to payers. */
  keyword: string
  /** docs/rules.md#rule-book: the rule the refused keyword belongs to (the `Sandbox-Rule` of the answer). */
  rule: RuleId
}

/** `order.amount: This value should be greater than 0.` — the interface's error form. */
export const formatFieldError = (e: FieldError): string => (e.path ? `${e.path}: ${e.message}` : e.message)
