import { expect } from 'vitest'
import {
  type FieldError,
  formatFieldError,
  type PathStyle,
  validate,
} from '../../src/core/validation/index.js'

/** Asserts the payload is valid, printing the problems when it is not. */
export function expectValid(schema: string, data: unknown, pathStyle: PathStyle = 'dot'): void {
  const result = validate(schema, data, { pathStyle })
  expect(result.errors.map(formatFieldError), `${schema} should accept the payload`).toEqual([])
}

/**
 * Asserts the payload is refused with an error at exactly `path` (and, when given, a message
 * containing `message`). Returns the matching error for further checks.
 */
export function expectInvalidAt(
  schema: string,
  data: unknown,
  path: string,
  message?: string,
  pathStyle: PathStyle = 'dot',
): FieldError {
  const result = validate(schema, data, { pathStyle })
  expect(result.valid, `${schema} should refuse the payload`).toBe(false)
  const at = result.errors.filter((e) => e.path === path)
  expect(
    at.map(formatFieldError),
    `an error at "${path}"; got ${result.errors.map(formatFieldError).join(' | ')}`,
  ).not.toEqual([])
  if (message) expect(at.map((e) => e.message).join(' | ')).toContain(message)
  return at[0] as FieldError
}

/** Deep copy with one change: `withField(base, 'order.amount', '0')`; `undefined` deletes the field. */
export function withField<T>(base: T, path: string, value: unknown): T {
  const copy = structuredClone(base) as Record<string, unknown>
  const keys = path.split('.')
  let node: Record<string, unknown> = copy
  for (const k of keys.slice(0, -1)) {
    node[k] ??= {}
    node = node[k] as Record<string, unknown>
  }
  const last = keys[keys.length - 1] as string
  if (value === undefined) delete node[last]
  else node[last] = value
  return copy as T
}

/** A string of `n` characters of `ch`, for boundary tests. */
export const chars = (n: number, ch = 'a'): string => ch.repeat(n)
