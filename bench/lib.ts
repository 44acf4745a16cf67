import { spawnSync } from 'node:child_process'

export interface Sample {
  name: string
  runs: number
  medianMs: number
  p90Ms: number
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0

/** Runs a command `runs` times (after one warm-up) and reports wall-clock median and p90. */
export function timeCommand(name: string, cmd: string, args: string[], runs: number): Sample {
  const times: number[] = []
  for (let i = 0; i <= runs; i++) {
    const start = process.hrtime.bigint()
    const r = spawnSync(cmd, args, { stdio: 'ignore' })
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    if (r.error) throw r.error
    if (i > 0) times.push(ms)
  }
  times.sort((a, b) => a - b)
  return { name, runs, medianMs: quantile(times, 0.5), p90Ms: quantile(times, 0.9) }
}

export const fmt = (n: number) => n.toFixed(n < 10 ? 2 : 1)
