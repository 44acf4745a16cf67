import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createLowdbStore } from '../src/adapters/index.js'
import { type Collections, type Payment, STORE_INDEXES } from '../src/core/engine/model.js'
import { checkoutSignatures } from '../src/core/signatures/index.js'
import { BASELINE_PAYMENT_ID, BENCH_KEY, BENCH_PASSWORD, BENCH_SESSION as SESSION } from './http-servers.js'
import { fmt, type Sample } from './lib.js'
import { type LoadResult, percentile, runLoad } from './load.js'

/**
 * Issue 3: session create and status lookup through `paysandbox serve` (express, one core) at 50
 * concurrent connections, against a baseline measured in the same run: a plain express + ajv +
 * Map app doing the same work (target: at least 0.8x its throughput, p99 under 20 ms); and session
 * create with 100,000 payments in a lowdb store against an empty one (target: at least 0.8x).
 * Servers run pinned to one core (taskset, when there is a second core for the load generator).
 */
const CONNECTIONS = 50
const REQUESTS = 10_000
const WARM_UP = 2_000
const MAX_MS = 15_000
const self = fileURLToPath(import.meta.url)
const serversFile = join(self, '..', 'http-servers.ts')
// Decided once, in the parent: the child runs pinned to one core and would see only that one.
const pinned =
  process.env.PAYSANDBOX_BENCH_PINNED !== undefined
    ? process.env.PAYSANDBOX_BENCH_PINNED === '1'
    : availableParallelism() > 1 && spawnSync('taskset', ['-c', '0', 'true']).status === 0

export function benchHttp(rounds = 2): { rows: Sample[]; summary: string } {
  const node = [process.execPath, '--import', 'tsx', self, '--child', String(rounds)]
  const [cmd, ...args] = (pinned ? ['taskset', '-c', '1', ...node] : node) as [string, ...string[]]
  const r = spawnSync(cmd, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 600_000,
    env: { ...process.env, PAYSANDBOX_BENCH_PINNED: pinned ? '1' : '0' },
  })
  if (r.error) throw r.error
  if (r.status !== 0) throw new Error(`bench/http.ts child failed (${r.status ?? r.signal})`)
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '') as { rows: Sample[]; summary: string }
}

interface Server {
  port: number
  stop(): Promise<void>
}

function startServer(kind: 'baseline' | 'sandbox', dataFile?: string): Promise<Server> {
  const node = [
    process.execPath,
    '--import',
    'tsx',
    serversFile,
    '--serve',
    kind,
    ...(dataFile ? [dataFile] : []),
  ]
  const [cmd, ...args] = (pinned ? ['taskset', '-c', '0', ...node] : node) as [string, ...string[]]
  const child: ChildProcess = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code}) before listening`)))
    child.stdout?.on('data', (chunk) => {
      out += chunk
      const port = /PORT (\d+)/.exec(out)?.[1]
      if (!port) return
      child.removeAllListeners('exit')
      resolve({
        port: Number(port),
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done())
            child.kill('SIGTERM')
          }),
      })
    })
  })
}

const post = async (port: number, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const r = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  return (await r.json()) as Record<string, string>
}

const statusBody = (paymentId: string) =>
  JSON.stringify({
    merchant_key: BENCH_KEY,
    payment_id: paymentId,
    hash: checkoutSignatures.paymentOperation(paymentId, BENCH_PASSWORD),
  })

/** A paid payment on the sandbox, through its own API, for the status lookups. */
async function payOnce(port: number): Promise<string> {
  // docs/rules.md#hosted-payment-fields: the session-token request requires return_url.
  const { token } = await post(port, '/api/v1/session/token', {
    ...JSON.parse(SESSION),
    return_url: 'https://shop.example/return',
  })
  const paid = await post(
    port,
    '/api/v1/processing/purchase/card',
    { card_number: '4111111111111111', card_exp_month: '01', card_exp_year: '2030', card_cvv2: '123' },
    { token: token ?? '' },
  )
  if (!paid.payment_id) throw new Error(`bench: paying failed: ${JSON.stringify(paid)}`)
  return paid.payment_id
}

interface Measure {
  name: string
  ops: number
  result: LoadResult
}

async function measure(name: string, port: number, path: string, body: string): Promise<Measure> {
  const load = { port, method: 'POST', path, body, connections: CONNECTIONS, maxMs: MAX_MS }
  await runLoad({ ...load, requests: WARM_UP })
  const result = await runLoad({ ...load, requests: REQUESTS })
  if (result.errors)
    throw new Error(`bench ${name}: ${result.errors} failed requests, first: ${result.firstError}`)
  return { name, ops: (result.latencies.length * 1000) / result.elapsedMs, result }
}

/** Of several rounds, the one with the best throughput: noise only ever slows a run down. */
const best = (runs: Measure[]) => runs.reduce((a, b) => (b.ops > a.ops ? b : a))

async function fillPayments(file: string, count: number) {
  const store = await createLowdbStore<Collections>({ file, indexes: STORE_INDEXES })
  for (let i = 0; i < count; i++) {
    store.put('payments', storedPayment(i))
    if (i % 1000 === 999) await store.flush()
  }
  await store.close()
}

function storedPayment(i: number): Payment {
  const id = `0b7c3f5e-8a4d-4c1e-9f2a-${String(i).padStart(12, '0')}`
  return {
    id,
    api: 'checkout',
    merchant_key: BENCH_KEY,
    mid_id: 'demo-mid',
    session_id: `1c9a6e2b-3f4d-4b8e-a7c5-${String(i).padStart(12, '0')}`,
    operation: 'purchase',
    method: 'card',
    order_id: `order-${i}`,
    order: {
      number: `order-${i}`,
      amount: '125.50',
      currency: 'USD',
      description: `Order ${i} `.padEnd(120, '.'),
    },
    status: 'settled',
    auth: false,
    amount_captured: '125.50',
    amount_refunded: '0.00',
    financial_day: '2026-01-01',
    card: {
      masked: '411111******1111',
      bin: '411111',
      last4: '1111',
      brand: 'visa',
      exp_month: '01',
      exp_year: '2030',
    },
    payer: { first_name: 'Ada', last_name: 'Lovelace', email: `payer${i}@example.com`, country: 'GB' },
    custom_data: { cart: 'x'.repeat(250) },
    customer_ip: '203.0.113.7',
    created_at: 1_767_225_600_000 + i,
    updated_at: 1_767_225_600_000 + i,
  }
}

const row = (m: Measure): Sample => ({
  name: `${m.name} (${Math.round(m.ops)}/s)`,
  runs: m.result.latencies.length,
  medianMs: percentile(m.result.latencies, 0.5),
  p90Ms: percentile(m.result.latencies, 0.9),
})
const p99 = (m: Measure) => percentile(m.result.latencies, 0.99)

async function child(rounds: number): Promise<{ rows: Sample[]; summary: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'paysandbox-bench-http-'))
  try {
    const runs: Record<string, Measure[]> = {}
    const keep = (m: Measure) => {
      runs[m.name] = [...(runs[m.name] ?? []), m]
    }
    for (let round = 0; round < rounds; round++) {
      const base = await startServer('baseline')
      keep(await measure('create, baseline', base.port, '/api/v1/session', SESSION))
      keep(
        await measure(
          'status, baseline',
          base.port,
          '/api/v1/payment/status',
          statusBody(BASELINE_PAYMENT_ID),
        ),
      )
      await base.stop()
      const sandbox = await startServer('sandbox')
      keep(await measure('create, sandbox', sandbox.port, '/api/v1/session', SESSION))
      const paid = await payOnce(sandbox.port)
      keep(await measure('status, sandbox', sandbox.port, '/api/v1/payment/status', statusBody(paid)))
      await sandbox.stop()
    }
    const full = join(dir, 'full.json')
    await fillPayments(full, 100_000)
    for (let round = 0; round < rounds; round++) {
      const empty = await startServer('sandbox', join(dir, `empty-${round}.json`))
      keep(await measure('create, lowdb empty', empty.port, '/api/v1/session', SESSION))
      await empty.stop()
      const loaded = await startServer('sandbox', full)
      keep(await measure('create, lowdb 100k', loaded.port, '/api/v1/session', SESSION))
      await loaded.stop()
    }
    const m = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, best(v)])) as Record<
      string,
      Measure
    >
    const get = (name: string) => m[name] as Measure
    const ratio = (a: string, b: string) => fmt(get(a).ops / get(b).ops)
    const summary = [
      `session create: sandbox ${Math.round(get('create, sandbox').ops)}/s vs baseline ${Math.round(get('create, baseline').ops)}/s = ${ratio('create, sandbox', 'create, baseline')}x (target >= 0.8); p99 ${fmt(p99(get('create, sandbox')))} ms (target < 20; baseline ${fmt(p99(get('create, baseline')))} ms)`,
      `     status lookup: sandbox ${Math.round(get('status, sandbox').ops)}/s vs baseline ${Math.round(get('status, baseline').ops)}/s = ${ratio('status, sandbox', 'status, baseline')}x (target >= 0.8); p99 ${fmt(p99(get('status, sandbox')))} ms (target < 20; baseline ${fmt(p99(get('status, baseline')))} ms)`,
      `     lowdb session create: 100,000 payments ${Math.round(get('create, lowdb 100k').ops)}/s vs empty ${Math.round(get('create, lowdb empty').ops)}/s = ${ratio('create, lowdb 100k', 'create, lowdb empty')}x (target >= 0.8); p99 ${fmt(p99(get('create, lowdb 100k')))} ms`,
      `     ${CONNECTIONS} keep-alive connections, ${REQUESTS} requests after ${WARM_UP} of warm-up, best of ${rounds} rounds; server ${pinned ? 'pinned to one core, load generator on another' : 'not pinned (one core or no taskset)'}`,
    ].join('\n')
    return { rows: Object.values(m).map(row), summary }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === '--child') {
  console.log(JSON.stringify(await child(Number(process.argv[3] ?? 2))))
}
