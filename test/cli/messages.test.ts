import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closest } from '../../cli/suggest.js'
import { jsonSyntaxError } from '../../src/core/validation/json-syntax.js'
import { propertyNamesAt } from '../../src/core/validation/property-names.js'
import { scratchDir } from '../helpers/scratch.js'

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
  const d = scratchDir('paysandbox-cli-')
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
  })

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

// Issue 33 item 4: "did you mean" for a misspelt config key and CLI flag; JSON errors with line and column.
describe('paysandbox: misspelt flags and config keys, JSON syntax errors', () => {
  it('a misspelt flag of a command names the flag meant', async () => {
    const one = await cli('test', '--merchnat', 'x')
    expect(one.code).toBe(2)
    expect(one.err).toBe('Unknown argument: merchnat\nDid you mean --merchant?\nRun with --help for usage.\n')
    const two = await cli('test', '--step-timout', '3', '--gatway', 'http://x')
    expect(two.err).toBe(
      'Unknown arguments: step-timout, gatway\n--step-timout: did you mean --step-timeout?\n--gatway: did you mean --gateway?\nRun with --help for usage.\n',
    )
    const far = await cli('serve', '--zzzzzz')
    expect(far.err).toBe('Unknown argument: zzzzzz\nRun with --help for usage.\n')
  })

  it('a misspelt config key names the key meant, from the schema at that place; a JSON error its line and column', async () => {
    const d = dir({
      'typo.json': {
        merchants: [
          {
            key: 'shop',
            password: 'shop-password-0123456789',
            notification_ur: 'http://localhost:3000/cb',
            mids: [{ id: 'm1', payment_mode: 'SMS/DMS', motto: true }],
          },
        ],
        clok: { mode: 'virtual' },
      },
      'syntax.json': '{\n  "merchants": []\n  "clock": {}\n}\n',
    })
    const typo = await cli('serve', '--config', join(d, 'typo.json'), '--port', '0')
    expect(typo.code).toBe(2)
    expect(typo.err).toContain('clok: This field was not expected. Did you mean "clock"?')
    expect(typo.err).toContain(
      'merchants[0].notification_ur: This field was not expected. Did you mean "notification_url"?',
    )
    expect(typo.err).toContain(
      'merchants[0].mids[0].motto: This field was not expected. Did you mean "moto"?',
    )
    const syntax = await cli('serve', '--config', join(d, 'syntax.json'), '--port', '0')
    expect(syntax.code).toBe(2)
    expect(syntax.err).toContain(
      `not valid JSON at line 3, column 3: expected ',' or '}' after a property value, found '"' (a comma missing before it?)`,
    )
    expect(syntax.err).not.toContain('position')
  })

  it('locates JSON errors V8 gives no position for, and reads the names a schema allows at a path', () => {
    expect(jsonSyntaxError('{"a": 1}')).toBeUndefined()
    expect(jsonSyntaxError('{\n  "a": }')).toEqual({ line: 2, column: 8, reason: "unexpected '}'" })
    expect(jsonSyntaxError('[1,]')).toMatchObject({
      line: 1,
      column: 4,
      reason: expect.stringContaining('trailing comma'),
    })
    expect(jsonSyntaxError("{'a': 1}")?.reason).toContain('single quote (JSON takes double quotes)')
    expect(propertyNamesAt('sandbox/config.schema.json', 'merchants[0]')).toContain('notification_url')
    expect(propertyNamesAt('sandbox/config.schema.json', '')).toContain('clock')
  })
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
