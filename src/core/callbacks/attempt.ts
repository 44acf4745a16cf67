import type { Api } from '../engine/model.js'
import type { OutboundRequest, Transport } from '../ports/transport.js'

/** "First 500 characters of the answer" (DeliveryAttempt.body_excerpt): the log stays small whatever a merchant answers. */
export const EXCERPT_CHARS = 500

export interface AttemptOutcome {
  status?: number
  body_excerpt?: string
  error?: string
  /** The transport gave up after `timeoutMs` (counts toward the URL blocking rule). */
  timed_out?: boolean
  latency_ms: number
  acknowledged: boolean
}

/**
 * docs/rules.md#acknowledgement: "Acknowledgement: Checkout: any 2xx. S2S: body `OK`." Surrounding white space
 * is tolerated (frameworks add a newline); the letters are not.
 */
export function acknowledges(api: Api, status: number, body: string): boolean {
  if (api === 'checkout') return status >= 200 && status < 300
  return body.trim() === 'OK'
}

/**
 * One POST to the merchant. Never rejects: a refused connection, an error of the transport and a
 * time-out are failed attempts. The time-out is the transport's: it is given `timeoutMs` and
 * rejects with a `TimeoutError` (as `AbortSignal.timeout` does), so the engine itself never
 * starts a real-time timer. Latency is measured with the monotonic performance clock: it is a
 * duration, not sandbox time.
 */
export async function attemptOnce(
  transport: Transport,
  request: OutboundRequest,
  api: Api,
): Promise<AttemptOutcome> {
  const started = performance.now()
  const latency = () => Math.round(performance.now() - started)
  try {
    const response = await Promise.resolve().then(() => transport.send(request))
    const status = Number(response?.status)
    const body = String(response?.body ?? '')
    return {
      status,
      body_excerpt: body.slice(0, EXCERPT_CHARS),
      latency_ms: latency(),
      acknowledged: Number.isInteger(status) && acknowledges(api, status, body),
    }
  } catch (error) {
    if (isTimeout(error))
      return {
        error: `Timed out after ${request.timeoutMs} ms`,
        timed_out: true,
        latency_ms: latency(),
        acknowledged: false,
      }
    return { error: describe(error).slice(0, EXCERPT_CHARS), latency_ms: latency(), acknowledged: false }
  }
}

/** `AbortSignal.timeout` rejects with a DOMException named TimeoutError; undici may wrap it as the cause. */
export function isTimeout(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++)
    if ((e as { name?: unknown }).name === 'TimeoutError') return true
  return false
}

/** `fetch failed (ECONNREFUSED)`: the cause's code says what a bare "fetch failed" does not. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error.cause as { code?: unknown } | undefined)?.code
  return `${error.message}${typeof code === 'string' ? ` (${code})` : ''}`
}
