import type { SandboxHealthResponse } from '../../generated/types.js'
import type { Refusal } from './refusal.js'

/** A request as handlers see it: its path normalised, its body read. */
export interface GatewayRequest {
  method: string
  /** Path without the query string, normalised (path.ts) and relative to the base path, e.g. `/api/v1/session`. */
  path: string
  query: Record<string, string>
  /** Header names in lower case. */
  headers: Record<string, string>
  /** The raw body bytes; the engine parses JSON, forms and multipart itself so every adapter behaves alike. */
  body: Uint8Array
  /** The caller's address (recorded as the payer IP where the interface says so). */
  remoteAddress?: string
  /**
   * docs/rules.md#connections: the HTTP server's connections and their limits, for
   * `GET /sandbox/health` (given by the adapter that serves over HTTP; absent in-process).
   */
  connections?: () => ConnectionUsage
  /**
   * Aborted when the client goes away before its answer is written (its connection closed, its
   * fetch aborted): a held answer (gateway fault `late`, src/core/faults) ends there.
   */
  signal?: AbortSignal
}

/** The HTTP server's connections (adapters/express/connections.ts), as health shows them. */
export type ConnectionUsage = NonNullable<SandboxHealthResponse['connections']>

/** What every adapter (express, msw, `sandbox.fetch`, the kit's host) turns its request into. */
export interface IncomingRequest extends Omit<GatewayRequest, 'body'> {
  /**
   * The path as it arrived, without the query string (`/api/v1/session`, `//sandbox/reset`,
   * `/payment/post` under a base path): the engine normalises it (path.ts) before anything reads it.
   */
  path: string
  /** The raw body bytes, when the caller has them already (in-process). */
  body?: Uint8Array
  /**
   * Reads the body (an adapter over a socket): the engine calls it only once the head is accepted
   * (path, guard, route, `Content-Length` within the limit), so an oversize body is never read and
   * `Expect: 100-continue` is answered `100 Continue` only then. Keeps at most `limit` bytes.
   */
  readBody?: (limit: number) => Promise<BodyRead>
  /**
   * The prefix the adapter serves under (`--base-path /payment`, the path of the base URL msw and
   * `sandbox.fetch` answer), normalised (`normalizeBasePath`); the engine takes it off the path.
   */
  basePath?: string
  /**
   * Host names the adapter is reached at (the bound address, the base URL's host), which the
   * control guard admits in `Host` besides loopback, the base URL's and the config's allowed_hosts.
   */
  servedHosts?: readonly string[]
  /**
   * docs/rules.md#connections: the connection was admitted beyond the connection cap, on the
   * reserve: the engine serves it only health, the control API and the payer pages.
   */
  onReserve?: boolean
  /**
   * `IN_PROCESS`: the caller holds the gateway object (the library's and the kit's payer), so the
   * in-process routes (EngineModule `inProcessRoutes`) answer it too. No adapter can set it: a
   * request off the network is a plain object with no symbol in it.
   */
  door?: typeof IN_PROCESS
}

/** Marks a request made in-process by code holding the gateway (IncomingRequest `door`). */
export const IN_PROCESS: unique symbol = Symbol('paysandbox.in-process')

/** What an adapter's `readBody` found: the bytes (inflated per Content-Encoding), or why there are none. */
export type BodyRead =
  | { ok: true; body: Uint8Array }
  | {
      ok: false
      /**
       * too-large: more than the limit (after inflating); encoding: a Content-Encoding not
       * accepted; malformed: a body that does not inflate, or a client that went away mid-body;
       * timeout: no body bytes for the body-idle time-out.
       */
      reason: 'too-large' | 'encoding' | 'malformed' | 'timeout'
    }

/** What the engine answers; adapters write it back unchanged. */
export interface GatewayResponse {
  status: number
  headers: Record<string, string>
  body: string
  /**
   * A long-lived answer (server-sent events): after writing `body`, the adapter subscribes and
   * writes each chunk as it comes, until the client goes away (then it calls the unsubscribe).
   */
  stream?: {
    subscribe(write: (chunk: string) => unknown, sink?: StreamSink): () => void
    /** The adapter will not subscribe (its client left first): what the engine holds for it is released. */
    cancel?(): void
  }
  /** docs/rules.md#warnings: one `Sandbox-Warning` header each (adapters write them as repeated headers). */
  warnings?: string[]
  /**
   * Gateway faults (src/core/faults): `drop` closes the connection without writing anything, as a
   * gateway that went away does (adapters that cannot, such as fetch, fail like a network error).
   */
  fault?: 'drop'
  /**
   * docs/rules.md#rule-book: why the gateway refused, when it did (set once, in `gateway.handle`);
   * adapters write it as the `Sandbox-Rule` header (`ruleHeader`).
   */
  refusal?: Refusal
}

export const jsonResponse = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): GatewayResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
})

export const htmlResponse = (status: number, html: string): GatewayResponse => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: html,
})

export const redirectResponse = (location: string): GatewayResponse => ({
  status: 302,
  headers: { location },
  body: '',
})

/**
 * What an adapter tells a stream about its client: `ready()` is false while the client has not
 * read what was written (the socket's buffer is full), so the engine writes nothing more instead
 * of queueing; `onDrain` calls back each time the client has taken it all; `open()` is false once
 * the answer has ended or its connection is gone (nothing more is written); `progress()` says
 * whether the reader takes what waits for it; `close()` lets a client that stopped reading go: its
 * connection is dropped with whatever it did not read.
 */
export interface StreamSink {
  ready(): boolean
  open?(): boolean
  close?(): void
  onDrain?(listener: () => void): void
  /**
   * What the connection has not taken yet of what was written (`waiting`, in any unit) and how
   * much it has taken so far (`taken`, growing): a reader that takes nothing while something waits
   * for it is let go after the drain time-out.
   */
  progress?(): { waiting: number; taken: number }
}

/**
 * The header every injected answer carries (gateway faults, src/core/faults), so logs and the kit
 * never take a fault for the gateway's word. The engine's, since `gateway.handle` reads it.
 */
export const FAULT_HEADER = 'sandbox-fault'
