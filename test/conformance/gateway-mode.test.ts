import { writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { serve } from '../../src/adapters/serve.js'
import { runTest } from '../../src/conformance/index.js'
import { freePort } from '../../src/conformance/merchant.js'
import { plainReporter } from '../../src/conformance/reporters/plain.js'
import type { Reporter } from '../../src/conformance/types.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import { scratchDir } from '../helpers/scratch.js'

const KEY = 'gw-merchant'
const PASSWORD = 'gw-password-0123456789'

async function test(
  options: Parameters<typeof runTest>[0]['gateway'],
  extra: Partial<Parameters<typeof runTest>[0]> = {},
) {
  let text = ''
  const summary = await runTest({
    ...(options ? { gateway: options } : {}),
    reporters: [plainReporter((t) => (text += t))],
    ...extra,
  })
  return { summary, text }
}

// Issue 7: "Gateway mode: the same runner pointed at a gateway base URL with credentials runs the gateway-facing
// scenarios against it (the built-in sandbox by default) and reports every deviation from the interface."
describe('gateway mode against the built-in sandbox (default)', () => {
  it('passes every gateway-facing bundled scenario', async () => {
    const { summary, text } = await test(undefined)
    expect(summary.failed, text).toBe(0)
    expect(summary.skipped, text).toBe(0)
    expect(summary.passed).toBeGreaterThanOrEqual(40)
  }, 90_000)
})

const DEMO = { key: 'demo-merchant', password: 'demo-password-0123456789abcdef' }

/**
 * What must be as it was after a run: the merchants listed, and the clock's offset from real time
 * (a system clock: whole seconds, +0 for any offset under half a second either way).
 */
async function sandboxState(base: string) {
  const merchants = await (await fetch(`${base}/sandbox/merchants`)).text()
  const clock = (await (await fetch(`${base}/sandbox/clock`)).json()) as { now_ms: number }
  return { merchants, offsetSeconds: Math.round((clock.now_ms - Date.now()) / 1000) + 0 }
}

// Issue 16 point 3: "Gateway mode runs against a running sandbox with any configuration: it creates
// the merchants it needs through the control API [...], never leaves that sandbox's clock moved".
describe('gateway mode against a running paysandbox started with the demo configuration', () => {
  let sandbox: Awaited<ReturnType<typeof serve>>
  let base: string
  beforeAll(async () => {
    // As `npm start`: the demo merchant's callbacks go to localhost:3000, its MID has no MOTO and no zero amount.
    sandbox = await serve({ port: 0, logger: silentLogger })
    base = `http://127.0.0.1:${sandbox.port}`
  })
  afterAll(() => sandbox.close())

  it('creates its own merchants, passes every scenario that does not move the shared clock, then deletes them', async () => {
    const before = await sandboxState(base)
    const { summary, text } = await test({ url: base, ...DEMO })
    expect(summary.failed, text).toBe(0)
    const skipped = summary.results.filter((r) => r.status === 'skipped')
    for (const r of skipped)
      expect(r.reason, r.slug).toMatch(
        /^skipped: (moves the clock, which is shared|needs a kit-hosted sandbox)/,
      )
    const passed = new Set(summary.results.filter((r) => r.status === 'passed').map((r) => r.slug))
    // Settings the demo merchant lacks: MOTO MID, zero-amount MID, callbacks to the kit, and a scenario's own MIDs.
    for (const slug of [
      'checkout-moto',
      'errors-zero-amount',
      'errors-moto-not-enabled',
      'checkout-credit-to-saved-card',
      'checkout-3ds-callback-not-final',
    ])
      expect(passed.has(slug), `${slug}\n${text}`).toBe(true)
    expect(summary.passed).toBeGreaterThanOrEqual(summary.results.length - 8)
    expect(text).not.toContain('note: ')
    expect(await sandboxState(base)).toEqual(before)
  }, 90_000)

  it('needs no --key or --password of that sandbox', async () => {
    const before = await sandboxState(base)
    const { summary, text } = await test({ url: base, key: '', password: '' }, { names: ['checkout-moto'] })
    expect(summary.passed, text).toBe(1)
    expect(await sandboxState(base)).toEqual(before)
  })

  it('says which merchants it could not delete', async () => {
    const before = await sandboxState(base)
    const proxy = await refusingCreation(base, (method) => method === 'DELETE', 503)
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
    const said: string[] = []
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
      said.push(String(text))
      return true
    })
    try {
      const { summary } = await test({ url, ...DEMO }, { names: ['checkout-moto'] })
      expect(summary.passed).toBe(1)
    } finally {
      stderr.mockRestore()
      proxy.closeAllConnections()
      await new Promise<void>((r) => proxy.close(() => r()))
    }
    expect(said.join('')).toMatch(
      new RegExp(
        `^paysandbox test: the merchants the kit created on ${url.replace(/[.]/g, '\\.')} could not all be deleted \\(kit-[0-9a-f]{8}: HTTP 503\\): delete them with DELETE /sandbox/merchants/:key\\n$`,
      ),
    )
    // Left on the sandbox, as said: delete it, so the sandbox is as it was.
    const key = /kit-[0-9a-f]{8}/.exec(said.join(''))?.[0] ?? ''
    expect((await fetch(`${base}/sandbox/merchants/${key}`, { method: 'DELETE' })).status).toBe(200)
    expect(await sandboxState(base)).toEqual(before)
  })

  it('deletes the merchants it created also when the run fails midway', async () => {
    const before = await sandboxState(base)
    let seen = 0
    const failing: Reporter = {
      start() {},
      scenarioFinished() {
        seen += 1
        throw new Error('reporter broke')
      },
      finish() {},
    }
    await expect(
      runTest({
        gateway: { url: base, ...DEMO },
        names: ['checkout-moto', 'errors-moto-not-enabled'],
        concurrency: 1,
        reporters: [failing],
      }),
    ).rejects.toThrow('reporter broke')
    expect(seen).toBe(1)
    expect(await sandboxState(base)).toEqual(before)
  })
})

/**
 * A paysandbox in front of which POST /sandbox/merchants answers 404, as one without the route
 * (or a gateway that refuses creation): the kit falls back to the merchant it is given.
 */
function refusingCreation(
  target: string,
  refuses = (method: string | undefined, url: string | undefined) =>
    !!url?.startsWith('/sandbox/merchants') && method !== 'GET',
  status = 404,
  /** A gateway that is not a paysandbox sends no `Sandbox-Rule` header: the kit reads the catalogue's rows. */
  withoutRuleHeader = false,
): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      if (refuses(req.method, req.url)) {
        res.writeHead(status, { 'content-type': 'application/json' })
        return void res.end(`{"http_code":${status},"error_code":100000,"error_message":"Refused."}`)
      }
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v
      const body = Buffer.concat(chunks)
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body.length ? { body } : {}),
        redirect: 'manual',
      })
      const out: Record<string, string> = {}
      answer.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'content-encoding' && k !== 'transfer-encoding') out[k] = v
        if (withoutRuleHeader) delete out['sandbox-rule']
      })
      res.writeHead(answer.status, out)
      res.end(Buffer.from(await answer.arrayBuffer()))
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

describe('gateway mode against a paysandbox that refuses to create merchants (--gateway URL --key --password)', () => {
  let sandbox: Awaited<ReturnType<typeof serve>>
  let proxy: Server
  let url: string
  let port: number
  beforeAll(async () => {
    port = await freePort()
    const config = join(scratchDir('gw-'), 'config.json')
    writeFileSync(
      config,
      JSON.stringify({
        merchants: [
          {
            key: KEY,
            password: PASSWORD,
            notification_url: `http://127.0.0.1:${port}/callbacks`,
            mids: [{ id: 'm1', payment_mode: 'SMS/DMS', moto: true, card_on_file: true, zero_amount: true }],
          },
        ],
        clock: { mode: 'virtual' },
      }),
    )
    sandbox = await serve({ port: 0, configFile: config, logger: silentLogger })
    proxy = await refusingCreation(`http://127.0.0.1:${sandbox.port}`)
    url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    proxy.closeAllConnections()
    await new Promise<void>((r) => proxy.close(() => r()))
    await sandbox.close()
  })

  it('with the merchant it is given, set up for the kit: passes or skips with the reason, never a silent pass', async () => {
    const { summary, text } = await test(
      { url, key: KEY, password: PASSWORD },
      {
        port,
        names: [
          'checkout-purchase-card-settled',
          'checkout-moto',
          'errors-moto-not-enabled',
          'checkout-refund-full',
        ],
      },
    )
    expect(summary.failed, text).toBe(0)
    const reasons = Object.fromEntries(summary.results.map((r) => [r.slug, `${r.status} ${r.reason ?? ''}`]))
    expect(reasons['checkout-moto']).toMatch(/^passed/)
    expect(reasons['errors-moto-not-enabled']).toMatch(/^skipped skipped: needs sandbox setup/)
    expect(text).not.toContain('note: ')
  })

  it('names the missing merchant settings in one line before running, skips those scenarios at once, never moves the clock', async () => {
    const clock = async () =>
      ((await (await fetch(`http://127.0.0.1:${sandbox.port}/sandbox/clock`)).json()) as { now_ms: number })
        .now_ms
    const before = await clock()
    // The kit listens on another port than the one the merchant's notification_url names.
    const { summary, text } = await test(
      { url, key: KEY, password: PASSWORD },
      { names: ['checkout-purchase-card-settled', 'checkout-callback-retried', 'checkout-session-created'] },
    )
    expect(await clock()).toBe(before)
    const lines = text.split('\n')
    expect(lines[1]).toMatch(
      new RegExp(
        `^note: gateway ${url.replace(/[.]/g, '\\.')}: merchant ${KEY}'s notification_url is http://127\\.0\\.0\\.1:${port}/callbacks, not the kit's http://127\\.0\\.0\\.1:\\d+/callbacks.* \\(the kit could not create a merchant of its own: POST ${url.replace(/[.]/g, '\\.')}/sandbox/merchants answered HTTP 404`,
      ),
    )
    const reasons = Object.fromEntries(summary.results.map((r) => [r.slug, `${r.status} ${r.reason ?? ''}`]))
    expect(reasons['checkout-purchase-card-settled']).toMatch(
      /^skipped skipped: merchant gw-merchant's notification_url/,
    )
    expect(reasons['checkout-callback-retried']).toMatch(/moves the clock, which is shared/)
    expect(reasons['checkout-session-created']).toMatch(/^passed/)
    // Skipped before running (no step sent, so no wait for a callback that cannot come): shown by
    // the steps it ran, not by a stopwatch, which a loaded machine would fail.
    const settled = summary.results.find((r) => r.slug === 'checkout-purchase-card-settled')
    expect(settled?.steps).toEqual([])
  })

  it('without --key, stops before running and says why it could not create its own merchant', async () => {
    await expect(test({ url, key: '', password: '' })).rejects.toThrow(
      new RegExp(
        `^the gateway at ${url.replace(/[.]/g, '\\.')} did not let the kit create a merchant \\(POST .*/sandbox/merchants answered HTTP 404 .*\\): give --key and --password of one of its merchants$`,
      ),
    )
  })

  it('stops before running, with one line, when the gateway has no such merchant', async () => {
    await expect(test({ url, key: 'nobody', password: PASSWORD })).rejects.toThrow(
      `the gateway at ${url} has no merchant "nobody" (it has: ${KEY})`,
    )
  })

  // Issue 33 item 4: "`test --gateway` says when the key is refused" (before the run, not as every scenario's failure).
  it('a wrong password stops the run before it starts, blamed on --password', async () => {
    await expect(
      test({ url, key: KEY, password: 'not-the-password' }, { port, names: ['checkout-session-created'] }),
    ).rejects.toThrow(
      `the gateway at ${url} knows --key ${KEY} but refused the signature made with --password: it answered HTTP 400 "hash: Hash is not valid."; check --password (that merchant's signing password)`,
    )
  })

  it('a gateway that is not a paysandbox and refuses --key: the run stops, blamed on the key', async () => {
    // The same gateway with its control API hidden: the kit cannot read its merchants, only sign with the key.
    const hidden = await refusingCreation(url, (_method, path) => !!path?.startsWith('/sandbox/'), 404, true)
    const hiddenUrl = `http://127.0.0.1:${(hidden.address() as AddressInfo).port}`
    try {
      await expect(
        test({ url: hiddenUrl, key: 'nobody', password: PASSWORD }, { names: ['checkout-session-created'] }),
      ).rejects.toThrow(
        `the gateway at ${hiddenUrl} refused --key nobody: it answered HTTP 400 "merchant_key: This value is not correct.", so it has no merchant with that key; check --key (its merchant_key / client_key)`,
      )
      // The right key and password pass the check and the run goes on.
      const { summary, text } = await test(
        { url: hiddenUrl, key: KEY, password: PASSWORD },
        { port, names: ['checkout-session-created'] },
      )
      expect(summary.passed, text).toBe(1)
    } finally {
      hidden.closeAllConnections()
      await new Promise<void>((r) => hidden.close(() => r()))
    }
  })
})

/** A gateway that answers everything with the wrong code and message, and is not a paysandbox. */
function wrongGateway(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      if (req.url?.startsWith('/sandbox/')) return void res.writeHead(404).end()
      if (req.url === '/hang') return
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ http_code: 400, error_code: 999, error_message: 'Something else.' }))
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

describe('gateway mode against a gateway that deviates', () => {
  let server: Server
  let url: string
  beforeAll(async () => {
    server = await wrongGateway()
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  it('reports each deviation readably, with a curl command', async () => {
    const { summary, text } = await test(
      { url, key: 'k', password: 'p' },
      {
        names: [
          'errors-checkout-status-unknown-payment',
          'errors-s2s-card-capture-unknown-trans',
          'checkout-3ds-failed',
          'checkout-session-created',
        ],
      },
    )
    expect(summary.failed).toBe(4)
    expect(text).toContain(
      'expected error 400 / 101000 / "Payment does not exist." (Errors row: "Checkout GET_TRANS_STATUS with unknown `payment_id`"), got 400 / 999 / "Something else."',
    )
    expect(text).toContain('expected error 400 / 101000 / "Transaction does not exist."')
    expect(text).toMatch(
      /reproduce: curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/post' -H 'content-type: application\/x-www-form-urlencoded' --data-raw 'action=CAPTURE&trans_id=00000000-0000-4000-8000-000000000000&client_key=k&hash=[0-9a-f]{32}'/,
    )
    expect(text).toMatch(
      /FAIL checkout-3ds-failed[\s\S]*?step 1\. merchant\.start checkout:[\s\S]*?expected a successful answer, got HTTP 400/,
    )
  })

  it('sends the APM group scenarios with their variables expanded (issue 16: run_id went out unexpanded)', async () => {
    const bodies: string[] = []
    const recorder = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        if (req.url?.startsWith('/sandbox/')) return void res.writeHead(404).end()
        // The kit's check of --key and --password (a Checkout status lookup) is not the scenario's.
        if (req.url !== '/api/v1/payment/status') bodies.push(body)
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"result":"ERROR"}')
      })
    })
    await new Promise<void>((r) => recorder.listen(0, '127.0.0.1', () => r()))
    try {
      await test(
        { url: `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`, key: 'k', password: 'p' },
        { names: ['apm-group-qr'] },
      )
      const identifier = new URLSearchParams(bodies[0]).get('identifier')
      expect(identifier).toMatch(/^payer-[0-9a-f]{8}$/)
    } finally {
      await new Promise<void>((r) => recorder.close(() => r()))
    }
  })

  it('fails a step that does not finish within the step time limit', async () => {
    const hanging = createServer((req) => {
      req.resume()
      if (req.url?.startsWith('/sandbox/'))
        req.on('end', () => req.socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n'))
    })
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', () => r()))
    try {
      const { summary, text } = await test(
        { url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`, key: 'k', password: 'p' },
        { names: ['checkout-session-created'], stepTimeoutMs: 300 },
      )
      expect(summary.failed).toBe(1)
      expect(text).toContain('the step did not finish within 300 ms')
    } finally {
      hanging.closeAllConnections()
      await new Promise<void>((r) => hanging.close(() => r()))
    }
  })

  it('skips payer steps with the reason when the gateway is not a paysandbox', async () => {
    const ok = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        if (req.url?.startsWith('/sandbox/')) return void res.writeHead(404).end()
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ redirect_url: 'http://gw.example/auth/tok' }))
      })
    })
    await new Promise<void>((r) => ok.listen(0, '127.0.0.1', () => r()))
    try {
      const { summary, text } = await test(
        { url: `http://127.0.0.1:${(ok.address() as AddressInfo).port}`, key: 'k', password: 'p' },
        { names: ['checkout-purchase-card-declined'] },
      )
      expect(summary.skipped, text).toBe(1)
      expect(text).toContain('skipped: needs payer control (the gateway is not a paysandbox')
    } finally {
      await new Promise<void>((r) => ok.close(() => r()))
    }
  })
})
