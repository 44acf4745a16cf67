import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { allInterfaceExcerpts } from '../helpers/interface-excerpts.js'
import { expectInvalidAt, expectValid, withField } from '../helpers/schema.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const ERRORS_FIXTURES = join(ROOT, 'fixtures/payloads/errors')

interface Entry {
  id: string
  api: 'checkout' | 's2s-card' | 's2s-apm' | 'any'
  operations: string[]
  condition: string
  http_code: number
  error_code: number
  error_message: string
  placement?: 'envelope' | 'errors_item'
  section: string
  interface_row?: string
  retired_in?: string
  sandbox_decision?: boolean
  reasoning?: string
  assumed?: boolean
  assumption?: string
}
interface Row {
  condition: string
  http: string
  code: string
  message: string
}

const catalogue = JSON.parse(readFileSync(join(ROOT, 'schemas/catalogue/errors.json'), 'utf8')) as {
  release: string
  errors: Entry[]
}
const entries = catalogue.errors
const byId = (id: string): Entry => {
  const e = entries.find((x) => x.id === id)
  if (!e) throw new Error(`No catalogue entry ${id}`)
  return e
}

/** The interface's sections the catalogue is checked against, verbatim (data/interface/, docs/interface-data.md). */
function readInterface(): string {
  return allInterfaceExcerpts()
}

/** The rows of the table under "## Errors": Condition | HTTP | Code | Message. */
function errorsTable(md: string): Row[] {
  const lines = md.split('\n')
  const start = lines.findIndex((l) => l.trim() === '## Errors')
  if (start < 0) throw new Error('No "## Errors" section in the interface')
  const rows: Row[] = []
  let inTable = false
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break
    if (!line.startsWith('|')) {
      if (inTable) break
      continue
    }
    inTable = true
    const cells = line
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim())
    if (cells[0] === 'Condition' || /^-+$/.test(cells[0] ?? '')) continue
    const [condition, http, code, message] = cells as [string, string, string, string]
    rows.push({ condition, http, code, message })
  }
  return rows
}

const md = readInterface()
const rows = errorsTable(md)
const NOT_SHOWN = 'not shown'

describe('the interface Errors table', () => {
  // Errors: "| Condition | HTTP | Code | Message |" followed by the rows.
  it('is parsed into its rows', () => {
    expect(rows.length).toBeGreaterThanOrEqual(14)
    expect(rows.map((r) => r.condition)).toContain('S2S CARD VOID or CREDITVOID with unknown `trans_id`')
    for (const r of rows) expect([r.http, r.code, r.message].every((c) => c.length > 0)).toBe(true)
  })

  // "Codes and messages in the interface's Errors table are exact and must be reproduced to the character." (docs/rules.md#transport)
  it.each(rows.map((r) => [r.condition, r] as const))(
    'row "%s" has catalogue entries that reproduce it',
    (_, row) => {
      const matching = entries.filter((e) => e.interface_row === row.condition && !e.assumed)
      expect(
        matching.length,
        `no catalogue entry names interface_row ${JSON.stringify(row.condition)}`,
      ).toBeGreaterThan(0)
      for (const e of matching) {
        if (row.http !== NOT_SHOWN) expect(e.http_code, e.id).toBe(Number(row.http))
        if (row.code !== NOT_SHOWN) expect(e.error_code, e.id).toBe(Number(row.code))
        if (row.message !== NOT_SHOWN) expect(e.error_message, e.id).toBe(row.message)
        const hidden = [row.http, row.code, row.message].includes(NOT_SHOWN)
        expect(
          e.sandbox_decision === true,
          `${e.id}: sandbox_decision must mark the values the interface does not show`,
        ).toBe(hidden)
        if (hidden) expect(e.reasoning?.length ?? 0, `${e.id}: reasoning`).toBeGreaterThan(40)
      }
    },
  )

  // The rows name their API in the Condition cell ("Checkout ...", "S2S CARD ...").
  it('keeps each API-specific row on its API', () => {
    for (const e of entries.filter((x) => x.interface_row && !x.assumed)) {
      const row = e.interface_row as string
      if (row.startsWith('Checkout ')) expect(e.api, e.id).toBe('checkout')
      if (row.startsWith('S2S CARD ')) expect(e.api, e.id).toBe('s2s-card')
    }
  })

  it('is the only source of interface_row values', () => {
    const conditions = new Set(rows.map((r) => r.condition))
    for (const e of entries.filter((x) => x.interface_row)) {
      expect(conditions.has(e.interface_row as string), `${e.id}: interface_row ${e.interface_row}`).toBe(
        true,
      )
    }
  })
})

describe('error catalogue', () => {
  it('is valid against its schema', () => {
    expectValid('catalogue/error-catalogue', catalogue)
  })

  it('has unique ids and one entry per (api, condition)', () => {
    const ids = entries.map((e) => e.id)
    expect(new Set(ids).size).toBe(ids.length)
    const keys = entries.map((e) => `${e.api}\u0000${e.condition}`)
    expect(new Set(keys).size).toBe(keys.length)
  })

  // Errors: "S2S APM equivalents of the table are not established; the per-entity pattern is assumed but unconfirmed."
  it('marks the S2S APM equivalents as assumed, quoting the interface', () => {
    const apm = entries.filter((e) => e.assumed)
    expect(apm.map((e) => e.id)).toEqual(
      expect.arrayContaining([
        'S2S_APM_STATUS_TRANSACTION_NOT_FOUND',
        'S2S_APM_CAPTURE_TRANSACTION_NOT_FOUND',
        'S2S_APM_VOID_CREDITVOID_PAYMENT_NOT_FOUND',
      ]),
    )
    for (const e of apm) {
      expect(e.api).toBe('s2s-apm')
      expect(md).toContain(e.assumption as string)
      const row = rows.find((r) => r.condition === e.interface_row)
      expect(row, `${e.id} follows a row of the table`).toBeDefined()
      if (row && row.code !== NOT_SHOWN) expect(e.error_code).toBe(Number(row.code))
      if (row && row.message !== NOT_SHOWN) expect(e.error_message).toBe(row.message)
    }
  })

  // Errors: "Transaction and order entities return 101000; payment, schedule and recurring entities keep 100000
  // with their own messages."
  it('follows the per-entity not-found codes', () => {
    for (const e of entries.filter((x) => !x.retired_in)) {
      if (/^(Transaction|Order|Payment) does not exist\.$/.test(e.error_message))
        expect(e.error_code, e.id).toBe(101000)
      if (['Payment not found.', 'Schedule not found', 'Incorrect transaction'].includes(e.error_message))
        expect(e.error_code, e.id).toBe(100000)
    }
  })

  // Versioning 6.7.0: "new 101000 not-found code per entity": the pre-6.7.0 row is kept but never sent.
  it('keeps the pre-6.7.0 row as retired', () => {
    expect(byId('LEGACY_STATUS_INVALID_IDENTIFIER').retired_in).toBe(catalogue.release)
  })

  // 2.5: "the payment is routed only to MIDs with MOTO enabled, otherwise error 204025"
  it('answers 204025 for MOTO on both card APIs', () => {
    expect(entries.filter((e) => e.error_code === 204025).map((e) => e.api)).toEqual(['checkout', 's2s-card'])
  })

  // States and transitions: "The `Refund is not allowed` error is explained by payment status."; "PENDING | VOID |
  // Not allowed | unchanged | Error `Void is not allowed.`"
  it('reproduces the state errors the interface names', () => {
    expect(byId('REFUND_NOT_ALLOWED').error_message).toBe('Refund is not allowed.')
    expect(md).toContain('`Refund is not allowed`')
    expect(byId('S2S_CARD_VOID_NOT_ALLOWED').error_message).toBe('Void is not allowed.')
    expect(md).toContain('Error `Void is not allowed.`')
  })

  it.each([
    'REQUEST_DATA_INVALID',
    'REQUEST_BODY_MALFORMED',
    'REQUEST_BODY_TOO_LARGE',
    'AUTH_HASH_INVALID',
    'TOKEN_MISSING',
  ])('has the sandbox row %s, marked as a sandbox decision', (id) => {
    expect(byId(id).sandbox_decision).toBe(true)
  })

  it('answers a too-large body with HTTP 413 and malformed JSON with HTTP 400', () => {
    expect(byId('REQUEST_BODY_TOO_LARGE').http_code).toBe(413)
    expect(byId('REQUEST_BODY_MALFORMED').http_code).toBe(400)
  })

  // "Error responses carry `http_code`, `error_code` and `error_message`." (Errors); docs/rules.md#errors: "validation
  // failures add `errors: [{error_code, error_message}]`"
  it.each(entries.map((e) => [e.id, e] as const))('%s makes a valid error response', (_, e) => {
    const envelope =
      e.placement === 'errors_item'
        ? {
            ...pick(byId('REQUEST_DATA_INVALID')),
            errors: [{ error_code: e.error_code, error_message: e.error_message }],
          }
        : pick(e)
    expectValid('errors/error-response', envelope)
    expectValid('errors/error-response', { ...envelope, result: 'ERROR' })
  })

  it('refuses an entry that hides a sandbox decision or an assumption', () => {
    const first = { release: catalogue.release, errors: [byId('CHECKOUT_MOTO_NOT_ENABLED')] }
    expectInvalidAt(
      'catalogue/error-catalogue',
      withField(first, 'errors.0.reasoning', undefined),
      'errors[0].reasoning',
    )
    const apm = { release: catalogue.release, errors: [byId('S2S_APM_CAPTURE_TRANSACTION_NOT_FOUND')] }
    expectInvalidAt(
      'catalogue/error-catalogue',
      withField(apm, 'errors.0.assumption', undefined),
      'errors[0].assumption',
    )
    expectInvalidAt(
      'catalogue/error-catalogue',
      withField(apm, 'errors.0.assumption', 'maybe'),
      'errors[0].assumption',
    )
    expectInvalidAt('catalogue/error-catalogue', withField(apm, 'errors.0.api', 'apm'), 'errors[0].api')
    expectInvalidAt('catalogue/error-catalogue', withField(apm, 'errors.0.id', 'lower_case'), 'errors[0].id')
  })
})

const pick = (e: Entry) => ({
  http_code: e.http_code,
  error_code: e.error_code,
  error_message: e.error_message,
})

describe('error response envelope', () => {
  const files = readdirSync(ERRORS_FIXTURES).filter((f) => f.endsWith('.json'))
  const load = (f: string) =>
    JSON.parse(readFileSync(join(ERRORS_FIXTURES, f), 'utf8')) as Record<string, unknown>

  it.each(files)('%s is valid and comes from the catalogue', (file) => {
    const body = load(file)
    expectValid('errors/error-response', body)
    const found = entries.find(
      (e) =>
        (e.placement ?? 'envelope') === 'envelope' &&
        e.http_code === body.http_code &&
        e.error_code === body.error_code &&
        e.error_message === body.error_message,
    )
    expect(
      found,
      `${file}: no catalogue entry with this http_code, error_code and error_message`,
    ).toBeDefined()
    // docs/rules.md#errors: messages in the form "order.amount: This value should be greater than 0."
    for (const item of (body.errors ?? []) as { error_message: string }[]) {
      expect(item.error_message).toMatch(/^[a-z_][a-z0-9_.[\]]*: \S/)
    }
  })

  const ok = { http_code: 400, error_code: 101000, error_message: 'Payment does not exist.' }

  // Errors: "Error responses carry `http_code`, `error_code` and `error_message`."
  it.each(['http_code', 'error_code', 'error_message'])('refuses an error response without %s', (field) => {
    expectInvalidAt('errors/error-response', withField(ok, field, undefined), field)
  })

  // docs/rules.md#errors: "`result` is SUCCESS, DECLINED, REDIRECT ..., ACCEPTED (CREDITVOID) or ERROR": an error is ERROR.
  it('refuses a result other than ERROR and a success HTTP code', () => {
    expectInvalidAt('errors/error-response', { ...ok, result: 'DECLINED' }, 'result')
    expectInvalidAt('errors/error-response', { ...ok, http_code: 200 }, 'http_code')
    expectInvalidAt('errors/error-response', { ...ok, error_code: '101000' }, 'error_code')
    expectInvalidAt('errors/error-response', { ...ok, errors: [] }, 'errors')
    expectInvalidAt('errors/error-response', { ...ok, message: 'x' }, 'message')
  })
})
