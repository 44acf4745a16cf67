import type { OutboundResponse, Transport } from '../../core/ports/transport.js'

/** A merchant's acknowledgement is `OK` or any 2xx: more than this of its answer is never needed. */
export const MAX_ANSWER_BYTES = 64 * 1024

/**
 * Callbacks over HTTP, for `serve`. The time-out covers the whole exchange, answer included
 * (docs/rules.md#acknowledgement: "a time-out (10 s) or a refused connection is a failed attempt"); redirects
 * are not followed, so a 3xx counts as the merchant's answer (not a 2xx: a failed attempt).
 */
export function createFetchTransport(fetchImpl: typeof fetch = fetch): Transport {
  return {
    async send(request) {
      const signal = AbortSignal.timeout(request.timeoutMs)
      const response = await fetchImpl(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal,
      })
      return { status: response.status, body: await readCapped(response) }
    },
  }
}

async function readCapped(response: Response): Promise<OutboundResponse['body']> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.length
    if (size >= MAX_ANSWER_BYTES) {
      await reader.cancel()
      break
    }
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES))
}
