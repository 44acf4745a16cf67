import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, type RunningSandbox, ServeError, serve } from '../../src/adapters/serve.js'
import { renderBanner } from '../../src/adapters/serve/banner.js'
import { StoreFileError } from '../../src/adapters/store/snapshot.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import { scratchDir } from '../helpers/scratch.js'

const dir = () => scratchDir('paysandbox-serve-')
const minimal = {
  merchants: [
    {
      key: 'shop-1',
      password: 'secret-password-1',
      notification_url: 'http://localhost:3000/cb',
      mids: [{ id: 'mid-1' }],
    },
  ],
}
function configFile(data: unknown, raw?: string): string {
  const file = join(dir(), 'sandbox.json')
  writeFileSync(file, raw ?? JSON.stringify(data))
  return file
}
const problems = (fn: () => unknown): string[] => {
  try {
    fn()
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  throw new Error('no ConfigError')
}

describe('loadConfig', () => {
  // docs/rules.md#configuration: "Without a file, a documented demo merchant is built in."
  it('uses the demo merchant without a file, with every default filled in', () => {
    const { config, source, baseUrlGiven } = loadConfig()
    expect(source).toBe('demo')
    expect(baseUrlGiven).toBe(false)
    expect(config.merchants[0]?.key).toBe('demo-merchant')
    expect(config.clock).toEqual({ mode: 'system' })
    expect(config.callbacks).toEqual({
      retries: true,
      retry_schedule_seconds: [60, 300, 900, 3600, 21600, 86400],
      timeout_seconds: 10,
    })
    // retain_demo: docs/rules.md#retention, the demo page's own bound (retain itself is filled by
    // serve: 10000 in memory, none with a data file); request_log and its body bytes:
    // docs/rules.md#request-log (1,000 records per merchant, 16 KiB of each body).
    expect(config.limits).toEqual({
      body_bytes: 1048576,
      retain_demo: 50,
      request_log: 1000,
      request_log_body_bytes: 16384,
    })
  })

  it('names the file and each field that is wrong', () => {
    const file = configFile({
      merchants: [
        { ...minimal.merchants[0], password: 'short', mids: [{ id: 'mid-1', payment_mode: 'AUTO' }] },
      ],
    })
    expect(problems(() => loadConfig(file))).toEqual([
      'merchants[0].password: This value is too short. It should have 8 characters or more.',
      'merchants[0].mids[0].payment_mode: The value you selected is not a valid choice. Valid values: SMS, DMS, SMS/DMS.',
    ])
    expect(() => loadConfig(file)).toThrow(`config file ${file}:`)
    expect(problems(() => loadConfig(configFile({})))).toEqual(['merchants: This value should not be blank.'])
  })

  it('refuses a missing file and a file that is not JSON', () => {
    expect(() => loadConfig('/nonexistent/sandbox.json')).toThrow(
      'config file /nonexistent/sandbox.json: no such file',
    )
    expect(problems(() => loadConfig(configFile(undefined, '{"merchants": [')))[0]).toMatch(
      /^not valid JSON at line 1, column 16: the text ends where a value should be$/,
    )
  })

  // Config schema: "Merchant keys and MID ids must be unique; the loader checks that (JSON Schema cannot)."
  it('refuses duplicate merchant keys and MID ids, and methods the interface does not have', () => {
    const m = minimal.merchants[0] as Record<string, unknown>
    const file = configFile({
      merchants: [m, { ...m, mids: [{ id: 'mid-1' }, { id: 'mid-2', methods: ['card', 'no-such-method'] }] }],
    })
    expect(problems(() => loadConfig(file))).toEqual([
      'merchants[1].key: "shop-1" is already the key of merchants[0].',
      'merchants[1].mids[0].id: "mid-1" is already the id of merchants[0].mids[0].',
      'merchants[1].mids[1].methods[1]: "no-such-method" is not a method identifier of the interface (schemas/catalogue/methods.json).',
    ])
  })
})

describe('serve', () => {
  const running: RunningSandbox[] = []
  afterEach(async () => {
    for (const s of running.splice(0)) await s.close()
  })
  const start = async (options: Parameters<typeof serve>[0]) => {
    const s = await serve({ port: 0, logger: silentLogger, ...options })
    running.push(s)
    return s
  }
  const json = async (url: string, init?: RequestInit) =>
    (await fetch(url, init)).json() as Promise<Record<string, unknown>>
  const advance = (base: string, seconds: number) =>
    json(`${base}/sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds }),
    })

  it('listens on loopback and is ready when /sandbox/health answers 200', async () => {
    const s = await start({})
    expect(s.host).toBe('127.0.0.1')
    expect(s.baseUrl).toBe(`http://localhost:${s.port}`)
    const r = await fetch(`${s.baseUrl}/sandbox/health`)
    expect(r.status).toBe(200)
    expect(await r.json()).toMatchObject({ status: 'ok', clock: 'system' })
    expect(s.gateway.ctx.baseUrl).toBe(s.baseUrl)
  })

  it('uses the base_url of the config file when it sets one', async () => {
    const s = await start({ configFile: configFile({ ...minimal, base_url: 'https://sandbox.example/' }) })
    expect(s.baseUrl).toBe('https://sandbox.example')
  })

  it('resumes a virtual clock from the data file after a restart', async () => {
    const data = join(dir(), 'data', 'store.json')
    const config = configFile({ ...minimal, clock: { mode: 'virtual', start: '2026-03-01T09:00:00Z' } })
    const first = await start({ configFile: config, dataFile: data })
    expect(await json(`${first.baseUrl}/sandbox/health`)).toMatchObject({
      now: '2026-03-01 09:00:00',
      clock: 'virtual',
    })
    await advance(first.baseUrl, 3600)
    await first.close()
    const second = await start({ configFile: config, dataFile: data })
    expect(await json(`${second.baseUrl}/sandbox/clock`)).toMatchObject({
      mode: 'virtual',
      now: '2026-03-01 10:00:00',
    })
  })

  // Config schema: "`system`: time runs with the computer's clock, and POST /sandbox/clock/advance adds an offset."
  it('keeps a system clock offset across a restart', async () => {
    const data = join(dir(), 'store.json')
    const first = await start({ dataFile: data })
    await advance(first.baseUrl, 86_400)
    await first.close()
    const second = await start({ dataFile: data })
    const ahead = second.gateway.ctx.clock.now() - Date.now()
    expect(ahead).toBeGreaterThan(86_400_000 - 5_000)
    expect(ahead).toBeLessThanOrEqual(86_400_000)
  })

  it('refuses a port in use and an unreadable data file', async () => {
    const s = await start({})
    await expect(serve({ port: s.port, logger: silentLogger })).rejects.toBeInstanceOf(ServeError)
    const bad = join(dir(), 'broken.json')
    writeFileSync(bad, '{not json')
    await expect(serve({ port: 0, dataFile: bad, logger: silentLogger })).rejects.toBeInstanceOf(
      StoreFileError,
    )
  })
})

describe('banner', () => {
  const facts = (file?: string) => ({
    version: '9.9.9',
    baseUrl: 'http://localhost:8080',
    loaded: loadConfig(file),
    clock: 'system' as const,
    routes: [
      'POST /api/v1/session',
      'GET /sandbox/health',
      'POST /sandbox/reset',
      'GET /sandbox/payments/:id',
      'POST /post-va',
    ],
  })

  it('shows the demo merchant with its documented password', () => {
    const text = renderBanner(facts())
    expect(text).toContain('paysandbox 9.9.9: payment gateway sandbox listening on http://localhost:8080')
    expect(text).toContain('Hosted pages  http://localhost:8080/auth/<session token>')
    expect(text).toContain('demo-password-0123456789abcdef')
    expect(text).toContain('MID demo-mid      SMS/DMS')
    expect(text).toContain('in memory only')
    expect(text).toContain('Control API   http://localhost:8080/sandbox/health, /sandbox/reset\n')
    expect(text).toContain('S2S APM       POST http://localhost:8080/post-va')
    expect(text).not.toContain('S2S CARD')
  })

  it('never prints the passwords of a configuration file', () => {
    const text = renderBanner({ ...facts(configFile(minimal)), dataFile: '/tmp/x.json' })
    expect(text).toContain('shop-1')
    expect(text).toContain('passwords not shown')
    expect(text).toContain('/tmp/x.json (kept across restarts)')
    expect(text).not.toContain('secret-password-1')
  })
})
