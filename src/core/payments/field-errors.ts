import { type ErrorItem, errorEntry, fieldDetail, GatewayError } from '../engine/errors.js'
import type { RuleId } from '../engine/rules.js'
import { type FieldError, formatFieldError } from '../validation/index.js'

/**
 * Several field problems answered together under "Request data is invalid.", each an `errors[]`
 * item, whether it comes from a schema or from a catalogue row the engine checks itself; the
 * refusal names every field and the rule of the first (docs/rules.md#rule-book).
 */
export class FieldProblems {
  readonly items: ErrorItem[] = []
  private readonly refused: { path: string; rule: RuleId }[] = []

  /** Schema errors, already `path: message`; `prefix` places them under a parent field. */
  addSchemaErrors(errors: FieldError[], prefix = ''): void {
    const envelope = errorEntry('REQUEST_DATA_INVALID')
    for (const e of errors) {
      const path = prefix && e.path ? `${prefix}.${e.path}` : prefix || e.path
      this.items.push({ error_code: envelope.error_code, error_message: formatFieldError({ ...e, path }) })
      this.refused.push({ path, rule: e.rule })
    }
  }

  /**
   * A catalogue row. Rows whose message already names its field are used as they are; rows holding
   * only the sentence (the field path varies, as in `methods[2]`) get `path` in front, and `hint`
   * after (near matches of an unknown identifier).
   */
  addRow(id: string, path?: string, hint = ''): void {
    const entry = errorEntry(id)
    const message = path ? `${path}: ${entry.error_message}` : entry.error_message
    this.items.push({ error_code: entry.error_code, error_message: `${message}${hint}` })
    this.refused.push({ path: path ?? entry.field ?? '', rule: entry.rule as RuleId })
  }

  throwIfAny(): void {
    if (this.items.length)
      throw new GatewayError(
        errorEntry('REQUEST_DATA_INVALID'),
        this.items,
        undefined,
        fieldDetail(this.refused),
      )
  }
}
