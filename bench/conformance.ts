import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fmt, type Sample } from './lib.js'

/**
 * Issue 7: the whole bundled suite against the reference merchant finishes in under 20 s on a
 * 2-core machine. The CLI runs as CI runs it (a fresh process, the merchant started by the kit),
 * pinned to two CPUs with `taskset` where it exists, with two scenarios at once.
 */
const TARGET_MS = 20_000

function runSuite(
  name: string,
  args: string[],
  runs: number,
): { sample: Sample; passed: number; total: number } {
  const dir = mkdtempSync(join(tmpdir(), 'paysandbox-bench-'))
  const out = join(dir, 'report.json')
  const cli = [
    process.execPath,
    'bin/paysandbox.js',
    'test',
    ...args,
    '--concurrency',
    '2',
    '--reporter',
    'json',
    '--out',
    out,
  ]
  const pinned = spawnSync('taskset', ['-c', '0,1', 'true']).status === 0
  const [cmd, ...rest] = (pinned ? ['taskset', '-c', '0,1', ...cli] : cli) as [string, ...string[]]
  const times: number[] = []
  let report = { passed: 0, scenarios: [] as unknown[] }
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    const r = spawnSync(cmd, rest, { stdio: 'ignore', env: { ...process.env, CI: '1' } })
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
    if (r.error) throw r.error
    report = JSON.parse(readFileSync(out, 'utf8')) as typeof report
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0
  return {
    sample: { name, runs, medianMs: at(0.5), p90Ms: at(0.9) },
    passed: report.passed,
    total: report.scenarios.length,
  }
}

export function benchConformance(runs = 3): { rows: Sample[]; summary: string } {
  const merchant = runSuite(
    'suite vs reference merchant',
    ['--merchant', 'fixtures/merchants/reference.json'],
    runs,
  )
  const gateway = runSuite('suite vs built-in sandbox (gateway)', [], runs)
  const verdict = merchant.sample.medianMs < TARGET_MS ? 'within' : 'OVER'
  return {
    rows: [merchant.sample, gateway.sample],
    summary:
      `reference merchant: ${merchant.passed}/${merchant.total} passed in ${fmt(merchant.sample.medianMs / 1000)} s (median of ${runs}), ` +
      `${verdict} the ${TARGET_MS / 1000} s target on 2 CPUs; gateway mode: ${gateway.passed}/${gateway.total} in ${fmt(gateway.sample.medianMs / 1000)} s`,
  }
}
