import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkDataFile, choosePort } from '../../cli/commands/serve.js'
import { UsageError } from '../../cli/exit-codes.js'
import { freePort } from '../../src/conformance/merchant.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { scratchDir } from '../helpers/scratch.js'

const root = join(import.meta.dirname, '..', '..')
const PASSWORD = 'demo-password-0123456789abcdef'
const children: ChildProcess[] = []

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.pid) child.kill('SIGKILL')
})

interface Served {
  child: ChildProcess
  base: string
  out: () => string
  err: () => string
  /** SIGTERM (or the signal given) to the process started, then its exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

/** Starts `paysandbox serve` (or `npm start`) and waits for the banner's last line. */
function start(args: string[], env: Record<string, string> = {}, npm = false): Promise<Served> {
  const child = npm
    ? spawn('npm', ['start', '--silent', '--', ...args], {
        cwd: root,
        env: { ...process.env, ...env },
        detached: true,
      })
    : spawn(process.execPath, [join(root, 'bin', 'paysandbox.js'), 'serve', ...args], {
        cwd: root,
        env: { ...process.env, ...env },
      })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout?.on('data', (c) => {
    out += c
  })
  child.stderr?.on('data', (c) => {
    err += c
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in 20 s:\n${out}\n${err}`)), 20_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`exited ${code} before ready:\n${out}\n${err}`))
    })
    child.stdout?.on('data', () => {
      const base = /listening on (http:\/\/\S+)/.exec(out)?.[1]
      if (!base || !out.includes('Ready.')) return
      clearTimeout(timer)
      resolve({
        child,
        base,
        out: () => out,
        err: () => err,
        // To npm itself, not its process group: npm passes the signal on to what it runs.
        stop: (signal = 'SIGTERM') => {
          child.kill(signal)
          return exited
        },
      })
    })
  })
}

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  return { status: r.status, body: (await r.json()) as Record<string, string> }
}

function tempConfig(data: unknown): string {
  const file = join(scratchDir('serve-cli-'), 'sandbox.json')
  writeFileSync(file, JSON.stringify(data))
  return file
}

describe('paysandbox serve', () => {
  // docs/rules.md#control-api: "Ready when `GET /sandbox/health` answers 200."
  it('prints the banner, answers health, and stops cleanly on SIGTERM (exit 0)', async () => {
    const s = await start(['--port', '0'])
    expect(s.base).toMatch(/^http:\/\/localhost:\d+$/)
    const health = await fetch(`${s.base}/sandbox/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ status: 'ok', clock: 'system' })
    const banner = s.out()
    expect(banner).toContain(`Checkout API  ${s.base}/api/v1/...`)
    expect(banner).toContain(`Hosted pages  ${s.base}/auth/<session token>`)
    expect(banner).toContain(`Control API   ${s.base}/sandbox/health`)
    expect(banner).toContain('merchant_key      demo-merchant')
    expect(banner).toContain(`password          ${PASSWORD}  (documented demo credential)`)
    expect(banner).toContain('in memory only')
    expect(await s.stop()).toBe(0)
    expect(s.err()).toContain('SIGTERM, stopping')
  })

  // docs/rules.md#start: "`npm start` serves on port 8080 (`PORT` overrides it)"
  // bin/paysandbox.js runs the build's bundle (dist/cli/bundle): the pages' scripts are served
  // from src/pages as written, not from beside the bundle's chunks.
  it('serves the hosted pages and their client scripts from the bundled CLI', async () => {
    const s = await start(['--port', '0'])
    for (const path of ['/assets/hosted.js', '/assets/hpf.js', '/assets/apm.js', '/sdk/hosted-fields.js']) {
      const answer = await fetch(`${s.base}${path}`)
      expect(answer.status, path).toBe(200)
      expect(answer.headers.get('content-type'), path).toContain('javascript')
      expect((await answer.text()).length, path).toBeGreaterThan(500)
    }
    const terms = await fetch(`${s.base}/terms`)
    expect(terms.status).toBe(200)
    expect(await terms.text()).toContain('<html')
    expect(await s.stop()).toBe(0)
  })

  it('takes its port from PORT when --port is not given', async () => {
    const port = await freePort()
    const s = await start([], { PORT: String(port) })
    expect(s.base).toBe(`http://localhost:${port}`)
    expect((await fetch(`${s.base}/sandbox/health`)).status).toBe(200)
    expect(await s.stop()).toBe(0)
  })

  it('keeps payments in the --data file across a restart', async () => {
    const data = join(scratchDir('serve-data-'), 'nested', 'sandbox-data.json')
    mkdirSync(join(data, '..'))
    const first = await start(['--port', '0', '--data', data])
    expect(first.out()).toContain(`${data} (kept across restarts)`)
    const order = { number: 'keep-1', amount: '12.50', currency: 'EUR', description: 'Kept' }
    const session = await post(`${first.base}/api/v1/session/token`, {
      merchant_key: 'demo-merchant',
      operation: 'purchase',
      methods: ['card'],
      order,
      success_url: 'https://merchant.example/success',
      // docs/rules.md#hosted-payment-fields: the session-token request requires return_url.
      return_url: 'https://merchant.example/return',
      hash: checkoutSignatures.session(order, PASSWORD),
    })
    const paid = await post(
      `${first.base}/api/v1/processing/purchase/card`,
      { card_number: '4111111111111111', card_exp_month: '01', card_exp_year: '2030', card_cvv2: '123' },
      { token: session.body.token as string },
    )
    expect(paid.status).toBe(200)
    const id = paid.body.payment_id as string
    expect(await first.stop()).toBe(0)

    const second = await start(['--port', '0', '--data', data])
    const status = await post(`${second.base}/api/v1/payment/status`, {
      merchant_key: 'demo-merchant',
      payment_id: id,
      hash: checkoutSignatures.paymentOperation(id, PASSWORD),
    })
    expect(status).toMatchObject({ status: 200, body: { payment_id: id, status: 'settled', order } })
    expect(await second.stop()).toBe(0)
  })

  it('prints a configuration file merchant without its password', async () => {
    const file = tempConfig({
      merchants: [
        {
          key: 'shop-7',
          password: 'shop-7-secret',
          notification_url: 'http://localhost:3000/cb',
          mids: [{ id: 'm7', payment_mode: 'DMS', moto: true }],
        },
      ],
    })
    const s = await start(['--port', '0', '--config', file])
    expect(s.out()).toContain(`Merchants (from ${file}; passwords not shown):`)
    expect(s.out()).toContain('MID m7            DMS, MOTO')
    expect(s.out()).not.toContain('shop-7-secret')
    expect(await s.stop()).toBe(0)
  })

  // cli/exit-codes.ts: "2: usage or configuration error"
  it('exits 2 naming the file and the field of a bad --config', () => {
    const file = tempConfig({
      merchants: [{ key: 'k', password: 'short', notification_url: 'http://x.test/cb', mids: [{ id: 'm' }] }],
    })
    const r = spawnSync(
      process.execPath,
      [join(root, 'bin', 'paysandbox.js'), 'serve', '--port', '0', '--config', file],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 20_000,
      },
    )
    expect(r.status).toBe(2)
    expect(r.stderr).toContain(`config file ${file}: merchants[0].password: This value is too short.`)
    expect(r.stdout).toBe('')
  })

  it('exits 2 on an invalid PORT and on a port already in use', async () => {
    const cli = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [join(root, 'bin', 'paysandbox.js'), 'serve', ...args], {
        cwd: root,
        encoding: 'utf8',
        timeout: 20_000,
        env: { ...process.env, ...env },
      })
    const bad = cli([], { PORT: 'eighty' })
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain('PORT must be a whole number from 0 to 65535, got "eighty"')
    const s = await start(['--port', '0'])
    const port = new URL(s.base).port
    const taken = cli(['--port', port])
    expect(taken.status).toBe(2)
    expect(taken.stderr).toContain(`port ${port} is already in use`)
    await s.stop()
  })

  // docs/rules.md#start: "`npm start -- --port N --config FILE` ... do the same with options"; README
  // "exit codes": SIGINT or SIGTERM stops the server, exit 0. A CI step that kills `npm start`
  // must find the port free afterwards.
  it('runs through npm start, and SIGTERM to npm stops the server with exit 0', async () => {
    const s = await start(['--port', '0'], {}, true)
    expect((await fetch(`${s.base}/sandbox/health`)).status).toBe(200)
    expect(await s.stop()).toBe(0)
    await expect(fetch(`${s.base}/sandbox/health`)).rejects.toThrow()
  })

  it('stops on SIGINT (Ctrl-C) with exit 0, and the port is free again', async () => {
    const s = await start(['--port', '0'])
    expect(await s.stop('SIGINT')).toBe(0)
    expect(s.err()).toContain('SIGINT, stopping')
    await expect(fetch(`${s.base}/sandbox/health`)).rejects.toThrow()
  })
})

// In-process: the option checks themselves (the process boundary is tested above).
describe('serve options', () => {
  // docs/rules.md#start: "`--port` overrides both"; README exit code 2 for a bad option value.
  it('takes a whole port from 0 to 65535 and refuses anything else as a usage error', () => {
    expect(choosePort('0', undefined)).toBe(0)
    expect(choosePort('9000', '8000')).toBe(9000)
    expect(choosePort(undefined, '8000')).toBe(8000)
    expect(choosePort(undefined, undefined)).toBe(8080)
    for (const bad of ['abc', '', '-1', '65536', '80.5', '1e3'])
      expect(() => choosePort(bad, undefined), bad).toThrow(UsageError)
    expect(() => choosePort('abc', undefined)).toThrow(
      '--port must be a whole number from 0 to 65535, got "abc"',
    )
  })

  // (sandbox) README "Run the sandbox": the data file is created, its directory is not.
  it('refuses a --data file whose directory does not exist, or that is a directory', () => {
    const dir = scratchDir('serve-data-')
    expect(() => checkDataFile(join(dir, 'data.json'))).not.toThrow()
    expect(() => checkDataFile(join(dir, 'missing', 'x.json'))).toThrow(
      `the directory ${join(dir, 'missing')} does not exist (create it first: mkdir -p ${join(dir, 'missing')})`,
    )
    expect(() => checkDataFile(dir)).toThrow('is a directory')
    expect(() => checkDataFile('')).toThrow(UsageError)
  })

  it('exits 2 on --port abc and on a --data directory that does not exist, naming the problem', () => {
    const cli = (args: string[]) =>
      spawnSync(process.execPath, [join(root, 'bin', 'paysandbox.js'), 'serve', ...args], {
        cwd: root,
        encoding: 'utf8',
        timeout: 20_000,
      })
    const port = cli(['--port', 'abc'])
    expect(port.status).toBe(2)
    expect(port.stderr).toContain('--port must be a whole number from 0 to 65535, got "abc"')
    const data = cli(['--port', '0', '--data', '/missing/dir/x.json'])
    expect(data.status).toBe(2)
    expect(data.stderr).toContain('--data /missing/dir/x.json: the directory /missing/dir does not exist')
  })
})
