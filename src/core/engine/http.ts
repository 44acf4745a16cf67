/** What every adapter (express, msw, the scenario runner) turns its request into. */
export interface GatewayRequest {
  method: string
  /** Path without the query string, e.g. `/api/v1/session`. */
  path: string
  query: Record<string, string>
  /** Header names in lower case. */
  headers: Record<string, string>
  /** The raw body bytes; the engine parses JSON, forms and multipart itself so every adapter behaves alike. */
  body: Uint8Array
  /** The caller's address (recorded as the payer IP where the interface says so). */
  remoteAddress?: string
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
  stream?: { subscribe(write: (chunk: string) => unknown, sink?: StreamSink): () => void }
  /** decisions.md §7: one `Sandbox-Warning` header each (adapters write them as repeated headers). */
  warnings?: string[]
  /**
   * Gateway faults (src/core/faults): `drop` closes the connection without writing anything, as a
   * gateway that went away does (adapters that cannot, such as fetch, fail like a network error).
   */
  fault?: 'drop'
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
 * read what was written (the socket's buffer is full), so the engine can skip instead of queueing;
 * `close()` ends the answer.
 */
export interface StreamSink {
  ready(): boolean
  close?(): void
}
