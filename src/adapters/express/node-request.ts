import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import type { BodyRead, GatewayResponse, IncomingRequest } from '../../core/engine/http.js'
import { connectionOf, holdsStream } from './connections.js'

/** No body byte for this long while the engine reads a body: it is answered 408 (REQUEST_TIMEOUT). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000

export interface NodeRequestOptions {
  /** The prefix served (`--base-path`), normalised; the engine takes it off the path. */
  basePath?: string
  /** Host names this server is reached at, for the control guard (gateway.ts). */
  servedHosts?: readonly string[]
  /** Body-idle time-out in milliseconds (default DEFAULT_BODY_TIMEOUT_MS; 0 for none). */
  bodyTimeoutMs?: number
}

/**
 * A node request as the engine takes it: the target's path as it arrived (the engine normalises
 * it), the first value of each query parameter, lower-case headers, and the body as a reader the
 * engine calls once it has accepted the head. Translation only: no decision is taken here.
 */
export function toGatewayRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: NodeRequestOptions = {},
): IncomingRequest {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  const url = req.url ?? '/'
  const search = url.indexOf('?')
  // The first value of a repeated parameter wins, as a plain string: no arrays, no objects, and
  // Object.fromEntries makes `__proto__` an ordinary key.
  const query = new Map<string, string>()
  if (search >= 0)
    for (const [k, v] of new URLSearchParams(url.slice(search + 1))) if (!query.has(k)) query.set(k, v)
  const hash = url.indexOf('#')
  const end = search >= 0 ? search : hash >= 0 ? hash : url.length
  const connection = connectionOf(req.socket)
  // The client went away before its answer was written (a held answer then ends: src/core/faults).
  const gone = new AbortController()
  res.once('close', () => {
    if (!res.writableFinished) gone.abort()
  })
  return {
    method: req.method ?? 'GET',
    path: url.slice(0, end),
    query: Object.fromEntries(query),
    headers,
    readBody: (limit) => readBody(req, res, limit, options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS),
    remoteAddress: plainAddress(req.socket.remoteAddress),
    signal: gone.signal,
    ...(options.basePath ? { basePath: options.basePath } : {}),
    ...(options.servedHosts ? { servedHosts: options.servedHosts } : {}),
    // docs/rules.md#connections: the connection's standing (createHttpServer's connections).
    ...(connection?.onReserve ? { onReserve: true } : {}),
    ...(connection ? { connections: connection.usage } : {}),
  }
}

/** `::ffff:127.0.0.1` (an IPv4 caller on a dual-stack socket) is recorded as `127.0.0.1`. */
const plainAddress = (address: string | undefined) => address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '')

const EMPTY_READ: BodyRead = { ok: true, body: new Uint8Array(0) }

type Inflater = () => NodeJS.ReadWriteStream
const INFLATERS: Record<string, Inflater | undefined> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
}

/**
 * The body, inflated per `Content-Encoding` as body-parser does (gzip, deflate, br; another
 * encoding is refused), never more than `limit + 1` bytes of it kept, and given up after
 * `idleMs` without a byte. `Expect: 100-continue` is answered here, when the engine asks for the
 * body: a request it refused from its head never gets `100 Continue`.
 */
function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  idleMs: number,
): Promise<BodyRead> {
  // No Content-Length and no Transfer-Encoding: the request has no body (RFC 9112 6.3).
  if (req.complete && req.headers['content-length'] === undefined && !req.headers['transfer-encoding'])
    return Promise.resolve(EMPTY_READ)
  return new Promise((resolve) => {
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
    const inflater = encoding === 'identity' ? undefined : INFLATERS[encoding]
    if (encoding !== 'identity' && !inflater) return resolve({ ok: false, reason: 'encoding' })
    if (/^\s*100-continue\s*$/i.test(req.headers.expect ?? '') && !res.headersSent) res.writeContinue()
    const source: Readable = inflater ? (req.pipe(inflater()) as unknown as Readable) : req
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const timer = idleMs > 0 ? setTimeout(() => finish({ ok: false, reason: 'timeout' }), idleMs) : undefined
    const finish = (read: BodyRead) => {
      if (done) return
      done = true
      if (timer) clearTimeout(timer)
      source.off('data', onData)
      source.off('end', onEnd)
      source.off('error', onError)
      req.off('close', onClose)
      if (!read.ok && source !== req) (source as unknown as { destroy(): void }).destroy()
      resolve(read)
    }
    const onData = (chunk: Buffer) => {
      timer?.refresh()
      size += chunk.length
      if (size > limit) return finish({ ok: false, reason: 'too-large' })
      chunks.push(chunk)
    }
    const onEnd = () =>
      finish({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks) })
    const onError = () => finish({ ok: false, reason: 'malformed' })
    // The connection went away before the body ended.
    const onClose = () => {
      if (!req.complete) finish({ ok: false, reason: 'malformed' })
    }
    source.on('data', onData)
    source.on('end', onEnd)
    source.on('error', onError)
    req.on('close', onClose)
    if (inflater) req.on('data', () => timer?.refresh())
  })
}

/**
 * Writes the engine's answer unchanged. A request whose body was not read to its end (refused
 * from its head: 413, 404, a guard refusal) is answered with `Connection: close`, so the rest of
 * an oversize body is never read. A stream (the event stream) gets a sink that says whether the
 * client keeps up, calls back when it has drained, and whether the answer is still open; the
 * engine writes nothing once it is not.
 */
export function writeResponse(req: IncomingMessage, res: ServerResponse, response: GatewayResponse): void {
  if (res.headersSent || res.writableEnded || res.destroyed) {
    response.stream?.cancel?.()
    return void res.end()
  }
  // Gateway faults (src/core/faults): the connection goes away without an answer.
  if (response.fault === 'drop') {
    response.stream?.cancel?.()
    return void res.socket?.destroy()
  }
  res.statusCode = response.status
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value)
  if (response.warnings?.length) res.setHeader('sandbox-warning', response.warnings)
  if (!req.complete) res.setHeader('connection', 'close')
  if (!response.stream) return void res.end(response.body)
  holdsStream(res.socket)
  res.flushHeaders()
  if (response.body) res.write(response.body)
  const open = () => !res.writableEnded && !res.destroyed
  const unsubscribe = response.stream.subscribe((chunk) => (open() ? res.write(chunk) : false), {
    ready: () => open() && !res.writableNeedDrain,
    open,
    onDrain: (listener) => res.on('drain', listener),
    progress: () => {
      const waiting = res.socket?.writableLength ?? 0
      return { waiting, taken: (res.socket?.bytesWritten ?? 0) - waiting }
    },
    // A client that stopped reading is let go: its connection is reset, so that neither this
    // process nor either side's kernel keeps what it did not read.
    close: () => dropConnection(res),
  })
  res.on('close', unsubscribe)
}

/** Drops the answer's connection at once, with what is queued on it (a reset: nothing lingers to be sent). */
function dropConnection(res: ServerResponse): void {
  const socket = res.socket as (Socket & { resetAndDestroy?: () => Socket }) | null
  if (!socket || socket.destroyed) return void res.destroy()
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy()
  else socket.destroy()
}
