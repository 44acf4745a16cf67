import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { transportRefusal } from '../../core/engine/gateway.js'
import { ServeError } from '../serve/control-guard.js'
import { DEFAULT_BODY_TIMEOUT_MS } from './node-request.js'

/**
 * The limits of a served sandbox's HTTP server (`serve` flags, `sandbox.listen` options), each
 * read from what the connection shows before the engine runs. Defaults in DEFAULT_HTTP_LIMITS.
 */
export interface HttpLimits {
  /** The request head must be complete within this (ms): a client trickling headers is answered 408. */
  headersTimeoutMs?: number
  /** The whole request, head and body, within this (ms), else 408. Not the answer: an event stream stays open. */
  requestTimeoutMs?: number
  /** No body byte for this long (ms) while the engine reads a body: 408. */
  bodyTimeoutMs?: number
  /** Open connections at most; a connection beyond is closed as it opens. */
  maxConnections?: number
}

export const DEFAULT_HTTP_LIMITS: Required<HttpLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
  maxConnections: 1024,
}

/** How often node looks for requests past their head or request time-out. */
const CHECK_EVERY_MS = 1_000

/**
 * A node HTTP server for the engine's request handler, with its limits: header and request
 * time-outs (answered with the REQUEST_TIMEOUT row, the engine's own error body), a cap on open
 * connections, and `Expect: 100-continue` left to the engine (the body reader sends `100
 * Continue` only when the engine reads the body: node would otherwise send it before any check).
 */
export function createHttpServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  limits: HttpLimits = {},
): Server {
  const l = { ...DEFAULT_HTTP_LIMITS, ...definedOnly(limits) }
  if (l.headersTimeoutMs > 0 && l.requestTimeoutMs > 0 && l.headersTimeoutMs > l.requestTimeoutMs)
    throw new ServeError('the header time-out must not be longer than the request time-out')
  const server = createServer(
    {
      headersTimeout: l.headersTimeoutMs,
      requestTimeout: l.requestTimeoutMs,
      connectionsCheckingInterval: CHECK_EVERY_MS,
    },
    handler,
  )
  server.maxConnections = l.maxConnections
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res))
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket))
  return server
}

/** The limits given (any other property of `limits` ignored), so the defaults fill the rest. */
const definedOnly = (limits: HttpLimits): HttpLimits =>
  Object.fromEntries(
    (Object.keys(DEFAULT_HTTP_LIMITS) as (keyof HttpLimits)[])
      .filter((key) => limits[key] !== undefined)
      .map((key) => [key, limits[key]]),
  ) as HttpLimits

/**
 * What node answers a request it could not read, with the engine's body for a time-out: 408 with
 * REQUEST_TIMEOUT; a head too large 431; anything else 400. The connection is closed after it.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const busy = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true
  if (error.code === 'ECONNRESET' || !socket.writable || busy) return void socket.destroy()
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    const answer = transportRefusal('REQUEST_TIMEOUT')
    const head = Object.entries({ ...answer.headers, connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')
    const body = Buffer.from(answer.body)
    return void socket.end(
      `HTTP/1.1 ${answer.status} Request Timeout\r\n${head}content-length: ${body.length}\r\n\r\n${answer.body}`,
    )
  }
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request'
  socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\n\r\n`)
}
