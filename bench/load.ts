import { Agent, request } from 'node:http'

export interface LoadOptions {
  port: number
  method: string
  path: string
  body: string
  headers?: Record<string, string>
  /** Concurrent connections (each sends its next request once the previous one is answered). */
  connections: number
  /** Stop after this many requests, or after maxMs, whichever comes first. */
  requests: number
  maxMs: number
}

export interface LoadResult {
  /** Per-request latency, milliseconds, sorted ascending. */
  latencies: number[]
  elapsedMs: number
  /** Answers other than 2xx, and failed requests. */
  errors: number
  firstError?: string
}

/**
 * A small closed-loop load generator on keep-alive connections, loopback only: no dependency, a
 * bounded number of requests and a bounded time.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections })
  const payload = Buffer.from(options.body)
  const headers = {
    'content-type': 'application/json',
    'content-length': String(payload.length),
    ...options.headers,
  }
  const latencies: number[] = []
  let errors = 0
  let firstError: string | undefined
  let sent = 0
  const started = performance.now()
  const deadline = started + options.maxMs

  const once = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now()
      const req = request(
        { host: '127.0.0.1', port: options.port, method: options.method, path: options.path, headers, agent },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            latencies.push(performance.now() - t0)
            if ((res.statusCode ?? 0) >= 300) {
              errors++
              firstError ??= `HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 200)}`
            }
            resolve()
          })
        },
      )
      req.on('error', (error) => {
        errors++
        firstError ??= error.message
        resolve()
      })
      req.end(payload)
    })

  const worker = async () => {
    while (sent < options.requests && performance.now() < deadline) {
      sent++
      await once()
    }
  }
  await Promise.all(Array.from({ length: options.connections }, worker))
  const elapsedMs = performance.now() - started
  agent.destroy()
  latencies.sort((a, b) => a - b)
  return { latencies, elapsedMs, errors, ...(firstError ? { firstError } : {}) }
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0
