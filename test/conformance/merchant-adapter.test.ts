import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createServer } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import {
  ephemeralPortsFrom,
  freePort,
  releasePort,
  AdapterError,
  loadAdapter,
  type MerchantClient,
  MerchantUnreachable,
  payerWaitMs,
  startMerchant,
} from '../../src/conformance/merchant.js'
import type { SandboxMerchantAdapter } from '../../src/generated/types.js'
import { scenarioDir, ref } from './helpers.js'

/** A merchant process for the adapter's own tests: it answers with what it was started with and sent. */
const SERVER = `
import { createServer } from 'node:http'
import { appendFileSync, readFileSync } from 'node:fs'
appendFileSync('starts.txt', 'x')
if (process.env.FAIL_AT_START) { console.error('cannot open the database'); process.exit(4) }
// Another program took the port the kit chose (the first PORT_TAKEN_TIMES starts): listen fails, EADDRINUSE.
if (readFileSync('starts.txt', 'utf8').length <= Number(process.env.PORT_TAKEN_TIMES ?? 0))
  createServer().listen(Number(process.env.PORT), '127.0.0.1')
createServer((req, res) => {
  let body = ''
  req.on('data', (c) => (body += c))
  req.on('end', () => {
    if (req.url === '/health') return res.end('ok')
    // Ends after it was ready: saying its port was taken (as a second program's listen would), or by a crash.
    if (req.url === '/orders/exit-port-taken' || req.url === '/orders/exit-crash')
      return res.end('{}', () => {
        console.error(req.url.endsWith('port-taken') ? 'Error: listen EADDRINUSE: address already in use' : 'TypeError: boom')
        process.exit(1)
      })
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ path: req.url, method: req.method, got: body ? JSON.parse(body) : null, gateway: process.env.GATEWAY_URL, flavour: process.env.FLAVOUR }))
  })
}).listen(Number(process.env.PORT), '127.0.0.1')
`

function adapter(dir: string, extra: Partial<SandboxMerchantAdapter> = {}): SandboxMerchantAdapter {
  writeFileSync(join(dir, 'server.mjs'), SERVER)
  return {
    name: 'echo',
    credentials: { merchant_key: 'm', password: 'password-1234' },
    process: {
      command: [process.execPath, 'server.mjs'],
      env: { FLAVOUR: 'vanilla' },
      port_env: 'PORT',
      gateway_url_env: 'GATEWAY_URL',
      ready_path: '/health',
    },
    base_url: `http://127.0.0.1:${ref('port')}`,
    start_payment: { method: 'POST', path: '/test/start' },
    merchant_action: {
      command: [
        process.execPath,
        '-e',
        'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>console.log(JSON.stringify({echo:JSON.parse(s)})))',
      ],
    },
    notification_path: '/cb',
    inspect: { method: 'GET', path: '/orders/{order_id}' },
    ...extra,
  }
}

/** The adapter's process started with `env`: the merchant, or why it could not start; and its starts. */
async function startWith(env: Record<string, string>) {
  const dir = scenarioDir({})
  const a = adapter(dir)
  if (a.process) a.process.env = env
  const started = await startMerchant(a, dir).catch((e: unknown) => e)
  return { started, starts: () => readFileSync(join(dir, 'starts.txt'), 'utf8') }
}

// docs/conformance.md: "process is optional ... ${port} is a free port the runner picks and passes in port_env";
// "start_payment may instead be { command: [...] }: a shell command that receives the JSON on standard input".
describe('the merchant adapter', () => {
  it('starts the process on a free port with its environment, and calls the HTTP and command hooks', async () => {
    const dir = scenarioDir({})
    const merchant = await startMerchant(adapter(dir), dir, { gatewayUrl: 'http://127.0.0.1:1/run/current' })
    try {
      expect(merchant.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(merchant.notificationUrl).toBe(`${merchant.baseUrl}/cb`)
      const started = await merchant.startPayment({ order: { number: 'o-1' } })
      expect(started.body).toEqual({
        path: '/test/start',
        method: 'POST',
        got: { order: { number: 'o-1' } },
        gateway: 'http://127.0.0.1:1/run/current',
        flavour: 'vanilla',
      })
      expect(started.request?.url).toBe(`${merchant.baseUrl}/test/start`)
      expect((await merchant.inspect('o 1')).body).toMatchObject({ path: '/orders/o%201', method: 'GET' })
      expect((await merchant.action({ action: 'refund' })).body).toEqual({ echo: { action: 'refund' } })
    } finally {
      await merchant.stop()
    }
  })

  it('is unreachable (exit 3) when the process dies at start, quoting its output', async () => {
    const { started: failure, starts } = await startWith({ FAIL_AT_START: '1' })
    expect(failure).toBeInstanceOf(MerchantUnreachable)
    expect((failure as Error).message).toMatch(
      /the merchant process exited with code 4\n {2}merchant output:\n {4}cannot open the database/,
    )
    // Started once: only a port taken meanwhile is worth another start.
    expect(starts()).toBe('x')
  })

  it('starts the process again on another port when the one it chose was taken meanwhile (EADDRINUSE)', async () => {
    const { started, starts } = await startWith({ PORT_TAKEN_TIMES: '2' })
    const merchant = started as MerchantClient
    try {
      expect(starts()).toBe('xxx')
      expect((await merchant.inspect('o-1')).body).toMatchObject({ path: '/orders/o-1' })
    } finally {
      await merchant.stop()
    }
  })

  it('gives up after three starts whose port was taken, quoting the last one', async () => {
    const { started: failure, starts } = await startWith({ PORT_TAKEN_TIMES: '9' })
    expect(failure).toBeInstanceOf(MerchantUnreachable)
    expect((failure as Error).message).toMatch(/the merchant process exited with code 1[\s\S]*EADDRINUSE/)
    expect(starts()).toBe('xxx')
  })

  it('is unreachable when nothing listens at base_url and no process is given', async () => {
    const dir = scenarioDir({})
    const { process: _none, ...running } = adapter(dir)
    const failure = await startMerchant({ ...running, base_url: 'http://127.0.0.1:9' }, dir).catch(
      (e: unknown) => e,
    )
    expect(failure).toBeInstanceOf(MerchantUnreachable)
  })

  it('refuses an adapter file that does not follow the schema, naming the field (exit 2)', () => {
    const dir = scenarioDir({ 'a.json': { name: 'x', credentials: { merchant_key: 'm' } }, 'b.json': '{' })
    expect(() => loadAdapter(join(dir, 'a.json'))).toThrow(AdapterError)
    expect(() => loadAdapter(join(dir, 'a.json'))).toThrow(
      /credentials\.password: This value should not be blank|credentials\.password/,
    )
    expect(() => loadAdapter(join(dir, 'b.json'))).toThrow(/cannot be read as JSON/)
    expect(
      loadAdapter(
        join(import.meta.dirname, '..', '..', 'fixtures', 'config', 'merchant-adapter-example.json'),
      ).adapter.name,
    ).toBe('Example shop backend')
  })
})

// docs/conformance.md, timeouts.hook_seconds: the pages the payer opens from what the merchant
// handed it (its return pages, the redirect it was given) wait as long as the merchant's hooks,
// and never less than the kit's own bound for them (15 s for a redirect, 10 s for a return).
describe("the payer's wait for the merchant's pages", () => {
  it('is the kit bound, or the adapter hook_seconds when longer', async () => {
    expect(payerWaitMs(undefined, 15_000)).toBe(15_000)
    expect(payerWaitMs({ waitMs: 10_000 }, 15_000)).toBe(15_000)
    expect(payerWaitMs({ waitMs: 60_000 }, 15_000)).toBe(60_000)
    const dir = scenarioDir({})
    const merchant = await startMerchant(adapter(dir, { timeouts: { hook_seconds: 45 } }), dir)
    try {
      expect(merchant.waitMs).toBe(45_000)
      expect(payerWaitMs(merchant, 10_000)).toBe(45_000)
    } finally {
      await merchant.stop()
    }
    const plain = await startMerchant(adapter(dir), dir)
    try {
      expect(payerWaitMs(plain, 15_000)).toBe(15_000)
    } finally {
      await plain.stop()
    }
  })
})

// A merchant's port is chosen, closed and handed to its process: one from the range the system
// hands out for listen(0) could go to another program first, which would then answer the kit's
// readiness check and hooks (four suites at once: a shop with a mistake passed its scenario).
describe("the merchant process's port", () => {
  it('is free, and below the range the system hands out to programs that ask for any port', async () => {
    const from = ephemeralPortsFrom()
    expect(from).toBeGreaterThan(20_000 + 1000)
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()))
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000)
      expect(port).toBeLessThan(from)
    }
    // Free: this test can listen on it.
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(ports[0] as number, '127.0.0.1', resolve))
    await new Promise((resolve) => server.close(resolve))
  })

  it('is never handed out twice while its taker may not have bound it yet', async () => {
    // Every random draw the same: free ports drawn independently would all be the same one, free
    // each time it is checked, as for merchants started at once.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5)
    try {
      const ports = await Promise.all(Array.from({ length: 8 }, () => freePort()))
      expect(new Set(ports).size).toBe(8)
      for (const port of ports) releasePort(port)
    } finally {
      random.mockRestore()
    }
  })
})

// docs/conformance.md, `port_env`: a process that ends by itself after it was ready is said with the
// run's results; one that says its port was taken never answered the kit.
describe('a merchant process that ends after it was ready', () => {
  it('saying its port was taken: another program answered in its place', async () => {
    const { started } = await startWith({})
    const merchant = started as MerchantClient
    try {
      expect(merchant.exited?.()).toBeUndefined()
      await merchant.inspect('exit-port-taken')
      await expect.poll(() => merchant.exited?.(), { timeout: 30_000 }).toMatchObject({ portTaken: true })
      expect(merchant.exited?.()?.message).toMatch(
        /^the merchant process exited with code 1 because its port \d+ was taken: another program answered the kit on that port in its place, so this run's results are not the merchant's; run again\n {2}merchant output:\n {4}Error: listen EADDRINUSE/,
      )
    } finally {
      await merchant.stop()
    }
  })

  it('by a crash: said with its output; nothing is said of a process the kit stopped', async () => {
    const { started } = await startWith({})
    const merchant = started as MerchantClient
    await merchant.inspect('exit-crash')
    await expect.poll(() => merchant.exited?.(), { timeout: 30_000 }).toMatchObject({ portTaken: false })
    expect(merchant.exited?.()?.message).toMatch(
      /^the merchant process exited with code 1 during the run\n[\s\S]*TypeError: boom/,
    )
    await merchant.stop()
    const { started: other } = await startWith({})
    await (other as MerchantClient).stop()
    expect((other as MerchantClient).exited?.()).toBeUndefined()
  })
})
