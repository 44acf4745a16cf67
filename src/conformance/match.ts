import { errorEntry } from '../core/engine/errors.js'
import { formatFieldError, validate } from '../core/validation/index.js'
import type { ScenarioExpectation, ScenarioFieldMatch } from '../generated/types.js'
import { exists, selectAll } from './interpolate.js'

/**
 * Expectations of a scenario: each returns the problems it finds, as sentences a reader can act
 * on (what was expected, what came), never a bare `false`.
 */

const show = (value: unknown): string => {
  if (value === undefined) return 'nothing'
  const text = JSON.stringify(value)
  return text.length > 200 ? `${text.slice(0, 197)}...` : text
}

/** Form fields are strings: `10` and `"10"` are the same answer, and so are `true` and `"true"`. */
function same(expected: unknown, actual: unknown): boolean {
  if (expected === actual) return true
  if (typeof expected !== 'object' || expected === null) {
    if (typeof actual === 'string' && (typeof expected === 'number' || typeof expected === 'boolean'))
      return actual === String(expected)
    if (typeof expected === 'string' && (typeof actual === 'number' || typeof actual === 'boolean'))
      return expected === String(actual)
    return false
  }
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((e, i) => same(e, actual[i]))
    )
  if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return false
  const a = actual as Record<string, unknown>
  const e = expected as Record<string, unknown>
  return Object.keys(e).length === Object.keys(a).length && Object.keys(e).every((k) => same(e[k], a[k]))
}

type Matcher = { $exists?: boolean; $regex?: string; $in?: unknown[]; $nin?: unknown[]; $length?: number }
const MATCHERS = ['$exists', '$regex', '$in', '$nin', '$length']
const isMatcher = (v: unknown): v is Matcher =>
  !!v &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.keys(v).length > 0 &&
  Object.keys(v).every((k) => MATCHERS.includes(k))

/** One `{path: expected}` pair against data: undefined when it holds, else the problem. */
export function checkField(data: unknown, path: string, expected: unknown): string | undefined {
  const found = selectAll(data, path)
  const actual = found[0]
  if (isMatcher(expected)) {
    if (expected.$exists !== undefined && expected.$exists !== found.length > 0)
      return expected.$exists ? `${path} is missing` : `${path} should be absent, found ${show(actual)}`
    if (expected.$regex !== undefined) {
      if (typeof actual !== 'string' && typeof actual !== 'number')
        return `${path}: expected text matching /${expected.$regex}/, found ${show(actual)}`
      if (!new RegExp(expected.$regex).test(String(actual)))
        return `${path}: expected text matching /${expected.$regex}/, found ${show(actual)}`
    }
    if (expected.$in !== undefined && !expected.$in.some((option) => same(option, actual)))
      return `${path}: expected one of ${show(expected.$in)}, found ${show(actual)}`
    // Intent: absent, or none of these (a payment not asked to be recurring carries no recurring_init true).
    if (
      expected.$nin !== undefined &&
      found.length > 0 &&
      expected.$nin.some((option) => same(option, actual))
    )
      return `${path}: expected none of ${show(expected.$nin)}, found ${show(actual)}`
    if (expected.$length !== undefined) {
      const length = Array.isArray(actual) || typeof actual === 'string' ? actual.length : undefined
      if (length !== expected.$length)
        return `${path}: expected ${expected.$length} items, found ${length === undefined ? show(actual) : length}`
    }
    return undefined
  }
  if (found.length === 0) return `${path}: expected ${show(expected)}, but it is missing`
  return same(expected, actual) ? undefined : `${path}: expected ${show(expected)}, found ${show(actual)}`
}

export function checkFields(data: unknown, fields: ScenarioFieldMatch | undefined): string[] {
  return Object.entries(fields ?? {}).flatMap(([path, expected]) => checkField(data, path, expected) ?? [])
}

/** Schema problems of a payload, each with its field path and the interface section of the rule. */
export function schemaProblems(
  schema: string,
  data: unknown,
  pathStyle: 'dot' | 'bracket' = 'dot',
): string[] {
  const result = validate(schema, data, { pathStyle })
  return result.errors.map((e) => `${formatFieldError(e)}${e.section ? ` [interface ${e.section}]` : ''}`)
}

export interface Answer {
  status: number
  body: unknown
}

const isErrorBody = (body: unknown): boolean => {
  const b = body as Record<string, unknown> | null
  return !!b && typeof b === 'object' && ('error_code' in b || b.result === 'ERROR')
}

/**
 * An answer against a step's expectation. Without `error` or `http`, a success is expected: an
 * error answer is then the deviation, quoted. `responseSchema` is the endpoint's, used when the
 * expectation names none.
 */
export function checkAnswer(
  answer: Answer,
  expectation: ScenarioExpectation | undefined,
  responseSchema: string | undefined,
): string[] {
  const expect = expectation ?? {}
  const problems: string[] = []
  if (expect.error) problems.push(...checkError(answer, expect.error))
  else if (expect.http !== undefined) {
    if (answer.status !== expect.http)
      problems.push(`HTTP status: expected ${expect.http}, got ${answer.status}`)
  } else if (answer.status >= 400 || isErrorBody(answer.body))
    problems.push(`expected a successful answer, got HTTP ${answer.status} ${show(answer.body)}`)
  const schema =
    expect.schema ?? (expect.error || isErrorBody(answer.body) ? 'errors/error-response' : responseSchema)
  if (schema && problems.length === 0 && answer.body !== undefined && typeof answer.body === 'object')
    problems.push(...schemaProblems(schema, answer.body).map((p) => `answer does not match ${schema}: ${p}`))
  problems.push(...checkFields(answer.body, expect.fields))
  for (const path of expect.present ?? []) if (!exists(answer.body, path)) problems.push(`${path} is missing`)
  for (const path of expect.absent ?? [])
    if (exists(answer.body, path))
      problems.push(`${path} should be absent, found ${show(selectAll(answer.body, path)[0])}`)
  return problems
}

/** The catalogue row, exactly: HTTP status, error_code and error_message (or the errors[] item). */
export function checkError(answer: Answer, id: string): string[] {
  const entry = errorEntry(id)
  const body = (answer.body ?? {}) as Record<string, unknown>
  const quoted = (entry as { interface_row?: string }).interface_row
  const row = `${entry.http_code} / ${entry.error_code} / "${entry.error_message}"${quoted ? ` (Errors row: "${quoted}")` : ''}`
  if (entry.placement === 'errors_item') {
    const envelope = errorEntry('REQUEST_DATA_INVALID')
    const items = Array.isArray(body.errors) ? (body.errors as Record<string, unknown>[]) : []
    const item = items.find(
      (i) => i.error_message === entry.error_message && Number(i.error_code) === entry.error_code,
    )
    const problems: string[] = []
    if (answer.status !== envelope.http_code || body.error_message !== envelope.error_message)
      problems.push(
        `expected "${envelope.error_message}" (HTTP ${envelope.http_code}) carrying ${row}, got HTTP ${answer.status} ${show(body)}`,
      )
    else if (!item)
      problems.push(
        `expected an errors[] item ${entry.error_code} "${entry.error_message}", got ${show(items)}`,
      )
    return problems
  }
  const items = Array.isArray(body.errors)
    ? ` with errors[] ${(body.errors as Record<string, unknown>[]).map((i) => `${i.error_code} ${show(i.error_message)}`).join(', ')}`
    : ''
  const got = `${answer.status} / ${show(body.error_code)} / ${show(body.error_message)}${items}`
  if (
    answer.status === entry.http_code &&
    Number(body.error_code) === entry.error_code &&
    body.error_message === entry.error_message
  )
    return []
  // docs/rules.md#business-codes: Checkout carries a business refusal as an errors[] item of its envelope.
  const envelope = errorEntry('REQUEST_DATA_INVALID')
  if (
    answer.status === envelope.http_code &&
    body.error_message === envelope.error_message &&
    Array.isArray(body.errors) &&
    (body.errors as Record<string, unknown>[]).some(
      (i) => i.error_message === entry.error_message && Number(i.error_code) === entry.error_code,
    )
  )
    return []
  return [`expected error ${row}, got ${got}`]
}
