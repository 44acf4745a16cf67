import type { CheckoutView } from './checkout-view.js'
import { methodFieldId } from './client-data.js'
import { type FormInput, readBillingAndTerms, text } from './form-input.js'
import type { Translate } from './i18n.js'

export interface MethodForm extends FormInput {
  /** Values for `parameters.<method>` (nested where the field name has dots: `bankDetails.cbu`). */
  parameters: Record<string, unknown>
  billing: Record<string, string>
}

/** The extra fields of a non-card method as posted, checked as the page announced them. */
export function readMethodForm(t: Translate, view: CheckoutView, body: Record<string, unknown>): MethodForm {
  const input: FormInput = { errors: [], values: {} }
  const parameters: Record<string, unknown> = {}
  const billing: Record<string, string> = {}
  for (const field of view.fields) {
    const value = text(body, field.name, 100)
    input.values[field.name] = value
    const problem = !value
      ? field.required
        ? 'errorRequired'
        : undefined
      : (field.pattern && !new RegExp(`^(?:${field.pattern})$`, 'u').test(value)) ||
          (field.options && !field.options.includes(value))
        ? 'errorInvalid'
        : undefined
    if (problem) {
      const label = field.label ? t(field.label) : (field.labelText ?? field.name)
      input.errors.push({ field: methodFieldId(field.name), label, message: t(problem) })
      continue
    }
    if (!value) continue
    if (field.target === 'billing_address') billing[field.path.join('.')] = value
    else setPath(parameters, field.path, value)
  }
  Object.assign(billing, readBillingAndTerms(t, view, body, input))
  return { ...input, parameters, billing }
}

function setPath(target: Record<string, unknown>, path: string[], value: string): void {
  let node = target
  for (const key of path.slice(0, -1)) {
    const next = node[key]
    const child = (next && typeof next === 'object' ? next : {}) as Record<string, unknown>
    node[key] = child
    node = child
  }
  const last = path[path.length - 1]
  if (last) node[last] = value
}
