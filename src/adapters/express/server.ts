import { createServer, type IncomingMessage, STATUS_CODES, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { type TransportRefusal, transportRefusal } from '../../core/engine/gateway.js'
import { ServeError } from '../serve/control-guard.js'
import { manageConnections, wasRefused } from './connections.js'
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
  /**
   * Open connections at most (docs/rules.md#connections): one arriving at the cap makes room by
   * closing the idlest, else it is served on the reserve.
   */
  maxConnections?: number
  /** Connections beyond the cap kept for health, the control API and the payer pages. */
  reserveConnections?: number
}

export const DEFAULT_HTTP_LIMITS: Required<HttpLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
  maxConnections: 1024,
  reserveConnections: 64,
}

/** How often node looks for requests past their head or request time-out. */
const CHECK_EVERY_MS = 1_000

/**
 * A node HTTP server for the engine's request handler, with its limits: header and request
 * time-outs (answered with the REQUEST_TIMEOUT row, the engine's own error body), heads that do
 * not parse or are too large (REQUEST_HEAD_INVALID, REQUEST_HEADERS_TOO_LARGE), its connections
 * kept under a cap with a reserve (connections.ts), and `Expect: 100-continue` left to the engine
 * (the body reader sends `100 Continue` only when the engine reads the body: node would otherwise
 * send it before any check).
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
    // A request on a connection refused at the cap was answered as the connection opened.
    (req, res) => (wasRefused(req.socket) ? undefined : handler(req, res)),
  )
  manageConnections(server, l, (socket) => writeRefusal(socket, 'SANDBOX_CONNECTIONS_FULL'))
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res))
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket))
  return server
}

/** The configuration file's `limits` keys for the HTTP server, in seconds (connections counted). */
export interface ConfigHttpLimits {
  headers_timeout?: number
  request_timeout?: number
  body_timeout?: number
  max_connections?: number
  reserve_connections?: number
}

/**
 * The limits to serve with (docs/rules.md#request-limits): those given (`serve` flags,
 * `sandbox.listen` options), else the configuration's `limits` keys, else the defaults
 * (createHttpServer fills them in). A flag beats the file, as for every other key.
 */
export function httpLimits(config: ConfigHttpLimits | undefined, given: HttpLimits = {}): HttpLimits {
  const ms = (seconds: number | undefined) => (seconds === undefined ? undefined : seconds * 1000)
  const fromConfig: HttpLimits = {
    headersTimeoutMs: ms(config?.headers_timeout),
    requestTimeoutMs: ms(config?.request_timeout),
    bodyTimeoutMs: ms(config?.body_timeout),
    maxConnections: config?.max_connections,
    reserveConnections: config?.reserve_connections,
  }
  return { ...definedOnly(fromConfig), ...definedOnly(given) }
}

/** The limits given (any other property of `limits` ignored), so the defaults fill the rest. */
const definedOnly = (limits: HttpLimits): HttpLimits =>
  Object.fromEntries(
    (Object.keys(DEFAULT_HTTP_LIMITS) as (keyof HttpLimits)[])
      .filter((key) => limits[key] !== undefined)
      .map((key) => [key, limits[key]]),
  ) as HttpLimits

/**
 * What the server answers a request node could not read (docs/rules.md#request-limits), each in
 * the engine's structured envelope, never node's bare status line: a head or request past its
 * time-out 408 REQUEST_TIMEOUT; a head larger than node reads 431 REQUEST_HEADERS_TOO_LARGE; a
 * head that does not parse 400 REQUEST_HEAD_INVALID; a chunked body whose framing breaks after the
 * head was handed on 400 REQUEST_BODY_MALFORMED. Written only while the socket is writable and no
 * answer has begun on it, then the connection is closed; a reset or an unwritable socket is only
 * destroyed. Nothing here may throw: it runs on node's error path.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  try {
    const busy = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true
    if (error.code === 'ECONNRESET' || !socket.writable || busy) return void socket.destroy()
    writeRefusal(socket, refusalOf(error, socket))
  } catch {
    socket.destroy()
  }
}

/**
 * A catalogue row written on the raw connection, in the engine's envelope, then the connection
 * closed: once the answer is flushed, or after a grace period if the peer does not read.
 */
function writeRefusal(socket: Duplex, id: TransportRefusal): void {
  try {
    const answer = transportRefusal(id)
    const head = Object.entries({ ...answer.headers, connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')
    const body = Buffer.from(answer.body)
    const reason = STATUS_CODES[answer.status] ?? 'Error'
    const cut = setTimeout(() => socket.destroy(), FLUSH_GRACE_MS)
    cut.unref()
    socket.end(
      `HTTP/1.1 ${answer.status} ${reason}\r\n${head}content-length: ${body.length}\r\n\r\n${answer.body}`,
      () => {
        clearTimeout(cut)
        socket.destroy()
      },
    )
  } catch {
    socket.destroy()
  }
}

/** An answer not flushed within this (ms) is cut: a peer that does not read holds no socket. */
const FLUSH_GRACE_MS = 5_000

/** The catalogue row for a request node refused (its error code: node's llhttp `HPE_*`, or a time-out). */
function refusalOf(error: NodeJS.ErrnoException, socket: Duplex): TransportRefusal {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'REQUEST_TIMEOUT'
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'REQUEST_HEADERS_TOO_LARGE'
  // The head was read and handed on (node made the answer's object): what broke is the body's framing.
  const handedOn = (socket as { _httpMessage?: unknown })._httpMessage !== undefined
  if (handedOn || error.code?.includes('CHUNK')) return 'REQUEST_BODY_MALFORMED'
  return 'REQUEST_HEAD_INVALID'
}
