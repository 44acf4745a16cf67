import type { OutboundResponse, Transport } from '../../core/ports/transport.js'

/** What a merchant's callback handler may answer: a fetch `Response`, or its status and body. */
export type MerchantAnswer = Response | { status?: number; body?: string }

/**
 * The merchant's callback endpoint as a function: it receives the callback exactly as it would
 * arrive over HTTP (a `POST` `Request` to the callback URL, form-urlencoded body), so a merchant
 * can pass its own app's fetch-style handler. Acknowledgement rules are the gateway's
 * (docs/rules.md#callbacks): Checkout any 2xx, S2S the body `OK`.
 */
export type MerchantHandler = (request: Request) => MerchantAnswer | Promise<MerchantAnswer>

/** Only the start of an answer is kept (as the fetch transport does): an acknowledgement is short. */
const MAX_ANSWER_CHARS = 64 * 1024

/**
 * Callbacks delivered in-process (design rule: "transport: fetch and in-process"): the merchant's
 * function is called instead of `fetch`. A handler that throws, or answers nothing usable, is a
 * failed attempt, retried on the sandbox clock like a refused connection.
 */
export function createInProcessTransport(handler: MerchantHandler): Transport {
  return {
    async send(outbound) {
      // The handler hears of the time-out through request.signal, as a fetch server does when the
      // caller goes away; the timer is cleared as soon as it answers.
      const controller = new AbortController()
      const timer = setTimeout(
        () => controller.abort(new DOMException('The callback attempt timed out', 'TimeoutError')),
        outbound.timeoutMs,
      )
      try {
        const request = new Request(outbound.url, {
          method: outbound.method,
          headers: outbound.headers,
          body: outbound.body,
          signal: controller.signal,
        })
        // A handler that ignores the signal still ends the attempt at the time-out (a TimeoutError).
        const aborted = new Promise<never>((_, reject) =>
          controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }),
        )
        return await Promise.race([
          Promise.resolve()
            .then(() => handler(request))
            .then(readAnswer),
          aborted,
        ])
      } finally {
        clearTimeout(timer)
      }
    },
  }
}

async function readAnswer(answer: unknown): Promise<OutboundResponse> {
  if (isResponse(answer)) {
    const body = await answer.text()
    return { status: answer.status, body: body.slice(0, MAX_ANSWER_CHARS) }
  }
  if (answer && typeof answer === 'object' && ('status' in answer || 'body' in answer)) {
    const { status, body } = answer as { status?: unknown; body?: unknown }
    if (
      (status === undefined || Number.isInteger(status)) &&
      (body === undefined || typeof body === 'string')
    )
      return { status: (status as number | undefined) ?? 200, body: (body ?? '').slice(0, MAX_ANSWER_CHARS) }
  }
  throw new TypeError(
    `the merchant's callback handler answered ${describe(answer)}; answer a Response ` +
      `(new Response('OK')) or { status, body }`,
  )
}

/** Duck-typed: a Response from another realm or library (msw's HttpResponse, undici) is one too. */
function isResponse(value: unknown): value is Response {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as Response).status === 'number' &&
    typeof (value as Response).text === 'function'
  )
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (undefined)'
  if (value === null) return 'null'
  return typeof value === 'object' ? 'an object without status or body' : `a ${typeof value}`
}
