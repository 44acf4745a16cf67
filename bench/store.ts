import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createLowdbStore, type LowdbStore } from '../src/adapters/index.js'
import { fmt, type Sample } from './lib.js'

/**
 * Issue: "lowdb writes are atomic and coalesced so that the cost of a write does not grow with what
 * is stored (benchmark: with 100,000 stored payments, session-create throughput is at least 0.8x
 * that of an empty store)". A session create is two puts (the session, ~1 KB, and the engine's
 * meta record) then `await flush()`, as a server answers only once its change is durable; 8 such
 * requests run at a time, so flushes coalesce as they would under load. Rounds alternate between a
 * fresh empty store and the full one, in a process of its own (a clean heap).
 */
export function benchStore(rounds = 7, opsPerRound = 2000): { rows: Sample[]; summary: string } {
  const self = fileURLToPath(import.meta.url)
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', self, '--child', String(rounds), String(opsPerRound)],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: 120_000,
    },
  )
  if (r.error) throw r.error
  if (r.status !== 0) throw new Error(`bench/store.ts child failed (${r.status ?? r.signal})`)
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '') as { rows: Sample[]; summary: string }
}

type Collections = {
  payments: { id: string } & Record<string, unknown>
  sessions: { id: string } & Record<string, unknown>
  meta: { id: string; seq: number }
}

const pad = (i: number, n: number) => `${'x'.repeat(n)}${i}`.slice(-n)

/** A Payment of engine/model.ts, about 1 KB as JSON. */
const payment = (i: number) => ({
  id: `0b7c3f5e-8a4d-4c1e-9f2a-${String(i).padStart(12, '0')}`,
  api: 'checkout',
  merchant_key: `merchant-${i % 50}`,
  mid_id: 'mid-1',
  session_id: `1c9a6e2b-3f4d-4b8e-a7c5-${String(i).padStart(12, '0')}`,
  operation: 'purchase',
  method: 'card',
  order_id: `order-${i}`,
  order: { number: `order-${i}`, amount: '125.50', currency: 'USD', description: pad(i, 120) },
  status: 'settled',
  auth: false,
  amount_captured: '125.50',
  amount_refunded: '0.00',
  financial_day: '2020-01-01',
  card: {
    masked: '411111******1111',
    bin: '411111',
    last4: '1111',
    brand: 'visa',
    exp_month: '12',
    exp_year: '2030',
  },
  payer: { first_name: 'Ada', last_name: 'Lovelace', email: `payer${i}@example.com`, country: 'GB' },
  custom_data: { cart: pad(i, 250) },
  three_ds: {
    required: true,
    outcome: 'pass',
    authenticationFlow: 'frictionless',
    attributes: { eci: '05' },
  },
  customer_ip: '203.0.113.7',
  created_at: 1_577_836_800_000 + i,
  updated_at: 1_577_836_800_000 + i,
})

/** A Session of engine/model.ts, about 1 KB as JSON. */
const session = (i: number) => ({
  id: `5d2e8f1a-6b3c-4e9d-8a7f-${String(i).padStart(12, '0')}`,
  token: pad(i, 32),
  merchant_key: `merchant-${i % 50}`,
  operation: 'purchase',
  methods: ['card', 'vcard', 'pix'],
  request: {
    order: { number: `bench-${i}`, amount: '10.00', currency: 'USD', description: pad(i, 300) },
    success_url: 'https://shop.example/success',
    cancel_url: 'https://shop.example/cancel',
    customer: { name: 'Ada Lovelace', email: `payer${i}@example.com` },
    custom_data: { note: pad(i, 250) },
  },
  hosted_fields: false,
  created_at: 1_577_836_800_000 + i,
  expires_at: 1_577_836_800_000 + i + 900_000,
  status: 'open',
})

async function createSessions(store: LowdbStore<Collections>, from: number, ops: number, concurrency = 8) {
  let next = from
  const end = from + ops
  const worker = async () => {
    while (next < end) {
      const i = next++
      store.put('sessions', session(i))
      store.put('meta', { id: 'meta', seq: i })
      await store.flush()
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6
const sample = (name: string, times: number[]): Sample => {
  const sorted = [...times].sort((a, b) => a - b)
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0
  return { name, runs: times.length, medianMs: q(0.5), p90Ms: q(0.9) }
}

async function child(rounds: number, opsPerRound: number): Promise<{ rows: Sample[]; summary: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'paysandbox-bench-store-'))
  try {
    let t = process.hrtime.bigint()
    const filling = await createLowdbStore<Collections>({ file: join(dir, 'full.json') })
    for (let i = 0; i < 100_000; i++) {
      filling.put('payments', payment(i))
      if (i % 1000 === 999) await filling.flush()
    }
    await filling.close()
    const fillMs = ms(t)
    t = process.hrtime.bigint()
    const full = await createLowdbStore<Collections>({ file: join(dir, 'full.json') })
    const openMs = ms(t)
    const bytes = full.stats().snapshotBytes
    const freshEmpty = (name: string) =>
      createLowdbStore<Collections>({ file: join(dir, `empty-${name}.json`) })

    const warm = await freshEmpty('warm-up') // JIT, file handles
    await createSessions(warm, 0, opsPerRound)
    await warm.close()
    await createSessions(full, 0, opsPerRound / 4)
    const emptyTimes: number[] = []
    const fullTimes: number[] = []
    for (let round = 0; round < rounds; round++) {
      const empty = await freshEmpty(String(round))
      t = process.hrtime.bigint()
      await createSessions(empty, 0, opsPerRound)
      emptyTimes.push(ms(t))
      await empty.close()
      t = process.hrtime.bigint()
      await createSessions(full, (round + 1) * opsPerRound, opsPerRound)
      fullTimes.push(ms(t))
    }
    const compactions: number[] = []
    for (let k = 0; k < 3; k++) {
      t = process.hrtime.bigint()
      await full.compact()
      compactions.push(ms(t))
    }
    const compactMs = sample('compaction', compactions).medianMs
    await full.close()

    const rows = [
      sample(`${opsPerRound} session creates, empty`, emptyTimes),
      sample(`${opsPerRound} session creates, 100k`, fullTimes),
    ]
    const [emptyOps, fullOps] = rows.map((r) => (opsPerRound * 1000) / r.medianMs) as [number, number]
    // The empty store's rounds include its compactions (its snapshot is small, so they come often);
    // the full store's journal is folded in once it outgrows the 100k snapshot, so its share of
    // that compaction is added per write: compactMs * (bytes a create writes / snapshot bytes).
    const createBytes = JSON.stringify(session(0)).length + 120
    const amortisedMs = (compactMs * createBytes) / bytes
    const fullAmortisedOps = 1000 / (1000 / fullOps + amortisedMs)
    const summary =
      `session create: empty store ${Math.round(emptyOps)} ops/s; with 100,000 payments ${Math.round(fullOps)} ops/s, ` +
      `${Math.round(fullAmortisedOps)} ops/s counting its compaction (median ${fmt(compactMs)} ms of ${compactions.map((c) => fmt(c)).join(', ')}, once per ${fmt(bytes / 1e6)} MB written). ` +
      `Ratio ${fmt(fullOps / emptyOps)}, ${fmt(fullAmortisedOps / emptyOps)} with compaction (target >= 0.8). ` +
      `Filling 100k payments: ${fmt(fillMs / 1000)} s; reopening them: ${fmt(openMs)} ms`
    return { rows, summary }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === '--child') {
  const [rounds, ops] = process.argv.slice(3).map(Number)
  console.log(JSON.stringify(await child(rounds ?? 7, ops ?? 2000)))
}
