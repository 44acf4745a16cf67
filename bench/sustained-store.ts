/**
 * The store parts of the sustained benchmark (bench/sustained.ts): `memory` (retention off: RSS
 * and heap per stored session), `lowdb` (creates with `--data FILE`, then a restart on a large
 * file and lookups on it against a small one), `retention` (`--retain 2000`, sales whose
 * callbacks go nowhere, then the CPU used idle).
 */
import { existsSync, statSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { createLowdbStore } from '../src/adapters/index.js'
import { serve } from '../src/adapters/serve.js'
import type { Collections, Payment, Session } from '../src/core/engine/model.js'
import { STORE_INDEXES } from '../src/core/engine/model.js'
import { silentLogger } from '../src/core/ports/logger.js'
import { checkoutSignatures } from '../src/core/signatures/index.js'
import { BENCH_KEY, BENCH_ORDER as order, BENCH_PASSWORD, BENCH_SESSION as SESSION } from './http-servers.js'
import { cpuSeconds, here, root, rssMb, startSandbox } from './processes.js'
import { type LoadWindow, load } from './wrk.js'

/** What a part prints; `miss` marks a target missed (a line starting with "!!", exit code 1). */
export interface Report {
  say(line: string): void
  miss(line: string): void
}

export const WINDOWS = 6
const JSON_HEADERS = { 'content-type': 'application/json' }
const fmt = (n: number, digits = 2) => n.toFixed(digits)
type Window = LoadWindow & { rssMb: number }

const post = async (port: number, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const r = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(body),
  })
  return (await r.json()) as Record<string, string>
}

async function sale(port: number, i: number): Promise<string> {
  const o = { ...order, number: `sale-${i}` }
  const { token } = await post(port, '/api/v1/session/token', {
    ...JSON.parse(SESSION),
    order: o,
    hash: checkoutSignatures.session(o, BENCH_PASSWORD),
    return_url: 'https://shop.example/return',
  })
  const paid = await post(
    port,
    '/api/v1/processing/purchase/card',
    { card_number: '4111111111111111', card_exp_month: '01', card_exp_year: '2030', card_cvv2: '123' },
    { token: token ?? '' },
  )
  if (!paid.payment_id) throw new Error(`bench: a sale failed: ${JSON.stringify(paid)}`)
  return paid.payment_id
}

const getJson = async (port: number, path: string) =>
  (await (await fetch(`http://127.0.0.1:${port}${path}`)).json()) as Record<string, unknown>

export const table = (say: (line: string) => void, rows: string[][]) => {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? []
  for (const r of rows) say(`  ${r.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ')}`)
}

export async function partMemory({ say, miss }: Report, seconds: number) {
  say(
    `\n### memory: session create with retention off (--retain 10000000, the most it takes), ${fmt(seconds, 0)} s`,
  )
  const sandbox = await startSandbox(['--retain', '10000000'])
  try {
    const before = rssMb(sandbox.pid)
    const w = seconds / WINDOWS
    const rows: string[][] = [['window', 'sandbox/s', 'p99 ms', 'RSS MB']]
    let created = 0
    const windows: Window[] = []
    for (let i = 0; i < WINDOWS; i++) {
      const s = await load(sandbox.port, w, { path: '/api/v1/session', body: SESSION })
      created += s.ok
      windows.push({ ...s, rssMb: rssMb(sandbox.pid) })
      rows.push([String(i + 1), fmt(s.rps, 0), String(s.p99), fmt(rssMb(sandbox.pid), 0)])
    }
    table(say, rows)
    const after = rssMb(sandbox.pid)
    const perSession = ((after - before) * 1024) / created
    say(
      `  => ${created} sessions stored; RSS ${fmt(before, 0)} -> ${fmt(after, 0)} MB: ${fmt(perSession, 2)} KB of RSS per session (heap slack included); last/first window ${fmt((windows.at(-1) as Window).rps / (windows[0] as Window).rps)}x`,
    )
  } finally {
    await sandbox.stop()
  }
  // The heap each record takes, after a full collection, in a process of its own (no HTTP).
  const sessions = Math.round(30_000 * Math.min(1, seconds / 60))
  const sales = Math.round(sessions / 5)
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(here, 'memory-child.ts'), root, String(sessions), String(sales)],
    { cwd: join(here, '..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 900_000 },
  )
  const m = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as {
    kbPerSession: number
    kbPerSale: number
  }
  say(
    `  => heap after a full GC, ${sessions} sessions then ${sales} paid sales through gateway.handle: ${fmt(m.kbPerSession)} KB per open session (target <= 5.5), ${fmt(m.kbPerSale)} KB per sale (session, payment, transaction, callback)`,
  )
  if (!(m.kbPerSession <= 5.5)) miss(`memory: ${fmt(m.kbPerSession)} KB per stored session`)
}

/**
 * A lowdb file of `sessions` sessions, the first `payments` of them paid: copies (new ids, tokens
 * and order numbers) of one open session and one paid sale the engine made itself, in-process.
 */
async function fillFile(file: string, sessions: number, payments: number) {
  const model = await serve({ port: 0, logger: silentLogger, retain: 10 })
  const port = (model.server.address() as { port: number }).port
  await sale(port, 0)
  const store = model.gateway.ctx.store
  const paid = store.list('payments')[0] as Payment
  const paidSession = store.get('sessions', paid.session_id as string) as Session
  const transactions = store.findBy('transactions', 'payment_id', paid.id)
  await post(port, '/api/v1/session', JSON.parse(SESSION))
  const open = store.list('sessions').find((s) => s.status === 'open') as Session
  await model.close()

  const out = await createLowdbStore<Collections>({ file, indexes: STORE_INDEXES })
  const t0 = Date.now() - sessions
  for (let i = 0; i < sessions; i++) {
    const n = String(i).padStart(12, '0')
    const sessionId = `1c9a6e2b-3f4d-4b8e-a7c5-${n}`
    const at = t0 + i
    if (i < payments) {
      const paymentId = `0b7c3f5e-8a4d-4c1e-9f2a-${n}`
      const number = `order-${i}`
      const order = { ...paid.order, number }
      out.put('sessions', {
        ...paidSession,
        id: sessionId,
        token: `tok${n}`,
        page_token: `page${n}`,
        payment_id: paymentId,
        request: { ...paidSession.request, order },
        created_at: at,
      })
      out.put('payments', {
        ...paid,
        id: paymentId,
        session_id: sessionId,
        order_id: number,
        order,
        created_at: at,
        updated_at: at,
      })
      for (const [k, t] of transactions.entries())
        out.put('transactions', { ...t, id: `${paymentId}-t${k}`, payment_id: paymentId })
    } else
      out.put('sessions', {
        ...open,
        id: sessionId,
        token: `tok${n}`,
        page_token: `page${n}`,
        created_at: at,
        expires_at: at + 3_600_000,
      })
    if (i % 5000 === 4999) await out.flush()
  }
  await out.close()
}

export async function partLowdb({ say, miss }: Report, seconds: number, dir: string) {
  say(`\n### lowdb: session create with --data FILE, ${fmt(seconds, 0)} s`)
  const file = join(dir, 'sustained.json')
  const sandbox = await startSandbox(['--data', file])
  const windows: Window[] = []
  try {
    const w = seconds / WINDOWS
    const rows: string[][] = [['window', 'sandbox/s', 'p99 ms', 'RSS MB', 'file MB']]
    for (let i = 0; i < WINDOWS; i++) {
      const s = await load(sandbox.port, w, { path: '/api/v1/session', body: SESSION })
      windows.push({ ...s, rssMb: rssMb(sandbox.pid) })
      if (s.bad) miss(`lowdb window ${i + 1}: ${s.bad} requests failed`)
      rows.push([
        String(i + 1),
        fmt(s.rps, 0),
        String(s.p99),
        fmt(rssMb(sandbox.pid), 0),
        fmt(existsSync(file) ? statSync(file).size / 2 ** 20 : 0, 1),
      ])
    }
    table(say, rows)
  } finally {
    await sandbox.stop()
  }
  const first = windows[0] as Window
  const last = windows.at(-1) as Window
  const created = windows.reduce((n, x) => n + x.ok, 0)
  say(`  => ${created} sessions written; last/first window ${fmt(last.rps / first.rps)}x (target >= 0.9)`)
  if (last.rps < 0.9 * first.rps) miss(`lowdb: the last window is ${fmt(last.rps / first.rps)}x the first`)

  say('\n### lowdb restart and lookups: 200,000 sessions and 50,000 payments stored')
  const full = join(dir, 'full.json')
  await fillFile(full, 200_000, 50_000)
  const loaded = await startSandbox(['--data', full])
  const empty = await startSandbox(['--data', join(dir, 'empty.json')])
  try {
    say(
      `  restart on ${fmt(statSync(full).size / 2 ** 20, 0)} MB: ready (health answers) in ${loaded.readyMs} ms; empty file: ${empty.readyMs} ms; RSS ${fmt(rssMb(loaded.pid), 0)} MB`,
    )
    // The small store's own records: 20 paid sales, so that both listings answer a page of 20
    // records (one sale made the small store's page a twentieth of the full one's).
    const emptyPaid = await sale(empty.port, 1)
    for (let i = 2; i <= 20; i++) await sale(empty.port, i)
    const statusById = (id: string) =>
      JSON.stringify({
        merchant_key: BENCH_KEY,
        payment_id: id,
        hash: checkoutSignatures.paymentOperation(id, BENCH_PASSWORD),
      })
    const statusByOrder = (orderId: string) =>
      JSON.stringify({
        merchant_key: BENCH_KEY,
        order_id: orderId,
        hash: checkoutSignatures.statusByOrder(orderId, BENCH_PASSWORD),
      })
    const lookups: [string, (full: boolean) => { method?: string; path: string; body?: string }][] = [
      [
        'status by payment id',
        (f) => ({
          path: '/api/v1/payment/status',
          body: statusById(f ? '0b7c3f5e-8a4d-4c1e-9f2a-000000025000' : emptyPaid),
        }),
      ],
      [
        'status by order id',
        (f) => ({ path: '/api/v1/payment/status', body: statusByOrder(f ? 'order-25000' : 'sale-1') }),
      ],
      ['listing, newest 20', () => ({ method: 'GET', path: '/sandbox/payments?per_page=20' })],
      ['listing, by status', () => ({ method: 'GET', path: '/sandbox/payments?status=settled&per_page=20' })],
    ]
    // Per lookup, w seconds on each store, in alternating slices of about a second after a warm-up
    // of each (its route compiled): both stores see the same machine, whose other jobs change its
    // speed from one second to the next (one window after the other measured that drift instead:
    // the same store answered 530 to 1,450 listings/s in consecutive 5-s windows).
    const w = Math.max(2, seconds / 12)
    const slices = Math.max(2, Math.round(w))
    const rows: string[][] = [
      ['lookup', 'stored/s', 'p99 ms*', 'CPU us', 'small/s', 'p99 ms*', 'CPU us', 'ratio', 'CPU ratio'],
    ]
    for (const [name, request] of lookups) {
      const a = { rps: 0, p99: 0, ok: 0, bad: 0, cpu: 0 }
      const b = { rps: 0, p99: 0, ok: 0, bad: 0, cpu: 0 }
      await load(loaded.port, 1, request(true))
      await load(empty.port, 1, request(false))
      for (let j = 0; j < slices; j++)
        for (const [server, full, into] of [
          [loaded, true, a],
          [empty, false, b],
        ] as const) {
          const cpu0 = cpuSeconds(server.pid)
          const r = await load(server.port, w / slices, request(full))
          into.cpu += cpuSeconds(server.pid) - cpu0
          into.rps += r.rps / slices
          into.p99 = Math.max(into.p99, r.p99)
          into.ok += r.ok
          into.bad += r.bad
        }
      if (a.bad || b.bad) miss(`${name}: ${a.bad} + ${b.bad} requests failed`)
      // The server's CPU time per answer (all its threads, the collector's included): what the
      // machine's other jobs change least (the rate also depends on the CPU they leave it).
      const cpuA = (a.cpu / a.ok) * 1e6
      const cpuB = (b.cpu / b.ok) * 1e6
      rows.push([
        name,
        fmt(a.rps, 0),
        String(a.p99),
        fmt(cpuA, 0),
        fmt(b.rps, 0),
        String(b.p99),
        fmt(cpuB, 0),
        `${fmt(a.rps / b.rps)}x`,
        `${fmt(cpuB / cpuA)}x`,
      ])
      if (a.rps < 0.9 * b.rps) miss(`${name}: ${fmt(a.rps / b.rps)}x the small store's rate (target >= 0.9)`)
    }
    table(say, rows)
    say(
      `  (${slices} alternating slices per store and lookup; * the highest p99 of the slices; CPU us: the server's CPU time per answer, and its ratio small / stored)`,
    )
  } finally {
    await loaded.stop()
    await empty.stop()
  }
}

export async function partRetention({ say, miss }: Report, scale: number, idleSeconds: number) {
  const retain = Math.round(2000 * scale)
  const sales = retain * 3
  say(
    `\n### retention: --retain ${retain}, ${sales} card sales, callbacks to the demo merchant's localhost:3000 (nothing answers)`,
  )
  const sandbox = await startSandbox(['--retain', String(retain)])
  try {
    let next = 0
    const started = Date.now()
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < sales) await sale(sandbox.port, next++)
      }),
    )
    const elapsed = (Date.now() - started) / 1000
    await new Promise((r) => setTimeout(r, 1000))
    const payments = Number((await getJson(sandbox.port, '/sandbox/payments?per_page=1')).total)
    const callbacks = await getJson(sandbox.port, '/sandbox/callbacks?per_page=1')
    const health = await getJson(sandbox.port, '/sandbox/health')
    say(
      `  ${sales} sales in ${fmt(elapsed, 1)} s; payments kept ${payments} (${fmt(payments / retain)}x retain, target <= 1.05x); callbacks kept ${String(callbacks.total)}; RSS ${fmt(rssMb(sandbox.pid), 0)} MB`,
    )
    say(`  health: ${JSON.stringify(health)}`)
    if (!(payments <= retain * 1.05)) miss(`retention: ${payments} payments kept with --retain ${retain}`)
    const cpu0 = cpuSeconds(sandbox.pid)
    await new Promise((r) => setTimeout(r, idleSeconds * 1000))
    const idle = cpuSeconds(sandbox.pid) - cpu0
    say(`  idle ${idleSeconds} s after the sales: ${fmt(idle)} CPU-seconds used by the server`)
    if (idle > idleSeconds * 0.05) miss(`retention: ${fmt(idle)} CPU-seconds in ${idleSeconds} s of idle`)
  } finally {
    await sandbox.stop()
  }
}
