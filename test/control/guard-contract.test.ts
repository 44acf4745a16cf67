import { readFileSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_CONFIG_FILE } from '../../src/adapters/serve/config-file.js'
import { type RunningSandbox, serve } from '../../src/adapters/serve.js'
import type { SandboxConfig } from '../../src/core/engine/context.js'
import { errorEntry } from '../../src/core/engine/errors.js'
import type { Gateway } from '../../src/core/engine/gateway.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import { createSandbox, type Sandbox } from '../../src/library/create-sandbox.js'
import { scratchDir } from '../helpers/scratch.js'

/**
 * Issue 21, requirement 3: one guard for every spelling. The control guard (core/engine/control-guard.ts)
 * runs inside gateway.handle on the normalised path (core/engine/path.ts), so each of its cases
 * (issue 11 point 4: cross-origin browser, foreign Host, missing or wrong control token, form and
 * text bodies) refuses every spelling of every control path, through every adapter: express over
 * HTTP (`serve`), `serve --base-path /payment`, `sandbox.listen` and the in-process
 * `sandbox.fetch`. A spelling with an encoded slash is refused as a whole (400
 * REQUEST_PATH_INVALID). A refused request changes nothing: the store and the clock are compared
 * before and after every request.
 */
const TOKEN = 'guard-contract-token-0123456789'
const PAYMENT_ID = '00000000-0000-4000-8000-0000000000aa'

interface ControlPath {
  method: 'GET' | 'POST'
  path: string
  body?: string
}

/** The control paths of the issue: reset, merchants (POST), clock, clock/advance, merchant-request. */
const PATHS: ControlPath[] = [
  { method: 'POST', path: '/sandbox/reset', body: '{}' },
  {
    method: 'POST',
    path: '/sandbox/merchants',
    // A valid merchant: let through, it would be created.
    body: JSON.stringify({
      key: 'evil-merchant',
      password: 'evil-password-0123456789',
      mids: [{ id: 'm1', payment_mode: 'SMS/DMS' }],
    }),
  },
  { method: 'GET', path: '/sandbox/clock' },
  { method: 'POST', path: '/sandbox/clock/advance', body: '{"seconds":86400}' },
  {
    method: 'POST',
    path: `/sandbox/payments/${PAYMENT_ID}/merchant-request`,
    body: '{"action":"refund"}',
  },
]

/** Every spelling of `path` a client, a proxy or an attacker might send; `invalid` ones are refused whole. */
function spellings(path: string): { name: string; path: string; invalid?: boolean }[] {
  const rest = path.slice(1)
  const [first, ...others] = rest.split('/') as [string, ...string[]]
  return [
    { name: 'as is', path },
    { name: 'leading //', path: `/${path}` },
    { name: 'leading /./', path: `/.${path}` },
    { name: 'leading /x/../', path: `/x/..${path}` },
    { name: 'inner //', path: `/${first}//${others.join('//')}` },
    { name: 'trailing /', path: `${path}/` },
    { name: 'encoded dot /%2e/', path: `/%2e${path}` },
    { name: 'encoded /x/%2e%2e/', path: `/x/%2e%2E${path}` },
    { name: 'encoded letter', path: path.replace('sandbox', '%73andbox') },
    { name: 'leading /%2F', path: `/%2F${rest}`, invalid: true },
    { name: 'inner %2f', path: `/${first}%2f${others.join('/')}`, invalid: true },
    { name: 'inner %5C', path: `/${first}%5C${others.join('/')}`, invalid: true },
  ]
}

interface GuardCase {
  name: string
  row: string
  headers: Record<string, string>
  /** The content-type cases concern changes only (a GET with any content type is a read). */
  changesOnly?: boolean
}

/** Without a control token configured. */
const OPEN_CASES: GuardCase[] = [
  {
    name: 'cross-origin Origin',
    row: 'SANDBOX_CONTROL_CROSS_ORIGIN',
    headers: { origin: 'http://evil.example' },
  },
  {
    name: 'Sec-Fetch-Site cross-site',
    row: 'SANDBOX_CONTROL_CROSS_ORIGIN',
    headers: { 'sec-fetch-site': 'cross-site' },
  },
  { name: 'foreign Host', row: 'SANDBOX_CONTROL_HOST_UNKNOWN', headers: { host: 'evil.example' } },
  {
    name: 'form body',
    row: 'SANDBOX_CONTROL_CONTENT_TYPE',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    changesOnly: true,
  },
  {
    name: 'text/plain body',
    row: 'SANDBOX_CONTROL_CONTENT_TYPE',
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    changesOnly: true,
  },
]

/** With a control token configured. */
const TOKEN_CASES: GuardCase[] = [
  { name: 'no token', row: 'SANDBOX_CONTROL_TOKEN_INVALID', headers: {} },
  {
    name: 'wrong token',
    row: 'SANDBOX_CONTROL_TOKEN_INVALID',
    headers: { 'x-sandbox-control-token': 'wrong-token-0123456789abcdef' },
  },
  {
    name: 'wrong Bearer',
    row: 'SANDBOX_CONTROL_TOKEN_INVALID',
    headers: { authorization: `Bearer ${TOKEN}x` },
  },
  {
    name: 'foreign Host, no token',
    row: 'SANDBOX_CONTROL_TOKEN_INVALID',
    headers: { host: 'evil.example' },
  },
  {
    name: 'cross-origin with the token',
    row: 'SANDBOX_CONTROL_CROSS_ORIGIN',
    headers: { origin: 'http://evil.example', 'x-sandbox-control-token': TOKEN },
  },
]

interface Answer {
  status: number
  body: unknown
}

/** One way in: a prefix for the path and a function sending the request. */
interface Transport {
  name: string
  gateway: Gateway
  prefix: string
  send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer>
  close(): Promise<void>
}

const rowBody = (id: string) => {
  const e = errorEntry(id)
  return { http_code: e.http_code, error_code: e.error_code, error_message: e.error_message }
}

/** node:http: sends the path and the Host exactly as given (fetch would resolve dot segments). */
function sendHttp(port: number) {
  return (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: { 'content-type': 'application/json', ...headers },
        },
        (res) => {
          let text = ''
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString()
          })
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }))
        },
      )
      req.on('error', reject)
      req.end(body)
    })
}

function sendFetch(sandbox: Sandbox, origin: string) {
  return async (method: string, path: string, headers: Record<string, string>, body?: string) => {
    const response = await sandbox.fetch(`${origin}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body !== undefined ? { body } : {}),
    })
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : null }
  }
}

function configFile(token?: string): { file: string; config: SandboxConfig } {
  const config = {
    ...(JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as SandboxConfig),
    clock: { mode: 'virtual' as const, start: '2026-11-02T10:00:00Z' },
    ...(token ? { control_token: token } : {}),
  } as SandboxConfig
  const file = join(scratchDir('guard-contract-'), 'config.json')
  writeFileSync(file, JSON.stringify(config))
  return { file, config }
}

async function servedTransport(
  name: string,
  token: string | undefined,
  basePath?: string,
): Promise<Transport> {
  const running: RunningSandbox = await serve({
    port: 0,
    logger: silentLogger,
    configFile: configFile(token).file,
    ...(basePath ? { basePath } : {}),
  })
  return {
    name,
    gateway: running.gateway,
    prefix: basePath ?? '',
    send: sendHttp(running.port),
    close: () => running.close(),
  }
}

async function listenTransport(token: string | undefined): Promise<Transport> {
  const sandbox = await createSandbox({ config: configFile(token).config, logger: silentLogger })
  const listening = await sandbox.listen()
  return {
    name: 'sandbox.listen',
    gateway: sandbox.gateway,
    prefix: '',
    send: sendHttp(listening.port),
    close: () => sandbox.close(),
  }
}

async function fetchTransport(token: string | undefined): Promise<Transport> {
  const sandbox = await createSandbox({
    config: configFile(token).config,
    baseUrl: 'http://gw.test',
    logger: silentLogger,
  })
  return {
    name: 'sandbox.fetch',
    gateway: sandbox.gateway,
    prefix: '',
    send: sendFetch(sandbox, 'http://gw.test'),
    close: () => sandbox.close(),
  }
}

/** What a control request could change: every collection's size, the meta record, the clock. */
function fingerprint(gateway: Gateway): string {
  const { store, clock } = gateway.ctx
  return JSON.stringify({
    meta: store.get('meta', 'meta'),
    merchants: store.list('merchants').length,
    payments: store.count('payments'),
    sessions: store.count('sessions'),
    now: clock.now(),
  })
}

const seed = (gateway: Gateway) =>
  gateway.ctx.store.put('meta', { id: 'meta', seq: 7, clock_ms: gateway.ctx.clock.now() })

/** Runs every case × path × spelling on `transport`; returns what did not answer as the contract says. */
async function runContract(transport: Transport, cases: GuardCase[]): Promise<string[]> {
  seed(transport.gateway)
  const misses: string[] = []
  let sent = 0
  for (const control of PATHS)
    for (const spelling of spellings(control.path))
      for (const c of cases) {
        if (c.changesOnly && control.method === 'GET') continue
        const before = fingerprint(transport.gateway)
        const answer = await transport.send(
          control.method,
          transport.prefix + spelling.path,
          c.headers,
          control.body,
        )
        sent++
        const row = spelling.invalid ? 'REQUEST_PATH_INVALID' : c.row
        const expected = { status: errorEntry(row).http_code, body: rowBody(row) }
        const where = `${transport.name}: ${c.name}, ${control.method} ${transport.prefix}${spelling.path} (${spelling.name})`
        if (JSON.stringify(answer) !== JSON.stringify(expected))
          misses.push(`${where}: answered ${JSON.stringify(answer)}, expected ${row}`)
        if (fingerprint(transport.gateway) !== before) misses.push(`${where}: changed the state`)
      }
  // The loops above did run (a contract over nothing would pass).
  expect(sent).toBeGreaterThan(PATHS.length * cases.length * 4)
  return misses
}

/** Every spelling that is not refused whole reaches the route: GET of each answers 200. */
async function servesEverySpelling(transport: Transport, headers: Record<string, string>): Promise<string[]> {
  const misses: string[] = []
  for (const spelling of spellings('/sandbox/clock')) {
    if (spelling.invalid) continue
    const answer = await transport.send('GET', transport.prefix + spelling.path, headers)
    if (answer.status !== 200 || (answer.body as { mode?: unknown })?.mode !== 'virtual')
      misses.push(`${transport.name}: GET ${spelling.path} answered ${JSON.stringify(answer)}`)
  }
  return misses
}

const TRANSPORTS: [string, (token?: string) => Promise<Transport>][] = [
  ['express over HTTP (serve)', (token) => servedTransport('serve', token)],
  ['serve --base-path /payment', (token) => servedTransport('serve --base-path', token, '/payment')],
  ['sandbox.listen', (token) => listenTransport(token)],
  ['in-process sandbox.fetch', (token) => fetchTransport(token)],
]

describe.each(TRANSPORTS)('the control guard over %s', (_name, start) => {
  let open: Transport
  let guarded: Transport
  beforeAll(async () => {
    open = await start()
    guarded = await start(TOKEN)
  })
  afterAll(async () => {
    await open?.close()
    await guarded?.close()
  })

  it('refuses cross-origin, foreign-Host, form and text requests on every spelling, changing nothing', async () => {
    expect(await runContract(open, OPEN_CASES)).toEqual([])
  })

  it('with a control token, refuses a missing or wrong token on every spelling, changing nothing', async () => {
    expect(await runContract(guarded, TOKEN_CASES)).toEqual([])
  })

  it('serves every spelling that is not refused to a same-origin caller (with the token when one is set)', async () => {
    expect(await servesEverySpelling(open, {})).toEqual([])
    expect(await servesEverySpelling(guarded, { 'x-sandbox-control-token': TOKEN })).toEqual([])
    // And a change through an odd spelling is made: the guard let it through on purpose.
    const before = guarded.gateway.ctx.clock.now()
    const advanced = await guarded.send(
      'POST',
      `${guarded.prefix}//sandbox/./clock//advance/`,
      { 'x-sandbox-control-token': TOKEN },
      '{"seconds":60}',
    )
    expect(advanced.status).toBe(200)
    expect(guarded.gateway.ctx.clock.now()).toBe(before + 60_000)
  })
})

describe('serve --base-path /payment', () => {
  it('a dot segment cannot climb out of the prefix to reach the control API, nor can it reach the prefix from outside', async () => {
    const t = await servedTransport('serve --base-path', undefined, '/payment')
    try {
      seed(t.gateway)
      const before = fingerprint(t.gateway)
      for (const path of [
        '/payment/../sandbox/reset',
        '/sandbox/reset',
        '//sandbox/reset',
        '/paymentx/sandbox/reset',
      ]) {
        const answer = await t.send('POST', path, {}, '{}')
        expect(answer, path).toEqual({ status: 404, body: rowBody('ROUTE_NOT_FOUND') })
      }
      expect(fingerprint(t.gateway)).toBe(before)
      expect((await t.send('POST', '/payment//sandbox//reset/', {}, '{}')).status).toBe(200)
    } finally {
      await t.close()
    }
  })
})

describe('sandbox.listen beyond loopback', () => {
  // Issue 21: "`listen()` beyond loopback without a token is refused as `serve` refuses it".
  it('is refused without a control token, with the message serve gives; with one it listens', async () => {
    const served = await serve({ port: 0, host: '0.0.0.0', logger: silentLogger }).then(
      () => undefined,
      (error: Error) => error,
    )
    expect(served?.name).toBe('ServeError')
    const sandbox = await createSandbox({ logger: silentLogger })
    try {
      const listened = await sandbox.listen({ host: '0.0.0.0' }).then(
        () => undefined,
        (error: Error) => error,
      )
      expect(listened?.name).toBe('ServeError')
      expect(listened?.message).toBe(served?.message)
      expect(listened?.message).toMatch(/--control-token TOKEN or PAYSANDBOX_CONTROL_TOKEN/)
    } finally {
      await sandbox.close()
    }
    const guarded = await createSandbox({ config: configFile(TOKEN).config, logger: silentLogger })
    try {
      const listening = await guarded.listen({ host: '0.0.0.0' })
      const send = sendHttp(listening.port)
      expect((await send('GET', '/sandbox/clock', {})).status).toBe(401)
      expect((await send('GET', '/sandbox/clock', { 'x-sandbox-control-token': TOKEN })).status).toBe(200)
    } finally {
      await guarded.close()
    }
  })
})
