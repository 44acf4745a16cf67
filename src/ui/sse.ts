import type { EngineEvent } from './client-types.js'

/**
 * Reads a server-sent event stream (`event: x\ndata: {...}\n\n`) into engine events. Comment
 * lines (`: heartbeat`) and events whose data is not JSON are skipped: a stream from a newer
 * sandbox must never break the console.
 */
export async function* readEvents(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
): AsyncGenerator<EngineEvent> {
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const value of chunksOf(body)) {
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n')
    let end = buffer.indexOf('\n\n')
    while (end >= 0) {
      const event = parseBlock(buffer.slice(0, end))
      buffer = buffer.slice(end + 2)
      if (event) yield event
      end = buffer.indexOf('\n\n')
    }
  }
}

/** A web stream (fetch, the in-process gateway) or a Node stream (node-fetch.ts), chunk by chunk. */
async function* chunksOf(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>) {
  if (!('getReader' in body)) {
    yield* body
    return
  }
  const reader = body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    reader.releaseLock()
  }
}

export function parseBlock(block: string): EngineEvent | undefined {
  const data = block
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n')
  if (!data) return undefined
  try {
    const parsed = JSON.parse(data) as EngineEvent
    return parsed && typeof parsed === 'object' && typeof parsed.type === 'string' ? parsed : undefined
  } catch {
    return undefined
  }
}
