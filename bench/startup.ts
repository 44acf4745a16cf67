import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fmt, type Sample } from './lib.js'

/**
 * Issue 15: start-up of the built CLI against `node -e ''` measured in the same run, rounds
 * interleaved (one of each per round) so that load from elsewhere falls on all of them alike.
 *   serve     spawn until GET /sandbox/health answers 200   target within 4x
 *   validate  `validate session examples/order.json`          target within 3x
 *   --help    `paysandbox --help`                             target within 2x
 */
const ROOT = join(import.meta.dirname, '..')
const BIN = join(ROOT, 'bin', 'paysandbox.js')
const TARGETS = { serve: 4, validate: 3, help: 2 } as const

function timeSync(args: string[]): number {
  const start = process.hrtime.bigint()
  const r = spawnSync(process.execPath, args, { stdio: 'ignore', cwd: ROOT })
  if (r.error) throw r.error
  return Number(process.hrtime.bigint() - start) / 1e6
}

/** Spawn to the first 200 of /sandbox/health: the port comes from the banner, then health is polled. */
async function timeServe(): Promise<number> {
  const start = process.hrtime.bigint()
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  let out = ''
  try {
    const base = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c) => {
        out += c
        const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
        if (url) resolve(url)
      })
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)))
    })
    for (;;) {
      const ok = await fetch(`${base}/sandbox/health`).then(
        (r) => r.status === 200,
        () => false,
      )
      if (ok) return Number(process.hrtime.bigint() - start) / 1e6
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
const p90 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))] ?? 0

export async function benchStartup(rounds = 11): Promise<{ rows: Sample[]; summary: string }> {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'bundle', 'main.js')))
    throw new Error('startup bench: run `npm run build` first')
  const order = join(ROOT, 'examples', 'order.json')
  const times = {
    node: [] as number[],
    help: [] as number[],
    validate: [] as number[],
    serve: [] as number[],
  }
  // One warm-up round (file cache), then the measured ones.
  for (let round = 0; round <= rounds; round++) {
    const node = timeSync(['-e', ''])
    const help = timeSync([BIN, '--help'])
    const validate = timeSync([BIN, 'validate', 'session', order])
    const serve = await timeServe()
    if (round === 0) continue
    times.node.push(node)
    times.help.push(help)
    times.validate.push(validate)
    times.serve.push(serve)
  }
  const sample = (name: string, xs: number[]): Sample => ({
    name,
    runs: xs.length,
    medianMs: median(xs),
    p90Ms: p90(xs),
  })
  const base = median(times.node)
  const line = (label: string, key: keyof typeof TARGETS) => {
    const ratio = median(times[key]) / base
    return `${label} ${fmt(median(times[key]))} ms = ${fmt(ratio)}x (target ${TARGETS[key]}x: ${ratio <= TARGETS[key] ? 'met' : 'NOT met'})`
  }
  return {
    rows: [
      sample("node -e ''", times.node),
      sample('paysandbox --help', times.help),
      sample('paysandbox validate session', times.validate),
      sample('paysandbox serve until health 200', times.serve),
    ],
    summary: [
      `against node -e '' ${fmt(base)} ms (medians of ${rounds} interleaved rounds):`,
      `     ${line('--help', 'help')}`,
      `     ${line('validate', 'validate')}`,
      `     ${line('serve ready', 'serve')}`,
    ].join('\n'),
  }
}
