import { ConnectionDropped, FAULT_HEADER, type FaultMode } from '../../core/faults/index.js'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import type { Gateway } from '../../core/engine/gateway.js'
import type { BodyRead, GatewayResponse, IncomingRequest } from '../../core/engine/http.js'
import { normalizeBasePath } from '../base-path/base-path.js'

export interface FetchHandlerOptions {
  /**
   * The address the handler serves under; request paths are taken relative to its path, so
   * `https://gateway.test/pay` serves `https://gateway.test/pay/api/v1/session` as `/api/v1/session`.
   * Its host is one the control guard admits in `Host`.
   */
  base: string
  /**
   * Recorded as the caller's address (the payer IP where the interface says so). The request never
   * left this process, so by default it came from this machine, as it does through `listen()`.
   */
  remoteAddress?: string
}

export type FetchHandler = (request: Request) => Promise<Response>

/**
 * The engine behind a `(Request) => Promise<Response>` function: what the msw handlers,
 * `sandbox.fetch` and the kit's host use. Translation only, and the same translation as the
 * express adapter (the path as it arrived, bodies inflated as body-parser does, the first value
 * of a repeated query parameter), so that the parity suite finds both answers identical. Path
 * normalisation, the control guard, limits, the flush and every error answer are the engine's.
 */
export function createFetchHandler(gateway: Gateway, options: FetchHandlerOptions): FetchHandler {
  const base = new URL(options.base)
  const basePath = normalizeBasePath(base.pathname)
  const servedHosts = hostsOf(base.hostname)
  const remoteAddress = options.remoteAddress ?? '127.0.0.1'
  return async (request) => {
    const response = await gateway.handle(toGatewayRequest(request, basePath, servedHosts, remoteAddress))
    // The caller gave up while its answer was held (gateway fault `late`): as fetch does, the
    // promise rejects with its signal's reason (AbortError, TimeoutError).
    if (request.signal.aborted) throw request.signal.reason
    return toResponse(response, request)
  }
}

/** One array per host name, so the engine's guard options are computed once per host (gateway.ts). */
const HOSTS = new Map<string, readonly string[]>()
function hostsOf(hostname: string): readonly string[] {
  const name = hostname.replace(/^\[|\]$/g, '')
  let hosts = HOSTS.get(name)
  if (!hosts) {
    if (HOSTS.size >= 64) HOSTS.clear()
    hosts = Object.freeze([name])
    HOSTS.set(name, hosts)
  }
  return hosts
}

/** Whether `url` lies under `base` (same origin, path at or below the base's path). */
export function isUnder(url: URL, base: URL): boolean {
  if (url.origin !== base.origin) return false
  const basePath = base.pathname.replace(/\/+$/, '')
  return url.pathname === basePath || url.pathname.startsWith(`${basePath}/`)
}

function toGatewayRequest(
  request: Request,
  basePath: string,
  servedHosts: readonly string[],
  remoteAddress: string,
): IncomingRequest {
  const url = new URL(request.url)
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value
  })
  const query = new Map<string, string>()
  for (const [k, v] of url.searchParams) if (!query.has(k)) query.set(k, v)
  return {
    method: request.method,
    path: url.pathname,
    query: Object.fromEntries(query),
    headers,
    readBody: async (limit) =>
      decode(new Uint8Array(await request.arrayBuffer()), headers['content-encoding'], limit),
    remoteAddress,
    signal: request.signal,
    ...(basePath ? { basePath } : {}),
    servedHosts,
  }
}

/**
 * `Content-Encoding` as express.raw treats it (body-parser 2): gzip, deflate and br are
 * inflated (never past the body limit, so a small bomb cannot fill memory); another encoding is
 * refused; a body that does not inflate is malformed. The engine picks the catalogue row.
 */
function decode(body: Uint8Array, encoding: string | undefined, limit: number): BodyRead {
  const name = (encoding ?? 'identity').trim().toLowerCase()
  if (name === 'identity' || body.length === 0) return { ok: true, body }
  const inflate = INFLATERS[name]
  if (!inflate) return { ok: false, reason: 'encoding' }
  try {
    return { ok: true, body: inflate(body, { maxOutputLength: limit + 1 }) }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      return { ok: false, reason: 'too-large' }
    return { ok: false, reason: 'malformed' }
  }
}

type Inflater = (body: Uint8Array, options: { maxOutputLength: number }) => Uint8Array

const INFLATERS: Record<string, Inflater | undefined> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
}

/** Statuses whose answer has no body in the Fetch standard (`new Response` refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304])
const encoder = new TextEncoder()

/** Chunks of an event stream queued for a reader at most before the engine stops writing to it. */
const QUEUED = 256

function toResponse(response: GatewayResponse, request: Request): Response {
  // Gateway faults (src/core/faults): a dropped connection is a network error to a fetch caller.
  if (response.fault === 'drop')
    throw new ConnectionDropped((response.headers[FAULT_HEADER] ?? 'drop') as FaultMode)
  const headers = new Headers(response.headers)
  for (const warning of response.warnings ?? []) headers.append('sandbox-warning', warning)
  const init = { status: response.status, headers }
  if (NULL_BODY.has(response.status) || request.method === 'HEAD') return new Response(null, init)
  // Bytes, never a string: a string body would gain a `text/plain` type the engine did not give
  // (express writes none), and an empty one a type on a bodiless 303.
  if (!response.stream) return new Response(response.body ? encoder.encode(response.body) : null, init)
  const source = response.stream
  let unsubscribe: (() => void) | undefined
  let open = true
  const drained = new Set<() => void>()
  let pulls = 0
  const stop = () => {
    open = false
    unsubscribe?.()
    unsubscribe = undefined
    drained.clear()
  }
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (response.body) controller.enqueue(encoder.encode(response.body))
        // The engine writes nothing more while the reader is 256 chunks behind (no unbounded queue).
        unsubscribe = source.subscribe(
          (chunk) => {
            if (!open) return false
            try {
              controller.enqueue(encoder.encode(chunk))
            } catch {
              stop() // the reader has gone and the stream is closed
            }
          },
          {
            ready: () => open && (controller.desiredSize ?? 0) > 0,
            open: () => open,
            onDrain: (listener) => drained.add(listener),
            // Chunks queued and not read yet; each read that leaves room is a pull.
            progress: () => ({ waiting: Math.max(0, QUEUED - (controller.desiredSize ?? 0)), taken: pulls }),
            // A reader that stopped reading is let go: what it did not read is dropped with the stream.
            close: () => {
              stop()
              try {
                controller.error(new Error('event stream: the reader did not keep up and was let go'))
              } catch {
                // already closed
              }
            },
          },
        )
        request.signal.addEventListener('abort', () => {
          stop()
          try {
            controller.close()
          } catch {
            // already closed or errored
          }
        })
      },
      // The reader wants more: it has taken what was queued.
      pull() {
        pulls++
        for (const listener of drained) listener()
      },
      cancel: stop,
    },
    new CountQueuingStrategy({ highWaterMark: QUEUED }),
  )
  return new Response(stream, init)
}
