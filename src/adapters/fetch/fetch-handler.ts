import { ConnectionDropped, FAULT_HEADER, type FaultMode } from '../../core/faults/index.js'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { type ControlGuardOptions, checkControlRequest } from '../../core/control/guard.js'
import { errorResponse, fail } from '../../core/engine/errors.js'
import { DEFAULT_BODY_LIMIT, type Gateway } from '../../core/engine/gateway.js'
import { StoreUnavailableError } from '../../core/ports/store.js'
import { controlGuardFor, storeUnavailable } from '../serve/control-guard.js'
import type { GatewayRequest, GatewayResponse } from '../../core/engine/http.js'

export interface FetchHandlerOptions {
  /**
   * The address the handler serves under; request paths are taken relative to its path, so
   * `https://gateway.test/pay` serves `https://gateway.test/pay/api/v1/session` as `/api/v1/session`.
   */
  base: string
  /**
   * Recorded as the caller's address (the payer IP where the interface says so). The request never
   * left this process, so by default it came from this machine, as it does through `listen()`.
   */
  remoteAddress?: string
  /**
   * What the control API guard admits (core/control/guard.ts). Default: the base's host, loopback
   * names, the config's allowed_hosts and control_token; a request without Host (in-process) passes
   * the Host check, a browser's cross-origin one is refused.
   */
  guard?: ControlGuardOptions
}

export type FetchHandler = (request: Request) => Promise<Response>

/**
 * The engine behind a `(Request) => Promise<Response>` function: what the msw handlers and
 * `sandbox.fetch` use. Translation only, and the same translation as the express adapter
 * (bodies inflated as body-parser does, the first value of a repeated query parameter, the store
 * flushed before the answer), so that the parity suite finds both answers identical.
 */
export function createFetchHandler(gateway: Gateway, options: FetchHandlerOptions): FetchHandler {
  const basePath = new URL(options.base).pathname.replace(/\/+$/, '')
  const limit = gateway.ctx.config.limits?.body_bytes ?? DEFAULT_BODY_LIMIT
  const guardExtra = { hosts: [new URL(options.base).hostname.replace(/^\[|\]$/g, '')] }
  return async (request) => {
    const translated = await toGatewayRequest(request, basePath, limit)
    const refused = checkControlRequest(translated, options.guard ?? controlGuardFor(gateway.ctx, guardExtra))
    if (refused) return toResponse(errorResponse(fail(refused), 'sandbox'), request)
    const response = await gateway.handle({
      ...translated,
      remoteAddress: options.remoteAddress ?? '127.0.0.1',
    })
    // An answer promises its change: a persistent store has it on disk before the caller hears of it.
    // A change the disk refused was rolled back: 503, and the store takes writes again once it can.
    const unavailable = await gateway.ctx.store.flush().then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof StoreUnavailableError) return storeUnavailable()
        throw error
      },
    )
    return toResponse(unavailable ?? response, request)
  }
}

/** Whether `url` lies under `base` (same origin, path at or below the base's path). */
export function isUnder(url: URL, base: URL): boolean {
  if (url.origin !== base.origin) return false
  const basePath = base.pathname.replace(/\/+$/, '')
  return url.pathname === basePath || url.pathname.startsWith(`${basePath}/`)
}

async function toGatewayRequest(
  request: Request,
  basePath: string,
  limit: number,
): Promise<Omit<GatewayRequest, 'remoteAddress'>> {
  const url = new URL(request.url)
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value
  })
  const query = new Map<string, string>()
  for (const [k, v] of url.searchParams) if (!query.has(k)) query.set(k, v)
  const relative = url.pathname.slice(basePath.length)
  const raw = new Uint8Array(await request.arrayBuffer())
  const decoded = decode(raw, headers['content-encoding'], limit)
  return {
    method: request.method,
    path: relative.startsWith('/') ? relative : `/${relative}`,
    query: Object.fromEntries(query),
    headers: { ...headers, ...decoded.headers },
    body: decoded.body,
  }
}

const SOME_BYTE = new Uint8Array([0x20])
const UNPARSABLE = new TextEncoder().encode('{')
const UNSUPPORTED = { 'content-type': 'application/x-paysandbox-unreadable-encoding' }

/**
 * `Content-Encoding` as express.raw treats it (body-parser 2): gzip, deflate and br are
 * inflated (never past the body limit, so a small bomb cannot fill memory); another encoding is
 * refused (415); a body that does not inflate is unparsable (400). The express adapter hands the
 * engine the same stand-in bodies, so the engine picks the same catalogue row either way.
 */
function decode(
  body: Uint8Array,
  encoding: string | undefined,
  limit: number,
): { body: Uint8Array; headers?: Record<string, string> } {
  const name = (encoding ?? 'identity').trim().toLowerCase()
  if (name === 'identity' || body.length === 0) return { body }
  const inflate = INFLATERS[name]
  if (!inflate) return { body: SOME_BYTE, headers: UNSUPPORTED }
  try {
    return { body: inflate(body, { maxOutputLength: limit + 1 }) }
  } catch (error) {
    // Past the limit: one byte more than the engine accepts, which it answers with its 413 row.
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      return { body: new Uint8Array(limit + 1) }
    return { body: UNPARSABLE, headers: { 'content-type': 'application/json' } }
  }
}

type Inflater = (body: Uint8Array, options: { maxOutputLength: number }) => Uint8Array

const INFLATERS: Record<string, Inflater | undefined> = {
  gzip: gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
}

/** Statuses whose answer has no body in the Fetch standard (`new Response` refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304])
const encoder = new TextEncoder()

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
  const stop = () => {
    unsubscribe?.()
    unsubscribe = undefined
  }
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (response.body) controller.enqueue(encoder.encode(response.body))
        // The engine skips events while the reader is 256 chunks behind (no unbounded queue).
        unsubscribe = source.subscribe(
          (chunk) => {
            try {
              controller.enqueue(encoder.encode(chunk))
            } catch {
              stop() // the reader has gone and the stream is closed
            }
          },
          {
            ready: () => (controller.desiredSize ?? 0) > 0,
            close: () => {
              stop()
              try {
                controller.close()
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
      cancel: stop,
    },
    new CountQueuingStrategy({ highWaterMark: 256 }),
  )
  return new Response(stream, init)
}
