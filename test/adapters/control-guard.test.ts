import { readFileSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type RunningSandbox, ServeError, serve } from '../../src/adapters/serve.js'
import { checkControlRequest, type ControlGuardOptions } from '../../src/core/engine/control-guard.js'
import { runTest } from '../../src/conformance/index.js'
import { freePort } from '../../src/conformance/merchant.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import { createControlClient } from '../../src/ui/client.js'
import { DEMO_CONFIG_FILE } from '../../src/adapters/serve/config-file.js'
import { createSandbox } from '../../src/index.js'
import { scratchDir } from '../helpers/scratch.js'

/**
 * Issue 11, point 4: "cross-origin browser requests refused (Origin/Sec-Fetch-Site checks, no
 * simple-request writes), Host header checked against the addresses served, an optional
 * --control-token (header) [...] required when binding beyond loopback". Rows:
 * SANDBOX_CONTROL_CROSS_ORIGIN, SANDBOX_CONTROL_CONTENT_TYPE, SANDBOX_CONTROL_HOST_UNKNOWN,
 * SANDBOX_CONTROL_TOKEN_INVALID (schemas/catalogue/errors.json).
 */
const TOKEN = 'test-control-token-0123456789'

describe('checkControlRequest (pure)', () => {
  const options: ControlGuardOptions = { hosts: ['sandbox.test'] }
  const check = (
    method: string,
    path: string,
    headers: Record<string, string>,
    o: ControlGuardOptions = options,
  ) => checkControlRequest({ method, path, headers }, o)

  it('leaves everything outside /sandbox alone (API calls, hosted pages and their form posts)', () => {
    const form = {
      host: 'evil.test',
      origin: 'https://evil.test',
      'content-type': 'application/x-www-form-urlencoded',
    }
    for (const path of ['/api/v1/session', '/auth/abc', '/acs/x', '/apm/y', '/sandboxes', '/'])
      expect(check('POST', path, form)).toBeUndefined()
  })

  it('refuses a browser request from another origin, or one the browser marks cross-site or same-site', () => {
    const host = { host: 'localhost:8080' }
    expect(check('GET', '/sandbox/payments', { ...host, origin: 'https://evil.test' })).toBe(
      'SANDBOX_CONTROL_CROSS_ORIGIN',
    )
    expect(check('GET', '/sandbox/payments', { ...host, origin: 'null' })).toBe(
      'SANDBOX_CONTROL_CROSS_ORIGIN',
    )
    expect(check('GET', '/sandbox/payments', { ...host, origin: 'http://localhost:9999' })).toBe(
      'SANDBOX_CONTROL_CROSS_ORIGIN',
    )
    expect(check('GET', '/sandbox/payments', { ...host, 'sec-fetch-site': 'cross-site' })).toBe(
      'SANDBOX_CONTROL_CROSS_ORIGIN',
    )
    expect(check('GET', '/sandbox/payments', { ...host, 'sec-fetch-site': 'same-site' })).toBe(
      'SANDBOX_CONTROL_CROSS_ORIGIN',
    )
    // Health too: a page may not even learn that a sandbox runs here.
    expect(check('GET', '/sandbox/health', { ...host, origin: 'https://evil.test' })).toBe(
      'SANDBOX_CONTROL_CROSS_ORIGIN',
    )
    // Same origin, and a configured one, pass.
    expect(check('GET', '/sandbox/payments', { ...host, origin: 'http://localhost:8080' })).toBeUndefined()
    expect(check('GET', '/sandbox/payments', { ...host, 'sec-fetch-site': 'same-origin' })).toBeUndefined()
    expect(
      check(
        'GET',
        '/sandbox/payments',
        { ...host, origin: 'http://app.test:3000' },
        {
          hosts: [],
          origins: ['http://app.test:3000'],
        },
      ),
    ).toBeUndefined()
  })

  it('refuses a change sent with a content type a form can send; JSON and bodiless changes pass', () => {
    const host = { host: '127.0.0.1:8080' }
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ])
      expect(check('POST', '/sandbox/reset', { ...host, 'content-type': type })).toBe(
        'SANDBOX_CONTROL_CONTENT_TYPE',
      )
    expect(check('POST', '/sandbox/reset', { ...host, 'content-type': 'application/json' })).toBeUndefined()
    expect(check('POST', '/sandbox/reset', host)).toBeUndefined()
    expect(check('GET', '/sandbox/payments', { ...host, 'content-type': 'text/plain' })).toBeUndefined()
  })

  it('checks Host against the served names (DNS rebinding), port and case aside; no Host is in-process', () => {
    for (const host of ['localhost:1', '127.0.0.1', '[::1]:8080', 'SANDBOX.test:443', 'sandbox.test.'])
      expect(check('GET', '/sandbox/payments', { host })).toBeUndefined()
    for (const host of ['evil.test:8080', 'localhost.evil.test', '127.0.0.2', '[::2]:80', ''])
      expect(check('GET', '/sandbox/payments', { host })).toBe('SANDBOX_CONTROL_HOST_UNKNOWN')
    expect(check('GET', '/sandbox/payments', {})).toBeUndefined()
    // A readiness probe reaches health by any address.
    expect(check('GET', '/sandbox/health', { host: '10.1.2.3:8080' })).toBeUndefined()
  })

  it('with a token: every control request needs it (header or Bearer); health does not; it admits any Host', () => {
    const o = { hosts: [], token: TOKEN }
    expect(check('GET', '/sandbox/payments', { host: 'localhost' }, o)).toBe('SANDBOX_CONTROL_TOKEN_INVALID')
    expect(
      check('GET', '/sandbox/payments', { host: 'localhost', 'x-sandbox-control-token': 'wrong' }, o),
    ).toBe('SANDBOX_CONTROL_TOKEN_INVALID')
    expect(
      check('GET', '/sandbox/payments', { host: 'localhost', authorization: `Bearer ${TOKEN}x` }, o),
    ).toBe('SANDBOX_CONTROL_TOKEN_INVALID')
    expect(
      check('GET', '/sandbox/payments', { host: 'sandbox:8080', 'x-sandbox-control-token': TOKEN }, o),
    ).toBeUndefined()
    expect(
      check('POST', '/sandbox/reset', { host: 'sandbox:8080', authorization: `bearer ${TOKEN}` }, o),
    ).toBeUndefined()
    expect(check('GET', '/sandbox/health', { host: 'sandbox:8080' }, o)).toBeUndefined()
    // The token does not excuse a cross-origin browser nor a form's content type.
    expect(
      check(
        'POST',
        '/sandbox/reset',
        { host: 'localhost', origin: 'https://evil.test', 'x-sandbox-control-token': TOKEN },
        o,
      ),
    ).toBe('SANDBOX_CONTROL_CROSS_ORIGIN')
  })
})

/** node:http rather than fetch: fetch would not send our own Host and Origin headers as given. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString()
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

describe('the control API guard in a served sandbox (express)', () => {
  const running: RunningSandbox[] = []
  afterEach(async () => {
    for (const s of running.splice(0)) await s.close()
  })
  const start = async (options: Parameters<typeof serve>[0] = {}) => {
    const s = await serve({ port: 0, logger: silentLogger, ...options })
    running.push(s)
    return s
  }
  const seed = (s: RunningSandbox) =>
    s.gateway.ctx.store.put('meta', { id: 'meta', seq: 7, clock_ms: s.gateway.ctx.clock.now() })

  it('a cross-origin text/plain POST /sandbox/reset is refused and the store is intact', async () => {
    const s = await start()
    seed(s)
    const r = await send(`${s.baseUrl}/sandbox/reset`, {
      method: 'POST',
      headers: { origin: 'https://evil.test', 'content-type': 'text/plain' },
      body: '{}',
    })
    expect(r).toEqual({
      status: 403,
      body: {
        http_code: 403,
        error_code: 100000,
        error_message: 'Cross-origin requests to the sandbox control API are refused.',
      },
    })
    // Without Origin (an old browser), the form's content type alone is refused.
    const plain = await send(`${s.baseUrl}/sandbox/reset`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    })
    expect(plain.status).toBe(415)
    expect(plain.body.error_message).toBe('The sandbox control API takes changes as application/json only.')
    expect(s.gateway.ctx.store.get('meta', 'meta')?.seq).toBe(7)
    // The sandbox's own client (JSON, same origin) still resets.
    const ok = await send(`${s.baseUrl}/sandbox/reset`, {
      method: 'POST',
      headers: { origin: s.baseUrl, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(ok.status).toBe(200)
    expect(s.gateway.ctx.store.get('meta', 'meta')?.seq).toBe(0)
  })

  it('a Host naming another server (DNS rebinding) is refused with 421; the served names pass', async () => {
    const s = await start()
    const url = `http://127.0.0.1:${s.port}/sandbox/payments`
    const rebound = await send(url, { headers: { host: `evil.test:${s.port}` } })
    expect(rebound).toEqual({
      status: 421,
      body: {
        http_code: 421,
        error_code: 100000,
        error_message: 'Host is not an address this sandbox serves.',
      },
    })
    for (const host of [`localhost:${s.port}`, `127.0.0.1:${s.port}`])
      expect((await send(url, { headers: { host } })).status).toBe(200)
    const allowed = await start({ allowHosts: ['sandbox.internal'] })
    expect(
      (
        await send(`http://127.0.0.1:${allowed.port}/sandbox/payments`, {
          headers: { host: 'sandbox.internal' },
        })
      ).status,
    ).toBe(200)
    // The API is not the control API: the guard leaves it to the engine.
    const api = await send(`http://127.0.0.1:${s.port}/api/v1/session`, {
      method: 'POST',
      headers: { host: 'evil.test', 'content-type': 'application/json' },
      body: '{}',
    })
    expect(String(api.body.error_message)).not.toMatch(/sandbox control|Host is not/)
  })

  it('with --control-token every control request needs it; health answers without it', async () => {
    const s = await start({ controlToken: TOKEN })
    const url = `${s.baseUrl}/sandbox/payments`
    const missing = await send(url)
    expect(missing).toEqual({
      status: 401,
      body: {
        http_code: 401,
        error_code: 100000,
        error_message: 'The sandbox control token is missing or not valid.',
      },
    })
    expect((await send(url, { headers: { 'x-sandbox-control-token': 'nope-nope-nope-nope' } })).status).toBe(
      401,
    )
    expect((await send(url, { headers: { 'x-sandbox-control-token': TOKEN } })).status).toBe(200)
    expect((await send(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200)
    const health = await send(`${s.baseUrl}/sandbox/health`)
    expect(health.status).toBe(200)
    expect(health.body.status).toBe('ok')
  })

  it('serve refuses to listen beyond loopback without a token, saying how to give one', async () => {
    await expect(serve({ port: 0, host: '0.0.0.0', logger: silentLogger })).rejects.toThrow(ServeError)
    await expect(serve({ port: 0, host: '0.0.0.0', logger: silentLogger })).rejects.toThrow(
      /--control-token TOKEN or PAYSANDBOX_CONTROL_TOKEN/,
    )
    await expect(serve({ port: 0, controlToken: 'short', logger: silentLogger })).rejects.toThrow(
      /at least 16 printable characters/,
    )
    const s = await start({ host: '0.0.0.0', controlToken: TOKEN })
    expect(
      (
        await send(`http://127.0.0.1:${s.port}/sandbox/payments`, {
          headers: { 'x-sandbox-control-token': TOKEN },
        })
      ).status,
    ).toBe(200)
  })
})

describe('the control API guard in-process (msw handlers, sandbox.fetch)', () => {
  it('refuses a cross-origin browser request and a form content type; a plain in-process call passes', async () => {
    const sandbox = await createSandbox({ baseUrl: 'https://gateway.test' })
    try {
      const reset = (headers: Record<string, string>) =>
        sandbox.fetch('https://gateway.test/sandbox/reset', { method: 'POST', headers, body: '{}' })
      expect((await reset({ 'content-type': 'application/json', origin: 'https://evil.test' })).status).toBe(
        403,
      )
      expect((await reset({ 'content-type': 'text/plain' })).status).toBe(415)
      expect((await reset({ 'content-type': 'application/json' })).status).toBe(200)
      expect((await sandbox.fetch('https://gateway.test/sandbox/health')).status).toBe(200)
    } finally {
      await sandbox.close()
    }
  })

  it('a control_token in the config is required in-process too', async () => {
    const sandbox = await createSandbox({
      baseUrl: 'https://gateway.test',
      config: { ...JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')), control_token: TOKEN },
    })
    try {
      expect((await sandbox.fetch('https://gateway.test/sandbox/payments')).status).toBe(401)
      const ok = await sandbox.fetch('https://gateway.test/sandbox/payments', {
        headers: { 'x-sandbox-control-token': TOKEN },
      })
      expect(ok.status).toBe(200)
    } finally {
      await sandbox.close()
    }
  })
})

describe('clients of a sandbox served with --control-token', () => {
  let sandbox: RunningSandbox
  beforeAll(async () => {
    const port = await freePort()
    const config = join(scratchDir('guard-'), 'config.json')
    writeFileSync(
      config,
      JSON.stringify({
        merchants: [
          {
            key: 'gw-merchant',
            password: 'gw-password-0123456789',
            notification_url: `http://127.0.0.1:${port}/callbacks`,
            mids: [{ id: 'm1', payment_mode: 'SMS/DMS' }],
          },
        ],
        clock: { mode: 'virtual' },
      }),
    )
    sandbox = await serve({ port: 0, configFile: config, logger: silentLogger, controlToken: TOKEN })
    kitPort = port
  })
  let kitPort = 0
  afterAll(() => sandbox.close())

  it('the console client sends the token to the control API (and only there)', async () => {
    const seen: Record<string, string | undefined> = {}
    const spy = (input: string, init?: RequestInit) => {
      seen[new URL(input).pathname] = new Headers(init?.headers).get('x-sandbox-control-token') ?? undefined
      return fetch(input, init)
    }
    const client = createControlClient({ baseUrl: sandbox.baseUrl, controlToken: TOKEN, fetch: spy })
    expect((await client.clock()).mode).toBe('virtual')
    expect((await client.payments()).payments).toEqual([])
    await client.send({
      method: 'POST',
      path: '/api/v1/nothing',
      body: '{}',
      content_type: 'application/json',
    } as never)
    expect(seen).toEqual({
      '/sandbox/clock': TOKEN,
      '/sandbox/payments': TOKEN,
      '/api/v1/nothing': undefined,
    })
    const without = createControlClient({ baseUrl: sandbox.baseUrl })
    await expect(without.clock()).rejects.toThrow(/control token is missing or not valid/)
    expect((await without.health()).status).toBe('ok')
  })

  it('the conformance kit in gateway mode acts as the payer with the token, and stops without it', async () => {
    const run = (controlToken?: string) =>
      runTest({
        gateway: {
          url: `http://127.0.0.1:${sandbox.port}`,
          key: 'gw-merchant',
          password: 'gw-password-0123456789',
          ...(controlToken ? { controlToken } : {}),
        },
        // 3DS passed through POST /sandbox/payments/:id/3ds, then the issuer declines.
        names: ['checkout-3ds-then-issuer-decline'],
        port: kitPort,
        reporters: [],
      })
    const ok = await run(TOKEN)
    expect(ok.results.map((r) => [r.slug, r.status])).toEqual([
      ['checkout-3ds-then-issuer-decline', 'passed'],
    ])
    await expect(run()).rejects.toThrow(/control token/)
  })
})
