/** How callbacks leave the engine: fetch over HTTP when serving, a direct call in-process. */
export interface OutboundRequest {
  url: string
  method: 'POST'
  headers: Record<string, string>
  body: string
  timeoutMs: number
}

export interface OutboundResponse {
  status: number
  body: string
}

export interface Transport {
  /** Resolves with the merchant's answer; rejects on refused connection or time-out (a failed attempt). */
  send(request: OutboundRequest): Promise<OutboundResponse>
}
