import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findKind, PAYLOAD_KINDS } from '../../src/core/validation/index.js'
import { SCHEMAS_DIR } from '../../src/schema-files.js'
import { scratchDir } from '../helpers/scratch.js'

const root = join(import.meta.dirname, '..', '..')
const fixture = (path: string) => join(root, 'fixtures', 'payloads', path)

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'paysandbox.js'), ...args], {
    encoding: 'utf8',
    cwd: root,
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

function tempJson(data: unknown): string {
  const file = join(scratchDir('validate-'), 'payload.json')
  writeFileSync(file, JSON.stringify(data))
  return file
}

describe('payload kinds', () => {
  it('every fixed kind names a schema file that exists', () => {
    for (const kind of PAYLOAD_KINDS.filter((k) => !k.name.startsWith('s2s-'))) {
      const chosen = kind.schemaFor({})
      expect('schema' in chosen, kind.name).toBe(true)
      if ('schema' in chosen) expect(existsSync(join(SCHEMAS_DIR, chosen.schema)), chosen.schema).toBe(true)
    }
  })

  it('chooses the S2S schema by action and explains an unknown one', () => {
    expect(findKind('s2s-card')?.schemaFor({ action: 'GET_TRANS_STATUS_BY_ORDER' })).toEqual({
      schema: 's2s-card/get-trans-status-by-order-request.schema.json',
    })
    expect(findKind('s2s-apm')?.schemaFor({ action: 'DEBIT2VIRTUAL_CALC' })).toEqual({
      schema: 's2s-apm/debit2virtual-calc-request.schema.json',
    })
    expect(findKind('s2s-card')?.schemaFor({ action: 'REFUND' })).toEqual({
      problem: 'action: "REFUND" is not an action of s2s-card.',
    })
    expect(findKind('methods/awcc')?.schemaFor({})).toEqual({ schema: 'methods/awcc.schema.json' })
    expect(findKind('../package')).toBeUndefined()
  })
})

describe('paysandbox validate', () => {
  it('accepts a valid session request (exit 0)', () => {
    const r = cli('validate', 'session', fixture('checkout/session-request.full.json'))
    expect(r.code).toBe(0)
    expect(r.out).toContain('valid session (checkout/session-request.schema.json)')
  })

  it('prints each problem with its field path and interface section (exit 1)', () => {
    const body = JSON.parse(readFileSync(fixture('checkout/session-request.full.json'), 'utf8'))
    body.order.amount = '10,5'
    body.billing_address.country = 'XX'
    const r = cli('validate', 'session', tempJson(body))
    expect(r.code).toBe(1)
    expect(r.out).toMatch(/2 problems/)
    expect(r.out).toMatch(/order\.amount: This value is not valid\. .*\[interface 2\.1\.1\]/)
    expect(r.out).toMatch(
      /billing_address\.country: This value is not a valid country\.\s+\[interface 2\.1\.3\]/,
    )
  })

  it('checks an S2S CARD form by its action, with bracket paths', () => {
    const sale = JSON.parse(readFileSync(fixture('s2s-card/sale-request.basic.json'), 'utf8'))
    expect(cli('validate', 's2s-card', tempJson(sale)).code).toBe(0)
    sale.mpi_data = {
      eci: '5',
      authentication_value: 'x'.repeat(28),
      ds_trans_id: 'nope',
      '3ds_version': '2.1.0',
    }
    const r = cli('validate', 's2s-card', tempJson(sale))
    expect(r.code).toBe(1)
    expect(r.out).toContain('mpi_data[eci]: This value should have exactly 2 characters.  [interface 2.4]')
    expect(r.out).toContain('mpi_data[ds_trans_id]: This is not a valid UUID.')
  })

  it('reports JSON output for tools', () => {
    const r = cli(
      'validate',
      'status',
      '--json',
      tempJson({ merchant_key: 'k', hash: 'h', order_id: 'o', size: 101 }),
    )
    expect(r.code).toBe(1)
    const out = JSON.parse(r.out)
    expect(out.valid).toBe(false)
    expect(out.errors).toContainEqual(
      expect.objectContaining({ path: 'size', message: 'size should be within 1..100' }),
    )
  })

  // README "exit codes": 2 is a usage error, "unknown command or kind, a file that cannot be read or is not JSON".
  it('treats a file that is not JSON as a usage error (exit 2), saying so', () => {
    const file = join(scratchDir('validate-'), 'bad.json')
    writeFileSync(file, '{"order": ')
    const r = cli('validate', 'session', file)
    expect(r.code).toBe(2)
    expect(r.out).toContain('not valid JSON')
  })

  it('reads the payload from standard input with -', () => {
    const body = readFileSync(fixture('checkout/session-request.full.json'), 'utf8')
    const r = spawnSync(process.execPath, [join(root, 'bin', 'paysandbox.js'), 'validate', 'session', '-'], {
      encoding: 'utf8',
      input: body,
    })
    expect(r.stdout).toContain('-: valid session (checkout/session-request.schema.json)')
    expect(r.status).toBe(0)
    const bad = spawnSync(
      process.execPath,
      [join(root, 'bin', 'paysandbox.js'), 'validate', 'session', '-'],
      {
        encoding: 'utf8',
        input: '{}',
      },
    )
    expect(bad.stdout).toContain('merchant_key: This value should not be blank.')
    expect(bad.status).toBe(1)
  })

  it('exits 2 on usage errors: unknown kind, missing file, missing arguments', () => {
    expect(cli('validate', 'nonsense', fixture('checkout/session-request.full.json')).code).toBe(2)
    const missing = cli('validate', 'session', '/nonexistent/file.json')
    expect(missing.code).toBe(2)
    expect(missing.err).toContain('Cannot read /nonexistent/file.json: ENOENT')
    expect(cli('validate').code).toBe(2)
    expect(cli('no-such-command').code).toBe(2)
  })

  it('documents kinds and exit codes in --help', () => {
    const r = cli('validate', '--help')
    expect(r.code).toBe(0)
    expect(r.out).toContain(
      'Exit codes: 0 valid, 1 invalid, 2 usage (unknown kind, file unreadable or not JSON).',
    )
    expect(r.out).toContain('s2s-card')
  })
})
