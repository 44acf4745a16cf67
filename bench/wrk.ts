/**
 * The load generator of the sustained benchmark: wrk (C, epoll, one thread) pinned to core 1 while
 * the servers run on core 0, so that it is never what limits the rate (autocannon, in node, tops
 * out near 4,500 requests/s on these machines, below what the servers answer). Without wrk on
 * PATH, autocannon in this process (the rate it reports is then a floor, said in the output).
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { pinned } from './processes.js'

export interface LoadRequest {
  method?: string
  path: string
  body?: string
  contentType?: string
}

export interface LoadWindow {
  /** 2xx answers per second. */
  rps: number
  /** Latency p99, ms. */
  p99: number
  ok: number
  /** Answers other than 2xx, socket errors and time-outs. */
  bad: number
}

export const CONNECTIONS = 50

export const hasWrk = spawnSync('wrk', ['--version']).error === undefined
const scripts = mkdtempSync(join(tmpdir(), 'paysandbox-bench-wrk-'))
let scriptCount = 0

/** A wrk Lua script sending `request`, and reporting what it counted as one JSON line. */
function scriptFor(request: LoadRequest): string {
  const file = join(scripts, `request-${scriptCount++}.lua`)
  const lua = (text: string) => JSON.stringify(text)
  writeFileSync(
    file,
    [
      `wrk.method = ${lua(request.method ?? 'POST')}`,
      request.body !== undefined ? `wrk.body = ${lua(request.body)}` : '',
      `wrk.headers["Content-Type"] = ${lua(request.contentType ?? 'application/json')}`,
      'done = function(summary, latency, requests)',
      '  local e = summary.errors',
      '  io.write(string.format(\'\\nRESULT {"requests":%d,"seconds":%f,"non2xx":%d,"errors":%d,"p99":%f}\\n\',',
      '    summary.requests, summary.duration / 1e6, e.status, e.connect + e.read + e.write + e.timeout,',
      '    latency:percentile(99) / 1000))',
      'end',
    ].join('\n'),
  )
  return file
}

const scriptsByRequest = new Map<string, string>()

function runWrk(port: number, seconds: number, request: LoadRequest): Promise<LoadWindow> {
  const key = JSON.stringify(request)
  let script = scriptsByRequest.get(key)
  if (!script) {
    script = scriptFor(request)
    scriptsByRequest.set(key, script)
  }
  const args = [
    '-t1',
    `-c${CONNECTIONS}`,
    `-d${Math.max(1, Math.round(seconds))}s`,
    '--timeout',
    '30s',
    '-s',
    script,
    `http://127.0.0.1:${port}${request.path}`,
  ]
  const [cmd, ...rest] = (pinned ? ['taskset', '-c', '1', 'wrk', ...args] : ['wrk', ...args]) as [
    string,
    ...string[],
  ]
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, rest, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.once('error', reject)
    child.once('exit', (code) => {
      const line = /RESULT (\{.*\})/.exec(out)?.[1]
      if (code !== 0 || !line) return reject(new Error(`wrk failed (${code}): ${out.slice(-500)}`))
      const r = JSON.parse(line) as {
        requests: number
        seconds: number
        non2xx: number
        errors: number
        p99: number
      }
      const ok = r.requests - r.non2xx
      resolve({ rps: ok / r.seconds, p99: Math.round(r.p99), ok, bad: r.non2xx + r.errors })
    })
  })
}

async function runAutocannon(port: number, seconds: number, request: LoadRequest): Promise<LoadWindow> {
  const r = await autocannon({
    url: `http://127.0.0.1:${port}${request.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    method: request.method ?? 'POST',
    headers: { 'content-type': request.contentType ?? 'application/json' },
    ...(request.body !== undefined ? { body: request.body } : {}),
    timeout: 30,
  })
  return { rps: r['2xx'] / seconds, p99: r.latency.p99, ok: r['2xx'], bad: r.non2xx + r.errors + r.timeouts }
}

/** `seconds` of load at CONNECTIONS connections: what the server answered. */
export const load = (port: number, seconds: number, request: LoadRequest): Promise<LoadWindow> =>
  hasWrk ? runWrk(port, seconds, request) : runAutocannon(port, seconds, request)

export const generator = () =>
  hasWrk
    ? `wrk (1 thread, ${CONNECTIONS} connections${pinned ? ', pinned to core 1' : ''})`
    : `autocannon (${CONNECTIONS} connections; wrk not found, so the rates may be the generator's, not the servers')`
