import type { Api } from '../engine/model.js'
import type { OutboundRequest, Transport } from '../ports/transport.js'

/** "First 500 characters of the answer" (DeliveryAttempt.body_excerpt): the log stays small whatever a merchant answers. */
export const EXCERPT_CHARS = 500

export interface AttemptOutcome {
  status?: number
  body_excerpt?: string
  error?: string
  latency_ms: number
  acknowledged: boolean
}

/**
 * decisions.md §3: "Acknowledgement: Checkout: any 2xx. S2S: body `OK`." Surrounding white space
 * is tolerated (frameworks add a newline); the letters are not.
 */
export function acknowledges(api: Api, status: number, body: string): boolean {
  if (api === 'checkout') return status >= 200 && status < 300
  return body.trim() === 'OK'
}

class TimeoutError extends Error {}

/**
 * One POST to the merchant. Never rejects: a refused connection, an error of the transport and a
 * time-out are failed attempts. The time-out is enforced here as well as by the transport, in
 * real time (it is the merchant's real endpoint that is slow), so an in-process merchant that
 * never answers cannot hold a delivery slot for ever. Latency is measured with the monotonic
 * performance clock: it is a duration, not sandbox time.
 */
export async function attemptOnce(
  transport: Transport,
  request: OutboundRequest,
  api: Api,
): Promise<AttemptOutcome> {
  const started = performance.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  const latency = () => Math.round(performance.now() - started)
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new TimeoutError(`Timed out after ${request.timeoutMs} ms`)),
        request.timeoutMs,
      )
    })
    const response = await Promise.race([Promise.resolve().then(() => transport.send(request)), timeout])
    const status = Number(response?.status)
    const body = String(response?.body ?? '')
    return {
      status,
      body_excerpt: body.slice(0, EXCERPT_CHARS),
      latency_ms: latency(),
      acknowledged: Number.isInteger(status) && acknowledges(api, status, body),
    }
  } catch (error) {
    return { error: describe(error).slice(0, EXCERPT_CHARS), latency_ms: latency(), acknowledged: false }
  } finally {
    clearTimeout(timer)
  }
}

/** `fetch failed (ECONNREFUSED)`: the cause's code says what a bare "fetch failed" does not. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error.cause as { code?: unknown } | undefined)?.code
  return `${error.message}${typeof code === 'string' ? ` (${code})` : ''}`
}
