import type { ErrorObject, SchemaValidateFunction } from 'ajv'
import type { Ajv2020 } from 'ajv/dist/2020.js'
import type { DataValidationCxt } from 'ajv/dist/types/index.js'
import type { RuleId } from '../engine/rules.js'
import { warn } from '../engine/warnings.js'
import { amountForm } from './amounts.js'

/**
 * Keywords for the forms the platform accepts beyond a plain JSON Schema (docs/rules.md#transport):
 *
 * - `x-amount-for-currency: {amount, currency}` on an object: the amount's decimals against the
 *   currency's exponent (UGX, JPY, KRW, CLP as `100.00`); a form the platform may accept (`25` for
 *   USD) passes with a `Sandbox-Warning`, an amount finer than the currency's minor unit fails.
 * - `x-platform-forms: {field: "boolean" | "integer" | "single" | "object"}` on an object, run before its
 *   `properties`: the strings `"true"`/`"false"`/`"Y"`/`"N"` become booleans and numeric strings
 *   integers (both with a warning, the platform documents JSON values); an array of one string
 *   becomes that string (`card_token`, which the platform documents as an array: no warning).
 *   `object` names an optional object: `null` is taken as absent, with a warning
 *   (docs/rules.md#null-objects: SDKs send `"customer": null` for an omitted object).
 *
 * Both are shared by every API (Checkout `order.amount`, S2S `order_amount`): warnings name the
 * field with the path the merchant wrote (`parameters.card.x` or a flat S2S name).
 */
export const PLATFORM_KEYWORDS = ['x-amount-for-currency', 'x-platform-forms'] as const

type Form = 'boolean' | 'integer' | 'single' | 'object'

const BOOLEAN_STRINGS: Record<string, boolean> = { true: true, false: false, y: true, n: false }

/** `/order` + `amount` -> `order.amount` (indexes as `[0]`). */
export function fieldPath(instancePath: string, property: string): string {
  const segments = [...instancePath.split('/').slice(1), property].map((s) =>
    s.replace(/~1/g, '/').replace(/~0/g, '~'),
  )
  let out = ''
  for (const s of segments) out += /^\d+$/.test(s) ? `[${s}]` : out ? `.${s}` : s
  return out
}

/** A refusal of one of these keywords, with the rule it applies (validate.ts reads `params.rule`). */
const failure = (instancePath: string, keyword: string, message: string, rule: RuleId): ErrorObject => ({
  keyword,
  instancePath,
  schemaPath: '',
  params: { message, rule },
  message,
})

const amountForCurrency: SchemaValidateFunction = (
  schema: unknown,
  data: unknown,
  _parent,
  cxt?: DataValidationCxt,
) => {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return true
  const names = schema as { amount: string; currency: string }
  const record = data as Record<string, unknown>
  const amount = record[names.amount]
  const currency = record[names.currency]
  if (typeof amount !== 'string' || typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return true
  const form = amountForm(amount, currency)
  const base = cxt?.instancePath ?? ''
  if (form.kind === 'invalid') {
    amountForCurrency.errors = [
      failure(`${base}/${names.amount}`, 'x-amount-for-currency', form.message, 'amounts'),
    ]
    return false
  }
  if (form.kind === 'lenient') {
    warn({
      field: fieldPath(base, names.amount),
      sent: `${amount} ${currency}`,
      documented: form.documented,
      source: 'docs/rules.md#amounts (Checkout 6.6.2 order.amount, S2S CARD 5.6.2 order_amount)',
    })
  }
  return true
}

const platformForms: SchemaValidateFunction = (
  schema: unknown,
  data: unknown,
  _parent,
  cxt?: DataValidationCxt,
) => {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return true
  const record = data as Record<string, unknown>
  const base = cxt?.instancePath ?? ''
  const errors: ErrorObject[] = []
  for (const [field, form] of Object.entries(schema as Record<string, Form>)) {
    const value = record[field]
    if (value === undefined) continue
    if (form === 'object') {
      if (value !== null) continue
      delete record[field]
      warn({
        field: fieldPath(base, field),
        sent: 'null',
        documented: 'an optional object: the object, or no field at all',
        source: 'docs/rules.md#null-objects (interface 2.1: the object may be omitted)',
      })
    } else if (form === 'boolean' && typeof value === 'string') {
      const parsed = BOOLEAN_STRINGS[value.toLowerCase()]
      if (parsed === undefined) continue
      record[field] = parsed
      warn({
        field: fieldPath(base, field),
        sent: `the string ${JSON.stringify(value)}`,
        documented: 'a JSON boolean true or false',
        source:
          'docs/rules.md#booleans (Checkout 6.6.2: req_token, recurring_init, vat_calc "true or false")',
      })
    } else if (form === 'integer' && typeof value === 'string' && /^[0-9]{1,9}$/.test(value)) {
      record[field] = Number(value)
      warn({
        field: fieldPath(base, field),
        sent: `the string ${JSON.stringify(value)}`,
        documented: 'a JSON number',
        source: 'docs/rules.md#booleans (numeric fields such as size)',
      })
    } else if (form === 'single' && Array.isArray(value)) {
      if (value.length === 1 && typeof value[0] === 'string') record[field] = value[0]
      else
        errors.push(
          failure(
            `${base}/${field}`,
            'x-platform-forms',
            'This value is not valid. Send one token: a string, or an array of one string.',
            'card-token-form',
          ),
        )
    }
  }
  if (errors.length) {
    platformForms.errors = errors
    return false
  }
  return true
}

/** Adds the keywords to an ajv instance (the process-wide registry does this). */
export function addPlatformKeywords(ajv: Ajv2020): void {
  ajv.addKeyword({
    keyword: 'x-amount-for-currency',
    type: 'object',
    schemaType: 'object',
    errors: true,
    validate: amountForCurrency,
  })
  ajv.addKeyword({
    keyword: 'x-platform-forms',
    type: 'object',
    schemaType: 'object',
    modifying: true,
    errors: true,
    before: 'properties',
    validate: platformForms,
  })
}
