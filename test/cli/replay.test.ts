import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import qs from 'qs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/core/ports/logger.js'
import { s2sCardSignatures } from '../../src/core/signatures/index.js'
import { validate } from '../../src/core/validation/index.js'
import { createSandbox, type Sandbox } from '../../src/library/create-sandbox.js'
import type { Listening } from '../../src/library/listen.js'

/**
 * `paysandbox replay` and `paysandbox scenario export` as a support engineer runs them (the built
 * CLI, bin/paysandbox.js): exit codes 0 / 1 / 2 / 3 (cli/exit-codes.ts), the JSON report, the
 * exported scenario, and errors that name the file and change nothing.
 */

const root = join(import.meta.dirname, '..', '..')
const fixtures = join(root, 'fixtures', 'replay')
const CONFIG = join(fixtures, 'shop-config.json')
const dir = mkdtempSync(join(tmpdir(), 'paysandbox-replay-cli-'))

/** The CLI, asynchronously (a sandbox in this process answers it). */
function cli(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'paysandbox.js'), ...args], { cwd: root })
    let out = ''
    let err = ''
    child.stdout.on('data', (c) => {
      out += c
    })
    child.stderr.on('data', (c) => {
      err += c
    })
    child.on('close', (code) => resolve({ code, out, err }))
  })
}

let sandbox: Sandbox
let listening: Listening
beforeAll(async () => {
  sandbox = await createSandbox({ config: CONFIG, logger: silentLogger, seed: 'cli-export' })
  listening = await sandbox.listen()
  const sale = {
    action: 'SALE',
    client_key: 'shop-key',
    order_id: 'cli-4001',
    order_amount: '12.00',
    order_currency: 'EUR',
    order_description: 'A pen',
    card_number: '4111111111111111',
    card_exp_month: '01',
    card_exp_year: '2030',
    card_cvv2: '123',
    payer_first_name: 'Jane',
    payer_last_name: 'Payer',
    payer_email: 'jane@example.com',
    payer_phone: '5551234567',
    payer_ip: '203.0.113.10',
    term_url_3ds: 'https://shop.example/3ds',
    hash: s2sCardSignatures.payment('jane@example.com', 'shop-password-0123456789abcdef', {
      cardNumber: '4111111111111111',
    }),
  }
  const answer = await fetch(`${listening.url}/post`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: qs.stringify(sale),
  })
  expect(answer.status).toBe(200)
  await sandbox.idle()
})

afterAll(async () => {
  await sandbox?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('paysandbox replay', () => {
  it('exits 0 with 0 differences and prints {"steps": [...], "differences": N} with --json', async () => {
    const r = await cli('replay', join(fixtures, 'checkout-s2s.har'), '--config', CONFIG, '--json')
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    const report = JSON.parse(r.out) as { steps: unknown[]; differences: number }
    expect(report.differences).toBe(0)
    expect(report.steps).toHaveLength(19)
  })

  it('exits 1 when an answer differs, and names that step', async () => {
    const har = JSON.parse(readFileSync(join(fixtures, 'checkout-s2s.har'), 'utf8'))
    const entry = har.log.entries.find((e: { request: { url: string } }) =>
      e.request.url.endsWith('/payment/refund'),
    )
    entry.response.content.text = entry.response.content.text.replace('"accepted"', '"declined"')
    const file = join(dir, 'changed.har')
    writeFileSync(file, JSON.stringify(har))
    const r = await cli('replay', file, '--config', CONFIG)
    expect(r.code).toBe(1)
    expect(r.out).toMatch(/\$\.result: recorded "declined", sandbox "accepted"/)
    expect(r.out).toMatch(/1 difference in 1 step \(step 11, entry 11\)\.\n$/)
  })

  it('exits 2 on a file that is not a capture, names it, and writes nothing', async () => {
    const file = join(dir, 'notes.txt')
    writeFileSync(file, 'the customer says it failed\n')
    const out = join(dir, 'never.json')
    const r = await cli('replay', file, '--config', CONFIG, '--export', out)
    expect(r.code).toBe(2)
    expect(r.err).toContain(`${file}: not JSON (a HAR 1.2 file or a JSON-lines log expected)`)
    expect(existsSync(out)).toBe(false)
  })

  it('--export writes the replayed order as a scenario that validates', async () => {
    const out = join(dir, 'from-log.json')
    const r = await cli('replay', join(fixtures, 'shop-client.jsonl'), '--config', CONFIG, '--export', out)
    expect(r.code).toBe(0)
    expect(r.err).toContain(`wrote ${out}: order jsonl-3001 as a scenario`)
    const scenario = JSON.parse(readFileSync(out, 'utf8'))
    expect(validate('sandbox/scenario', scenario).valid).toBe(true)
    expect(scenario.steps[0]).toMatchObject({
      step: 'merchant.start',
      api: 's2s-card',
      order: { amount: '18.50' },
    })
  })
})

describe('paysandbox scenario export', () => {
  it('writes an order a running sandbox observed as a scenario', async () => {
    const out = join(dir, 'cli-4001.json')
    const r = await cli('scenario', 'export', '--url', listening.url, '--order', 'cli-4001', '--out', out)
    expect(r.code).toBe(0)
    expect(r.err).toContain(`wrote ${out}: order cli-4001`)
    const scenario = JSON.parse(readFileSync(out, 'utf8'))
    expect(validate('sandbox/scenario', scenario).valid).toBe(true)
    expect(JSON.stringify(scenario)).not.toContain('4111111111111111')
  })

  it('exits 2 for an order the sandbox never saw, 3 when the sandbox is not there', async () => {
    const unknown = await cli('scenario', 'export', '--url', listening.url, '--order', 'nobody-1')
    expect(unknown.code).toBe(2)
    expect(unknown.err).toContain('order nobody-1: ')
    expect(unknown.err).toContain('answered HTTP 404: Order not found.')
    const away = await cli('scenario', 'export', '--url', 'http://127.0.0.1:27999', '--order', 'cli-4001')
    expect(away.code).toBe(3)
    expect(away.err).toContain('http://127.0.0.1:27999 is not answering (ECONNREFUSED)')
  })
})
