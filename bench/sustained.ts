/**
 * Issues 22 and 32: sustained load against the server as users start it (`node bin/paysandbox.js
 * serve`, default options, after `npm run build`), with a load generator that is not the
 * bottleneck (wrk on its own core, bench/wrk.ts), in 10-s windows, beside a baseline measured in
 * the same run: express + ajv + a Map bounded as the sandbox's store is, and the same work on
 * node's HTTP server alone, the floor (bench/http-servers.ts).
 *
 *   npm run bench -- sustained                        every part at full scale (60 s of load per part)
 *   npm run bench -- sustained --parts create         the ratio to the baseline only
 *   npm run bench -- sustained --parts create --runs 3   three runs of it, and the spread
 *   npm run bench -- sustained --parts create --profile DIR   the sandbox under `node --cpu-prof`
 *   npm run bench -- sustained --seconds 30            a quicker run (windows of seconds/6)
 *
 * Parts:
 * - create: session create at 50 connections, 6 windows of `--seconds`/6 of load on each server;
 *   within a window the three servers take turns in 2-s slices, so all see the same machine. Per
 *   window: requests/s, p99, RSS and CPU time per answer of each, and the sandbox's ratio to the
 *   baseline and to the floor. Target: every window at 0.9x the baseline or better.
 * - memory, lowdb, retention: bench/sustained-store.ts.
 *
 * A line starting with "!!" says a target was missed, and the exit code is 1. Servers run pinned
 * to core 0 and the load generator to core 1 (taskset, when there are two). PAYSANDBOX_BENCH_ROOT:
 * the package whose binary is measured (default: this one). PAYSANDBOX_BENCH_PORT: the first port
 * to use (default: ports the system picks).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { BENCH_SESSION as SESSION } from './http-servers.js'
import {
  cpuSeconds,
  pinLoadGenerator,
  type Running,
  requireBuild,
  root,
  rssMb,
  startBaseline,
  startSandbox,
} from './processes.js'
import { partLowdb, partMemory, partRetention, type Report, table, WINDOWS } from './sustained-store.js'
import { CONNECTIONS, generator, type LoadWindow, load } from './wrk.js'

const SLICE_SECONDS = 2
const TARGET = 0.9
const fmt = (n: number, digits = 2) => n.toFixed(digits)

interface Window extends LoadWindow {
  rssMb: number
  /** The server's CPU seconds (all its threads) over its slices. */
  cpu: number
}

interface Server {
  name: string
  running: Running
  windows: Window[]
}

/**
 * One run of the create part: each window's ratio of the sandbox to the baseline (the target) and
 * to the floor (for information).
 */
async function partCreate(
  { say, miss }: Report,
  seconds: number,
  profile: string | undefined,
): Promise<{ baseline: number[]; floor: number[] }> {
  const w = seconds / WINDOWS
  say(
    `\n### create: session create, ${CONNECTIONS} connections, ${WINDOWS} windows of ${fmt(w, 0)} s of load on each server (alternating ${SLICE_SECONDS}-s slices), default options`,
  )
  const servers: Server[] = [
    {
      name: 'sandbox',
      running: await startSandbox([], profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
      windows: [],
    },
    { name: 'baseline', running: await startBaseline('baseline'), windows: [] },
    { name: 'floor', running: await startBaseline('floor'), windows: [] },
  ]
  const request = { path: '/api/v1/session', body: SESSION }
  try {
    // Warm-up (not counted): every server's code compiled before the first window.
    for (const server of servers) await load(server.running.port, SLICE_SECONDS, request)
    const slices = Math.max(1, Math.round(w / SLICE_SECONDS))
    for (let i = 0; i < WINDOWS; i++) {
      for (const server of servers) server.windows.push({ rps: 0, p99: 0, ok: 0, bad: 0, rssMb: 0, cpu: 0 })
      for (let j = 0; j < slices; j++) {
        // Which server goes first turns too: none always runs after the same other one.
        for (let k = 0; k < servers.length; k++) {
          const server = servers[(j + k) % servers.length] as Server
          const into = server.windows[i] as Window
          const cpu0 = cpuSeconds(server.running.pid)
          const r = await load(server.running.port, w / slices, request)
          into.cpu += cpuSeconds(server.running.pid) - cpu0
          into.rps += r.rps / slices
          into.p99 = Math.max(into.p99, r.p99)
          into.ok += r.ok
          into.bad += r.bad
        }
      }
      for (const server of servers) (server.windows[i] as Window).rssMb = rssMb(server.running.pid)
      const bad = servers[0]?.windows[i]?.bad ?? 0
      if (bad) miss(`window ${i + 1}: ${bad} sandbox requests failed`)
    }
  } finally {
    for (const server of servers) await server.running.stop()
  }
  const [sandbox, base, floor] = servers as [Server, Server, Server]
  const ratio = (other: Server) => sandbox.windows.map((win, i) => win.rps / (other.windows[i]?.rps ?? 1))
  const ratios = { baseline: ratio(base), floor: ratio(floor) }
  const cells = (win: Window) => [
    fmt(win.rps, 0),
    String(win.p99),
    fmt(win.rssMb, 0),
    fmt((win.cpu / win.ok) * 1e6, 0),
  ]
  const head = (name: string) => [`${name}/s`, 'p99 ms*', 'RSS MB', 'CPU us']
  table(say, [
    ['window', ...head('sandbox'), ...head('baseline'), ...head('floor'), 'ratio', 'to floor'],
    ...sandbox.windows.map((win, i) => [
      String(i + 1),
      ...cells(win),
      ...cells(base.windows[i] as Window),
      ...cells(floor.windows[i] as Window),
      `${fmt(ratios.baseline[i] ?? 0)}x`,
      `${fmt(ratios.floor[i] ?? 0)}x`,
    ]),
  ])
  say(
    "  (* the highest p99 of the window's slices; CPU us: the server's CPU time per answer, all its threads; baseline: express + ajv + a Map bounded like the sandbox's store; floor: the same on node's HTTP server alone)",
  )
  const perAnswer = (server: Server) => {
    const cpu = server.windows.reduce((n, win) => n + win.cpu, 0)
    const ok = server.windows.reduce((n, win) => n + win.ok, 0)
    return (cpu / ok) * 1e6
  }
  say(
    `  => CPU per answer over the run: sandbox ${fmt(perAnswer(sandbox), 0)} us, baseline ${fmt(perAnswer(base), 0)} us, floor ${fmt(perAnswer(floor), 0)} us`,
  )
  say(
    `  => ratio to the baseline per window ${ratios.baseline.map((r) => `${fmt(r)}x`).join(', ')}; lowest ${fmt(Math.min(...ratios.baseline))}x (target: every window >= ${TARGET}x); to the floor ${ratios.floor.map((r) => `${fmt(r)}x`).join(', ')}`,
  )
  for (const [i, r] of ratios.baseline.entries())
    if (r < TARGET) miss(`create: window ${i + 1} is ${fmt(r)}x the baseline's rate`)
  if (profile) say(`  the sandbox's CPU profile (node --cpu-prof): ${profile}`)
  return ratios
}

export interface SustainedOptions {
  seconds: number
  parts: string[]
  /** Runs of the create part (the spread of its ratios). */
  runs: number
  /** A directory for the sandbox's CPU profile in the create part. */
  profile?: string
}

export async function benchSustained(options: SustainedOptions): Promise<number> {
  requireBuild()
  pinLoadGenerator()
  let missed = 0
  const report: Report = {
    say: (line) => console.log(line),
    miss: (line) => {
      missed++
      console.log(`!! ${line}`)
    },
  }
  report.say(`sustained load against ${join(root, 'bin/paysandbox.js')} serve; ${generator()}`)
  const dir = mkdtempSync(join(tmpdir(), 'paysandbox-bench-sustained-'))
  const { seconds, parts } = options
  try {
    if (parts.includes('create')) {
      const all = { baseline: [] as number[], floor: [] as number[] }
      for (let run = 0; run < options.runs; run++) {
        if (options.profile) mkdirSync(options.profile, { recursive: true })
        const ratios = await partCreate(report, seconds, options.profile)
        all.baseline.push(...ratios.baseline)
        all.floor.push(...ratios.floor)
      }
      const spread = (list: number[]) =>
        `from ${fmt(Math.min(...list))}x to ${fmt(Math.max(...list))}x, median ${fmt([...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0)}x`
      if (options.runs > 1)
        report.say(
          `\n  create, ${options.runs} runs: window ratios to the baseline ${spread(all.baseline)}; to the floor ${spread(all.floor)}`,
        )
    }
    if (parts.includes('memory')) await partMemory(report, seconds)
    if (parts.includes('lowdb')) await partLowdb(report, seconds, dir)
    if (parts.includes('retention'))
      await partRetention(report, Math.min(1, seconds / 60), Math.min(30, seconds / 2))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  report.say(missed ? `\n!! ${missed} target(s) missed` : '\nall sustained targets met')
  return missed
}

const ALL_PARTS = ['create', 'memory', 'lowdb', 'retention']

/** `--seconds N`, `--parts a,b`, `--runs N`, `--profile DIR` from the command line. */
export function sustainedOptions(argv: string[]): SustainedOptions {
  const value = (name: string) => {
    const i = argv.indexOf(name)
    return i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1)
  }
  const seconds = Number(value('--seconds') ?? 60)
  if (!(seconds >= 12)) throw new Error('bench sustained: --seconds takes a number >= 12')
  const parts = (value('--parts') ?? ALL_PARTS.join(',')).split(',')
  for (const p of parts) if (!ALL_PARTS.includes(p)) throw new Error(`bench sustained: unknown part ${p}`)
  const runs = Number(value('--runs') ?? 1)
  if (!(runs >= 1)) throw new Error('bench sustained: --runs takes a number >= 1')
  const profile = value('--profile')
  return { seconds, parts, runs, ...(profile ? { profile: resolve(profile) } : {}) }
}
