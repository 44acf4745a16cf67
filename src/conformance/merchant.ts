import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, resolve } from 'node:path'
import { formatFieldError, validate } from '../core/validation/index.js'
import type { SandboxMerchantAdapter, SandboxMerchantAdapterCommandHook } from '../generated/types.js'
import { type Declaration, declarationOf } from './contract.js'
import type { RecordedRequest } from './curl.js'

/**
 * The merchant adapter (docs/conformance.md): starts the integration when asked, and calls its
 * test hooks. What the integration answers is returned as it came; judging it is the steps' job.
 */

/** The adapter file is wrong: a usage error (exit 2). */
export class AdapterError extends Error {}
/** The merchant cannot be started or reached: an infrastructure error (exit 3). */
export class MerchantUnreachable extends Error {}

export interface HookAnswer {
  status: number
  body: unknown
  text: string
  request?: RecordedRequest
}

export interface MerchantClient {
  name: string
  baseUrl: string
  notificationUrl: string
  credentials: { merchant_key: string; password: string }
  sequential: boolean
  /** The flows the merchant offers (adapter `flows`); undefined: all. */
  flows?: readonly string[]
  /**
   * What the adapter's contract includes (`contract`, `supports`, its hooks): the kit calls and
   * reads nothing else. Undefined (a client built in code): everything of the latest contract.
   */
  declaration?: Declaration
  hasAction: boolean
  hasInspect: boolean
  /** How long the kit waits for the merchant's answers (timeouts.hook_seconds), in ms. */
  waitMs?: number
  /**
   * `graceMs` lengthens the hook's time limit (timeouts.hook_seconds): the scenario's gateway holds
   * an answer that long (gateway fault `late`), so the merchant's hook may wait for it.
   */
  startPayment(payload: Record<string, unknown>, graceMs?: number): Promise<HookAnswer>
  action(payload: Record<string, unknown>, graceMs?: number): Promise<HookAnswer>
  inspect(orderId: string): Promise<HookAnswer>
  stop(): Promise<void>
  /**
   * The merchant's process, once it has ended by itself after it answered the kit's readiness
   * check (never for one the kit stopped, nor for one that ended with code 0, which may have
   * handed over to a server it started). `portTaken`: it ended saying its port was taken, so what
   * answered the kit was another program.
   */
  exited?(): { message: string; portTaken: boolean } | undefined
}

export function loadAdapter(file: string): { adapter: SandboxMerchantAdapter; dir: string } {
  let data: unknown
  try {
    data = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new AdapterError(
      `${file}: cannot be read as JSON: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    )
  }
  const result = validate<SandboxMerchantAdapter>('sandbox/merchant-adapter', data)
  const problems = result.valid
    ? declarationOf(result.data).problems
    : result.errors.map((e) => formatFieldError(e))
  if (!result.valid || problems.length)
    throw new AdapterError(
      `${file} is not a valid merchant adapter (schemas/sandbox/merchant-adapter.schema.json):\n${problems.map((p) => `  ${p}`).join('\n')}`,
    )
  return { adapter: result.data, dir: dirname(resolve(file)) }
}

/**
 * Where the system's own free ports start: those `listen(0)` hands out (Linux:
 * /proc/sys/net/ipv4/ip_local_port_range; elsewhere IANA's dynamic range, 49152 and up).
 */
export function ephemeralPortsFrom(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
    if (Number.isInteger(low) && low > 1024) return low
  } catch {
    // not Linux
  }
  return 49152
}

/** The kit's own ports for merchant processes: from here to where the system's free ports start. */
const KIT_PORTS_FROM = 20_000

/** Whether nothing listens on `port` (127.0.0.1): 0 asks the system for any free one. */
function tryPort(port: number): Promise<number | undefined> {
  return new Promise((ok) => {
    const server = createServer()
    server.once('error', () => ok(undefined))
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number }
      server.close(() => ok(bound))
    })
  })
}

/**
 * A free port for a merchant's process, chosen below the system's range of free ports. The kit
 * checks it, closes it and hands it over (`port_env`); a port from the system's range could be
 * handed to another program's `listen(0)` before the merchant takes it, and that program would
 * answer the kit's readiness check and hooks: with four test suites at once on one machine, a
 * shop with a mistake once passed its scenario because another run's shop answered on its port.
 * Programs that ask for any port never get one of these. Where the system's range leaves no room
 * below it, any free port.
 *
 * Each process walks the room from a place of its own (drawn once), one port after the other:
 * two kits on one machine then meet only if one walks onto the port the other is handing out at
 * that moment, where independent draws could each time fall on the other's.
 */
export async function freePort(): Promise<number> {
  const below = ephemeralPortsFrom()
  const room = below - KIT_PORTS_FROM
  if (room >= 1000) {
    walked ??= Math.floor(Math.random() * room)
    for (let attempt = 0; attempt < 20; attempt++) {
      const candidate = KIT_PORTS_FROM + (walked++ % room)
      if (handedOut.has(candidate)) continue
      if ((await tryPort(candidate)) !== undefined) return handOut(candidate)
    }
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const any = await tryPort(0)
    if (any !== undefined && !handedOut.has(any)) return handOut(any)
  }
  throw new Error('no free port on 127.0.0.1')
}

/** Where this process's walk through the kit's ports is. */
let walked: number | undefined

/**
 * Ports this process handed out and whose taker may not have bound them yet: a port is free
 * when checked until its process binds it, so two merchants started at once (a kit running
 * several, a test suite) could otherwise be given the same one, and one would answer for both.
 * A merchant's port is given back when the kit stops it (`releasePort`).
 */
const handedOut = new Set<number>()
function handOut(port: number): number {
  handedOut.add(port)
  return port
}
/** Lets `freePort` hand `port` out again: its taker has stopped. */
export function releasePort(port: number | undefined): void {
  if (port !== undefined) handedOut.delete(port)
}

/** How often the kit starts the merchant's process again when the port it chose was taken meanwhile. */
const PORT_ATTEMPTS = 3
/**
 * How a merchant's own process says the port is taken (its output, not the gateway's): Node's
 * error code, or the system's words for errno EADDRINUSE that Python, Go or Java print.
 */
const PORT_TAKEN = /EADDRINUSE|address already in use/i

export async function startMerchant(
  adapter: SandboxMerchantAdapter,
  dir: string,
  options: { gatewayUrl?: string } = {},
): Promise<MerchantClient> {
  const hookMs = (adapter.timeouts?.hook_seconds ?? 10) * 1000
  const output: string[] = []
  let baseUrl = ''
  let child: ChildProcess | undefined
  let port: number | undefined
  let closed: { code: number | null; signal: NodeJS.Signals | null } | undefined
  // A free port is found, closed, then handed to the process (port_env): another program on the
  // machine can take it in between (parallel CI jobs do), and the merchant then exits at start
  // with EADDRINUSE. The kit starts it again on another port, a few times, before giving up.
  for (let attempt = 1; ; attempt++) {
    port = adapter.process ? await freePort() : undefined
    baseUrl = adapter.base_url.replace(/\$\{port\}/g, String(port ?? '')).replace(/\/+$/, '')
    output.length = 0
    child = adapter.process
      ? spawnMerchant(adapter.process, dir, port, options.gatewayUrl, output)
      : undefined
    // Once its output is read to the end (close, not exit): what it said on leaving counts.
    closed = undefined
    const current = child
    current?.once('close', (code, signal) => {
      if (current === child) closed = { code, signal }
    })
    try {
      await waitReady(
        baseUrl + (adapter.process?.ready_path ?? '/'),
        (adapter.process?.ready_timeout_seconds ?? 20) * 1000,
        child,
        output,
        !adapter.process,
      )
      break
    } catch (error) {
      await stopChild(child)
      releasePort(port)
      const portTaken =
        error instanceof MerchantUnreachable &&
        adapter.process?.port_env !== undefined &&
        output.some((line) => PORT_TAKEN.test(line))
      if (!portTaken || attempt >= PORT_ATTEMPTS) throw error
    }
  }
  // Ready: from here on, a process that ends by itself is said with the run's results. One that
  // ends saying its port is taken never answered the kit: a program that took the port between
  // the kit's check and the merchant's start did (the readiness check cannot tell them apart).
  let stopping = false
  const ended = (): { message: string; portTaken: boolean } | undefined => {
    if (stopping || !closed) return undefined
    const { code, signal } = closed
    const portTaken = output.some((line) => PORT_TAKEN.test(line))
    if (code === 0 && !portTaken) return undefined
    const how = signal ?? `code ${code}`
    return {
      portTaken,
      message: portTaken
        ? `the merchant process exited with ${how} because its port ${port} was taken: another program answered the kit on that port in its place, so this run's results are not the merchant's; run again${tail(output)}`
        : `the merchant process exited with ${how} during the run${tail(output)}`,
    }
  }

  const http = async (
    hook: { method?: string; path: string; headers?: Record<string, string | undefined> },
    path: string,
    payload?: unknown,
    limitMs = hookMs,
  ) => {
    const method = hook.method ?? 'POST'
    const url = baseUrl + path
    const text = payload === undefined || method === 'GET' ? '' : JSON.stringify(payload)
    const headers = {
      ...(text ? { 'content-type': 'application/json' } : {}),
      ...(hook.headers ?? {}),
    } as Record<string, string>
    const request: RecordedRequest = { method, url, headers, body: text }
    let response: Response
    try {
      response = await fetch(url, {
        method,
        headers,
        ...(text ? { body: text } : {}),
        signal: AbortSignal.timeout(limitMs),
      })
    } catch (error) {
      throw new MerchantUnreachable(
        `${method} ${url}: ${whyNoAnswer(error, limitMs, 'timeouts.hook_seconds')}${tail(output)}`,
      )
    }
    const body = await response.text()
    return { status: response.status, text: body, body: parseJson(body), request }
  }
  const hook =
    (which: SandboxMerchantAdapter['start_payment'] | undefined, name: string) =>
    (payload: Record<string, unknown>, graceMs = 0) => {
      if (!which) throw new AdapterError(`the adapter has no ${name} hook`)
      return 'command' in which
        ? runCommand(which, dir, payload, hookMs + graceMs)
        : http(which, which.path, payload, hookMs + graceMs)
    }
  return {
    name: adapter.name,
    baseUrl,
    notificationUrl: baseUrl + adapter.notification_path,
    credentials: adapter.credentials,
    sequential: adapter.concurrency === 'sequential',
    ...(adapter.flows ? { flows: adapter.flows } : {}),
    declaration: declarationOf(adapter).declaration,
    hasAction: !!adapter.merchant_action,
    hasInspect: !!adapter.inspect,
    waitMs: hookMs,
    startPayment: hook(adapter.start_payment, 'start_payment'),
    action: hook(adapter.merchant_action, 'merchant_action'),
    inspect: (orderId) => {
      if (!adapter.inspect) throw new AdapterError('the adapter has no inspect hook')
      return http(
        { ...adapter.inspect, method: adapter.inspect.method ?? 'GET' },
        adapter.inspect.path.replace('{order_id}', encodeURIComponent(orderId)),
      )
    },
    stop: async () => {
      stopping = true
      await stopChild(child)
      releasePort(port)
    },
    exited: ended,
  }
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const tail = (lines: string[]) =>
  lines.length ? `\n  merchant output:\n    ${lines.slice(-8).join('\n    ')}` : ''

/** Starts the adapter's process on `port`, keeping the last 20 lines it prints in `output`. */
function spawnMerchant(
  p: NonNullable<SandboxMerchantAdapter['process']>,
  dir: string,
  port: number | undefined,
  gatewayUrl: string | undefined,
  output: string[],
): ChildProcess {
  const env = { ...process.env, ...(p.env ?? {}) } as Record<string, string>
  if (p.port_env) env[p.port_env] = String(port)
  if (p.gateway_url_env && gatewayUrl) env[p.gateway_url_env] = gatewayUrl
  const [command, ...args] = p.command as [string, ...string[]]
  const child = spawn(command, args, {
    cwd: resolve(dir, p.cwd ?? '.'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean))
    output.splice(0, Math.max(0, output.length - 20))
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  return child
}

async function waitReady(
  url: string,
  timeoutMs: number,
  child: ChildProcess | undefined,
  output: string[],
  once: boolean,
) {
  const deadline = Date.now() + timeoutMs
  let exited: string | undefined
  child?.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? `code ${code}`}`
  })
  child?.once('error', (error) => {
    exited = `could not start: ${error.message}`
  })
  let last = ''
  while (Date.now() < deadline) {
    if (exited) throw new MerchantUnreachable(`the merchant process ${exited}${tail(output)}`)
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(ATTEMPT_MS) })
      await response.arrayBuffer()
      if (response.ok || once) return
      last = `HTTP ${response.status}`
    } catch (error) {
      last = whyNoAnswer(error, ATTEMPT_MS, 'one attempt')
      if (once) break
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  // Without a process: one attempt at a merchant said to be running. With one: the wait for it
  // to answer, named, then what the last attempt met (ECONNREFUSED: nothing listening yet).
  throw new MerchantUnreachable(
    once
      ? `the merchant is not reachable at ${url} (${last || 'no answer'})${tail(output)}`
      : `the merchant gave no ready answer to GET ${url} within ${timeoutMs / 1000} s of starting (process.ready_timeout_seconds; last attempt: ${last || 'none'})${tail(output)}`,
  )
}

/**
 * How long the payer's browser waits for a page it opens from what the merchant handed it (its
 * return pages, the redirect it was given): the kit's own bound for that page (`floorMs`), or
 * longer when the adapter lets the merchant's answers take longer (timeouts.hook_seconds): a page
 * behind the merchant is as slow as the merchant, and a test machine that the adapter gives a minute
 * to answer gives its pages as long.
 */
export function payerWaitMs(merchant: Pick<MerchantClient, 'waitMs'> | undefined, floorMs: number): number {
  return Math.max(floorMs, merchant?.waitMs ?? 0)
}

/** How long one readiness request may take. */
const ATTEMPT_MS = 2000

/** `within 10 s (timeouts.hook_seconds)`: a wait and the adapter setting that sets it. */
const waited = (ms: number, setting: string) => `no answer within ${ms / 1000} s (${setting})`

/** Why a request to the merchant failed: a time-out names the wait, else the system's code. */
function whyNoAnswer(error: unknown, ms: number, setting: string): string {
  const e = error as Error & { cause?: { code?: string } }
  if (e?.name === 'TimeoutError') return waited(ms, setting)
  return e?.cause?.code ?? e?.message ?? String(error)
}

async function stopChild(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
  await exited
  clearTimeout(timer)
}

/** A command hook: the payload on standard input, the answer as JSON on standard output. */
function runCommand(
  hook: SandboxMerchantAdapterCommandHook,
  dir: string,
  payload: unknown,
  timeoutMs: number,
): Promise<HookAnswer> {
  return new Promise((resolveAnswer, reject) => {
    const [command, ...args] = hook.command as [string, ...string[]]
    const child = spawn(command, args, {
      cwd: resolve(dir, hook.cwd ?? '.'),
      env: { ...(process.env as Record<string, string>), ...(hook.env ?? {}) },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, timeoutMs)
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8')
    })
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString('utf8')
    })
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(new MerchantUnreachable(`${hook.command.join(' ')}: ${error.message}`))
    })
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      // A hook that hangs is the merchant not answering, as for an HTTP hook.
      if (timedOut)
        return reject(
          new MerchantUnreachable(
            `${hook.command.join(' ')}: ${waited(timeoutMs, 'timeouts.hook_seconds')}; the command was stopped`,
          ),
        )
      const status = code === 0 ? 200 : 500
      const text = out.trim() || err.trim() || `exited with ${signal ?? `code ${code}`}`
      resolveAnswer({ status, text, body: parseJson(out) })
    })
    child.stdin.end(JSON.stringify(payload))
  })
}
