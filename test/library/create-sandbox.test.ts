import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createVirtualClock } from '../../src/adapters/clock/virtual-clock.js'
import { ConfigError, createSandbox, type Sandbox, SandboxError } from '../../src/index.js'
import { mswHandlers } from '../../src/msw.js'
import { card, createSession } from './helpers.js'

const open: Sandbox[] = []
async function make(...args: Parameters<typeof createSandbox>): Promise<Sandbox> {
  const sandbox = await createSandbox(...args)
  open.push(sandbox)
  return sandbox
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()))
})

const json = async (r: Response) => (await r.json()) as Record<string, unknown>

describe('createSandbox defaults', () => {
  // docs/rules.md#configuration: "Without a file, a documented demo merchant is built in."
  it('serves the demo merchant on a virtual clock that stands still', async () => {
    const s = await make()
    expect(s.config.merchants.map((m) => m.key)).toEqual(['demo-merchant'])
    expect(s.clock.kind).toBe('virtual')
    expect(s.clock.now()).toBe(Date.UTC(2020, 0, 1))
    const health = await s.fetch('http://localhost:8080/sandbox/health')
    expect(await json(health)).toMatchObject({ status: 'ok', now: '2020-01-01 00:00:00', clock: 'virtual' })
    expect(s.baseUrl).toBe('http://localhost:8080')
  })

  it('repeats ids for one seed, and not without one', async () => {
    const [a, b, c] = await Promise.all([make({ seed: 's1' }), make({ seed: 's1' }), make()])
    const urls = await Promise.all([a, b, c].map((s) => createSession(s as Sandbox, 'same-order')))
    expect(urls[0]).toBe(urls[1])
    expect(urls[2]).not.toBe(urls[0])
  })

  it('takes a clock start, a system clock or any Clock', async () => {
    expect((await make({ start: '2026-05-01T12:00:00Z' })).clock.now()).toBe(Date.UTC(2026, 4, 1, 12))
    const system = await make({ clock: 'system' })
    expect(system.clock.kind).toBe('system')
    expect(Math.abs(system.clock.now() - Date.now())).toBeLessThan(5_000)
    const own = createVirtualClock(Date.UTC(2031, 0, 1))
    expect((await make({ clock: own })).clock.now()).toBe(Date.UTC(2031, 0, 1))
  })
})

describe('createSandbox config', () => {
  it('loads a configuration file by path, with its clock start', async () => {
    const s = await make({ config: 'fixtures/config/multi-merchant.json' })
    expect(s.config.merchants.map((m) => m.key)).toEqual(['shop-eu', 'payouts-latam'])
    expect(s.clock.now()).toBe(Date.UTC(2026, 2, 1, 9))
  })

  it('refuses an invalid configuration object, naming the field', async () => {
    const error = await createSandbox({
      config: { merchants: [{ key: 'k', password: 'p', notification_url: 'not a url', mids: [] }] } as never,
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).problems.join('\n')).toMatch(/merchants\[0\]/)
  })

  it('uses the merchants of a configuration object', async () => {
    const s = await make({
      config: {
        merchants: [
          {
            key: 'my-shop',
            password: 'my-password',
            notification_url: 'http://shop.test/cb',
            mids: [{ id: 'mid-1' }],
          },
        ],
      },
    })
    // Authentication 1: an unknown merchant_key changes nothing (docs/rules.md#errors: a 400 with the merchant_key item).
    await expect(createSession(s, 'o-1')).rejects.toThrow(/400.*merchant_key: This value is not correct\./)
    expect(s.config.merchants[0]?.key).toBe('my-shop')
  })
})

describe('createSandbox base URL', () => {
  it('takes the first address it is reached at, unless one was given', async () => {
    const s = await make()
    mswHandlers(s, 'https://gateway.test')
    await s.listen()
    expect(s.baseUrl).toBe('https://gateway.test')
    expect(await createSession(s, 'o-1')).toMatch(/^https:\/\/gateway\.test\/auth\//)
    const given = await make({ baseUrl: 'https://pinned.test/' })
    mswHandlers(given, 'https://gateway.test')
    expect(given.baseUrl).toBe('https://pinned.test')
  })

  it('serves under the path of its base URL through fetch', async () => {
    const s = await make({ baseUrl: 'https://gw.test/pay' })
    expect((await s.fetch('https://gw.test/pay/sandbox/health')).status).toBe(200)
    expect((await s.fetch('https://gw.test/pay/nowhere')).status).toBe(404)
  })
})

describe('sandbox.clock.advance', () => {
  // docs/rules.md#session-expiry: "`session_expiry` is in minutes, 1 to 720, default 60 ... expiry ... follow[s] it"
  it('moves time, and a session expires after 60 minutes', async () => {
    const s = await make()
    const early = await createSession(s, 'o-early')
    const late = await createSession(s, 'o-late')
    await s.clock.advance(59 * 60)
    expect((await s.payer.payCheckout(early, card('01/2030'))).status).toBe('settled')
    await s.clock.advance(60)
    expect(s.clock.now()).toBe(Date.UTC(2020, 0, 1, 1))
    await expect(s.payer.payCheckout(late, card('01/2030'))).rejects.toThrow('Session has expired.')
  })

  it('refuses what the control API refuses, and keeps the time', async () => {
    const s = await make()
    const error = await s.clock.advance(-5).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SandboxError)
    expect((error as SandboxError).message).toBe(
      'Request data is invalid. seconds: This value should be greater than 0.',
    )
    expect(s.clock.now()).toBe(Date.UTC(2020, 0, 1))
  })
})

describe('sandbox store, reset, listen and close', () => {
  it('keeps records and time in a lowdb file across sandboxes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paysandbox-lib-'))
    try {
      const first = await createSandbox({ store: { file: join(dir, 'data.json') } })
      const paid = await first.payer.payCheckout(await createSession(first, 'o-kept'), card('01/2030'))
      await first.clock.advance(600)
      await first.close()
      const second = await createSandbox({ store: { file: join(dir, 'data.json') } })
      expect(second.gateway.ctx.store.get('payments', paid.payment_id)?.status).toBe('settled')
      expect(second.clock.now()).toBe(Date.UTC(2020, 0, 1, 0, 10))
      await second.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  // docs/rules.md#control-api: "`POST /sandbox/reset`"
  it('reset() forgets every record', async () => {
    const s = await make()
    await s.payer.payCheckout(await createSession(s, 'o-reset'), card('01/2030'))
    await s.reset()
    expect(s.gateway.ctx.store.count('payments')).toBe(0)
    expect(s.callbacks()).toEqual([])
  })

  // docs/rules.md#control-guard: "when a control token is set, a missing or wrong
  // `X-Sandbox-Control-Token` (401)": the library's own control calls carry the config's token.
  it('faults.add works when the config has a control_token', async () => {
    const token = 'library-token-0123456789abcdef'
    const s = await make({
      config: {
        merchants: [
          {
            key: 'my-shop',
            password: 'my-password',
            notification_url: 'http://shop.test/cb',
            mids: [{ id: 'mid-1' }],
          },
        ],
        control_token: token,
      },
    })
    const rule = await s.faults.add({ mode: 'lost', match: { action: 'SALE' } })
    expect(rule).toMatchObject({ mode: 'lost', match: { action: 'SALE' } })
    expect(s.faults.list().map((f) => f.id)).toEqual([rule.id])
    // The guard still holds for a caller without the token.
    const bare = await s.fetch('http://localhost:8080/sandbox/faults')
    expect(bare.status).toBe(401)
  })

  it('listen() serves over HTTP until close()', async () => {
    const s = await make()
    const { url, port } = await s.listen()
    expect(url).toBe(`http://127.0.0.1:${port}`)
    expect(await json(await fetch(`${url}/sandbox/health`))).toMatchObject({ status: 'ok' })
    await s.close()
    await expect(fetch(`${url}/sandbox/health`)).rejects.toThrow()
  })
})
