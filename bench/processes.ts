/**
 * The server processes the load benchmarks start (bench/sustained.ts, bench/pressure.ts,
 * bench/streams.ts): `paysandbox serve` as users start it (the built binary of PAYSANDBOX_BENCH_ROOT,
 * default this checkout) and the bounded baseline (bench/http-servers.ts), each pinned to core 0
 * when the machine has two, so that the load generator can have core 1 to itself.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const here = fileURLToPath(new URL('.', import.meta.url))
/** The package whose binary is measured: PAYSANDBOX_BENCH_ROOT (another checkout's build), else this one. */
export const root = resolve(process.env.PAYSANDBOX_BENCH_ROOT ?? join(here, '..'))
/** Servers on core 0, the load generator on core 1 (`taskset`, when the machine has two cores). */
export const pinned = availableParallelism() > 1 && spawnSync('taskset', ['-c', '0', 'true']).status === 0
let nextPort = Number(process.env.PAYSANDBOX_BENCH_PORT ?? 0)

export interface Running {
  port: number
  pid: number
  stop(): Promise<void>
}

/** Moves this process (the load generator) to core 1, away from the servers. */
export function pinLoadGenerator(): void {
  if (pinned) spawnSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' })
}

export function requireBuild(): void {
  if (!existsSync(join(root, 'dist/cli/bundle/main.js')))
    throw new Error(`bench: ${root} has no build: run npm run build first`)
}

/** PAYSANDBOX_BENCH_PORT and the ports after it, else one the system picks. */
export async function freePort(): Promise<number> {
  if (nextPort) return nextPort++
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise<void>((done) => server.close(() => done()))
  return port
}

export function spawnPinned(args: string[], cwd: string, core = 0): ChildProcess {
  const [cmd, ...rest] = (pinned ? ['taskset', '-c', String(core), ...args] : args) as [string, ...string[]]
  return spawn(cmd, rest, { cwd, stdio: ['ignore', 'ignore', 'inherit'] })
}

const stopper = (child: ChildProcess) => () =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done()
    child.once('exit', () => done())
    child.kill('SIGTERM')
  })

async function waitAnswering(port: number, path: string, child: ChildProcess, limitMs: number) {
  const until = Date.now() + limitMs
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited (${child.exitCode})`)
    try {
      const r = await fetch(`http://127.0.0.1:${port}${path}`)
      await r.arrayBuffer()
      if (r.ok || path === '/') return
    } catch {}
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`server on ${port} not ready after ${limitMs} ms`)
}

/**
 * `paysandbox serve` as a user starts it, plus `extra` options, under `node` with `nodeArgs`
 * (`--cpu-prof`, for instance). Resolves once it answers health.
 */
export async function startSandbox(
  extra: string[] = [],
  nodeArgs: string[] = [],
): Promise<Running & { readyMs: number }> {
  const port = await freePort()
  const started = Date.now()
  const child = spawnPinned(
    [
      process.execPath,
      ...nodeArgs,
      join(root, 'bin/paysandbox.js'),
      'serve',
      '--port',
      String(port),
      ...extra,
    ],
    root,
  )
  await waitAnswering(port, '/sandbox/health', child, 120_000)
  return { port, pid: child.pid as number, stop: stopper(child), readyMs: Date.now() - started }
}

/** A baseline of bench/http-servers.ts (`baseline`: express; `floor`: node alone), which has no health route: any answer will do. */
export async function startBaseline(
  kind: 'baseline' | 'floor' = 'baseline',
  nodeArgs: string[] = [],
): Promise<Running> {
  const port = await freePort()
  const child = spawnPinned(
    [
      process.execPath,
      ...nodeArgs,
      '--import',
      'tsx',
      join(here, 'http-servers.ts'),
      '--serve',
      kind,
      String(port),
    ],
    join(here, '..'),
  )
  await waitAnswering(port, '/', child, 60_000)
  return { port, pid: child.pid as number, stop: stopper(child) }
}

export const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : Number.NaN
}

/** CPU seconds (user + system) the process has used so far. */
export const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) / 100
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))
