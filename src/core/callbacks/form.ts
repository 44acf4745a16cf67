import type { FormValue } from '../signatures/index.js'

/** A callback body as the merchant's form parser sees it: strings, nested objects from bracket notation. */
export type FormBody = Record<string, FormValue>

/**
 * A stored JSON value (custom_data of a Checkout request) as form strings: numbers and booleans
 * become their text, and empty values are left out (docs/rules.md#callbacks), so nothing is sent that a
 * form parser would read back differently.
 */
export function toFormValue(value: unknown): FormValue | undefined {
  if (value === null || value === undefined) return undefined
  if (typeof value === 'string') return value === '' ? undefined : value
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value)
  if (Array.isArray(value)) {
    const items = value.map(toFormValue).filter((v): v is FormValue => v !== undefined)
    return items.length ? items : undefined
  }
  if (typeof value === 'object') {
    const out: Record<string, FormValue> = {}
    for (const [key, item] of Object.entries(value)) {
      const converted = toFormValue(item)
      if (converted !== undefined) out[key] = converted
    }
    return Object.keys(out).length ? out : undefined
  }
  return undefined
}

/**
 * Drops undefined and empty values ("empty values left out", docs/rules.md#callbacks) except the keys
 * that must be sent even when empty (`ARN`: "sent empty when missing").
 */
export function compact(
  fields: Record<string, FormValue | undefined>,
  keepEmpty: ReadonlySet<string> = new Set(),
): FormBody {
  const out: FormBody = {}
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue
    if (value === '' && !keepEmpty.has(key)) continue
    out[key] = value
  }
  return out
}

/** Flat keys in bracket notation (`custom_data[tags][0]`), the form the callback is POSTed in. */
export function flattenForm(body: FormBody): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (key: string, value: FormValue) => {
    if (typeof value === 'string') out[key] = value
    else {
      const entries = Array.isArray(value) ? value.entries() : Object.entries(value)
      for (const [k, v] of entries) walk(`${key}[${k}]`, v)
    }
  }
  for (const [key, value] of Object.entries(body)) walk(key, value)
  return out
}

/** `application/x-www-form-urlencoded` text of flat fields. */
export const encodeForm = (fields: Record<string, string>): string => new URLSearchParams(fields).toString()

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded; charset=utf-8'
