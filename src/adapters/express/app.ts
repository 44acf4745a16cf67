import express, { type NextFunction, type Request, type Response } from 'express'
import { errorResponse, fail } from '../../core/engine/errors.js'
import { DEFAULT_BODY_LIMIT, type Gateway } from '../../core/engine/gateway.js'
import type { GatewayRequest, GatewayResponse } from '../../core/engine/http.js'
import { type ControlGuardOptions, checkControlRequest } from '../../core/control/guard.js'
import { StoreUnavailableError } from '../../core/ports/store.js'
import { normalizeBasePath, OUTSIDE_BASE_PATH, stripBasePath } from '../base-path/base-path.js'
import { controlGuardFor, storeUnavailable } from '../serve/control-guard.js'

export interface ExpressAppOptions {
  /** Called with any failure of the adapter itself (never a user's bad input). Default: the engine's logger. */
  onError?: (error: unknown) => void
  /**
   * What the control API guard admits (core/control/guard.ts). Default: loopback names, the
   * base_url's host and the config's allowed_hosts and control_token.
   */
  guard?: ControlGuardOptions
  /** Runs after each answer is written (serve: memory-mode retention, between requests). */
  afterAnswer?: () => void
  /** decisions.md §2 `--base-path`: every route under this prefix (`/payment/post`); others answer 404. */
  basePath?: string
}

/**
 * The HTTP face of the engine, and translation only (DESIGN.md): every request, whatever its
 * path, method or body, goes to `gateway.handle` as raw bytes with lower-case headers; the answer
 * is written back unchanged. Nothing here answers on its own, so there is no HTML error page and
 * no express 404: bodies express refuses to read are handed to the engine in a form that makes it
 * pick the catalogue row and the envelope of the route (404 before 413, `result: ERROR` on S2S).
 */
export function createExpressApp(gateway: Gateway, options: ExpressAppOptions = {}): express.Express {
  const onError =
    options.onError ?? ((error) => gateway.ctx.logger.error('express adapter', { error: String(error) }))
  const limit = gateway.ctx.config.limits?.body_bytes ?? DEFAULT_BODY_LIMIT
  const app = express()
  app.disable('x-powered-by')
  app.set('etag', false)
  const basePath = normalizeBasePath(options.basePath)
  if (basePath)
    app.use((req: Request, _res: Response, next: NextFunction) => {
      req.url = stripBasePath(req.url, basePath) ?? OUTSIDE_BASE_PATH
      next()
    })
  // Same limit as the engine: express stops reading there, and the engine answers the 413.
  app.use(express.raw({ type: () => true, limit }))

  app.use(async (req: Request, res: Response) => {
    const body: Uint8Array = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
    await answer(res, toGatewayRequest(req, body))
  })

  // express.raw's refusals (too large, unreadable encoding, aborted upload) arrive here.
  app.use(async (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: unknown })?.status
    if (status === 413) return answer(res, toGatewayRequest(req, oversized(limit)))
    if (status === 415) return answer(res, toGatewayRequest(req, SOME_BYTE, UNSUPPORTED))
    if (typeof status === 'number' && status >= 400 && status < 500)
      return answer(res, toGatewayRequest(req, UNPARSABLE, { 'content-type': 'application/json' }))
    onError(error)
    write(res, INTERNAL_ERROR)
  })

  async function answer(res: Response, request: GatewayRequest) {
    try {
      const refused = checkControlRequest(request, options.guard ?? controlGuardFor(gateway.ctx))
      if (refused) return write(res, errorResponse(fail(refused), 'sandbox'))
      const response = await gateway.handle(request)
      // An answer promises its change: a persistent store has it on disk before the caller hears of it.
      await gateway.ctx.store.flush()
      write(res, response)
      options.afterAnswer?.()
    } catch (error) {
      // The disk refused the change (it was rolled back): 503, the store takes writes again once it can.
      if (error instanceof StoreUnavailableError) return write(res, storeUnavailable())
      onError(error)
      write(res, INTERNAL_ERROR)
    }
  }

  return app
}

const SOME_BYTE = new Uint8Array([0x20])
const UNPARSABLE = new TextEncoder().encode('{')
const UNSUPPORTED = { 'content-type': 'application/x-paysandbox-unreadable-encoding' }

let oversizedBody: Uint8Array | undefined
/** One byte more than the engine accepts (allocated once): the engine answers it with its 413 row. */
function oversized(limit: number): Uint8Array {
  if (!oversizedBody || oversizedBody.length !== limit + 1) oversizedBody = new Uint8Array(limit + 1)
  return oversizedBody
}

/** The engine's own shape for a bug (gateway.ts), for a failure outside the engine. */
const INTERNAL_ERROR: GatewayResponse = {
  status: 500,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ http_code: 500, error_code: 0, error_message: 'Internal sandbox error.' }),
}

export function toGatewayRequest(
  req: Request,
  body: Uint8Array,
  override: Record<string, string> = {},
): GatewayRequest {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  const search = req.originalUrl.indexOf('?')
  // The first value of a repeated parameter wins, as a plain string: no arrays, no objects, and
  // Object.fromEntries makes `__proto__` an ordinary key.
  const query = new Map<string, string>()
  if (search >= 0)
    for (const [k, v] of new URLSearchParams(req.originalUrl.slice(search + 1)))
      if (!query.has(k)) query.set(k, v)
  return {
    method: req.method,
    path: req.path,
    query: Object.fromEntries(query),
    headers: { ...headers, ...override },
    body,
    remoteAddress: plainAddress(req.socket.remoteAddress),
  }
}

/** `::ffff:127.0.0.1` (an IPv4 caller on a dual-stack socket) is recorded as `127.0.0.1`. */
const plainAddress = (address: string | undefined) => address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '')

/** Real-time comment lines keep proxies and clients from closing a quiet event stream. */
export const HEARTBEAT_MS = 15_000

function write(res: Response, response: GatewayResponse) {
  if (res.headersSent) return void res.end()
  // Gateway faults (src/core/faults): the connection goes away without an answer.
  if (response.fault === 'drop') return void res.socket?.destroy()
  res.status(response.status)
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value)
  if (response.warnings?.length) res.setHeader('sandbox-warning', response.warnings)
  if (!response.stream) return void res.end(response.body)
  res.flushHeaders()
  if (response.body) res.write(response.body)
  // The engine skips events while the client has not read what was written (no unbounded buffer).
  const unsubscribe = response.stream.subscribe((chunk) => res.write(chunk), {
    ready: () => !res.writableNeedDrain,
    close: () => res.end(),
  })
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS)
  heartbeat.unref()
  res.on('close', () => {
    clearInterval(heartbeat)
    unsubscribe()
  })
}
