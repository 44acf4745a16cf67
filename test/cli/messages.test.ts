import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closest } from '../../cli/suggest.js'

/**
 * What the CLI says when it is called wrongly or the merchant does not answer (issue 25, item 10):
 * each through the built binary, as a user meets it.
 */
const root = join(import.meta.dirname, '..', '..')

function cli(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'paysandbox.js'), ...args], {
      cwd: root,
      env: { ...process.env, CI: '1' },
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    child.on('close', (code) => resolve({ code, out, err }))
  })
}

function dir(files: Record<string, unknown>): string {
  const d = mkdtempSync(join(tmpdir(), 'paysandbox-cli-'))
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(d, name), typeof content === 'string' ? content : JSON.stringify(content))
  return d
}

describe('suggestions for a mistyped word', () => {
  it('finds the candidate one or two edits away, a swapped pair counting as one', () => {
    expect(closest('sesion', ['session', 'session-token', 'refund'])).toBe('session')
    expect(closest('versoin', ['help', 'version'])).toBe('version')
    expect(closest('refnud', ['refund', 'recurring'])).toBe('refund')
    expect(closest('xyz', ['session', 'refund'])).toBeUndefined()
    expect(closest('cfg', ['config'])).toBeUndefined()
  })
})

describe('paysandbox: mistakes in the call (exit 2)', () => {
  it('validate with a mistyped kind suggests the kind meant', async () => {
    const r = await cli('validate', 'sesion', join(root, 'examples', 'order.json'))
    expect(r.code).toBe(2)
    expect(r.err).toContain('Unknown kind "sesion". Did you mean "session"?')
    expect(r.out).toBe('')
  })

  it('a mistyped option without a command is named as an unknown argument, not answered with the usage', async () => {
    const r = await cli('--versoin')
    expect(r.code).toBe(2)
    expect(r.err).toBe('Unknown argument: versoin\nDid you mean --version?\nRun with --help for usage.\n')
    const two = await cli('--nope', '-x')
    expect(two.code).toBe(2)
    expect(two.err).toMatch(/^Unknown arguments: nope, x\n/)
  }, 60_000)

  it('scenarios list with a tag no scenario has exits 2, as test does', async () => {
    const r = await cli('scenarios', 'list', '--tag', 'nosuch')
    expect(r.code).toBe(2)
    expect(r.err).toMatch(/no scenario matches the filters \(\d+ loaded\): no scenario has the tag "nosuch"/)
    const typo = await cli('scenarios', 'list', '--tag', 'refnud')
    expect(typo.err).toContain('(did you mean "refund"?)')
    const test = await cli('test', '--tag', 'nosuch')
    expect(test.code).toBe(2)
    // A tag that exists still lists.
    const some = await cli('scenarios', 'list', '--tag', 'refund')
    expect(some.code).toBe(0)
    expect(some.out).toMatch(/\d+ scenarios?\n$/)
  }, 90_000)
})

// docs/conformance.md: the merchant adapter's process.ready_timeout_seconds and timeouts.hook_seconds.
describe('paysandbox test: a merchant that hangs is reported as a time-out naming the wait (exit 3)', () => {
  const scenario = {
    title: 'Start one payment',
    section: 'Events',
    tags: ['t'],
    mode: 'merchant',
    steps: [{ step: 'merchant.start', api: 'checkout', order: { amount: '10.00', currency: 'EUR' } }],
  }
  const adapter = (command: string[], extra: Record<string, unknown> = {}) => ({
    name: 'hanging shop',
    credentials: { merchant_key: 'm', password: 'password-1234' },
    process: { command, port_env: 'PORT', ready_path: '/health', ready_timeout_seconds: 1 },
    base_url: `http://127.0.0.1:$${'{'}port}`,
    start_payment: { method: 'POST', path: '/test/start' },
    notification_path: '/cb',
    ...extra,
  })

  it('at start: a process that never listens', async () => {
    const d = dir({
      'merchant.json': adapter([process.execPath, '-e', 'setInterval(() => {}, 1000)']),
      's.json': scenario,
    })
    const r = await cli('test', '--merchant', join(d, 'merchant.json'), '--scenarios', join(d, 's.json'))
    expect(r.code).toBe(3)
    const said = r.out + r.err
    expect(said).toMatch(
      /the merchant gave no ready answer to GET http:\/\/127\.0\.0\.1:\d+\/health within 1 s of starting \(process\.ready_timeout_seconds; last attempt: ECONNREFUSED\)/,
    )
  }, 90_000)

  it('in a hook: a server that takes the request and never answers', async () => {
    const server = `require('node:http').createServer((req, res) => { if (req.url === '/health') res.end('ok') }).listen(Number(process.env.PORT), '127.0.0.1')`
    const d = dir({
      'merchant.json': {
        ...adapter([process.execPath, '-e', server], { timeouts: { hook_seconds: 1 } }),
        // Time to start on a loaded machine: the wait under test is the hook's.
        process: { command: [process.execPath, '-e', server], port_env: 'PORT', ready_path: '/health' },
      },
      's.json': scenario,
    })
    const r = await cli('test', '--merchant', join(d, 'merchant.json'), '--scenarios', join(d, 's.json'))
    expect(r.code).toBe(3)
    const said = r.out + r.err
    expect(said).toMatch(
      /POST http:\/\/127\.0\.0\.1:\d+\/test\/start: no answer within 1 s \(timeouts\.hook_seconds\)/,
    )
    expect(said).not.toContain('ECONNREFUSED')
  }, 90_000)
})
