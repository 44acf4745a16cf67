import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { eventHistory } from '../../src/core/callbacks/index.js'
import { createTestApp } from './app.js'

// Issue 5: "a live event stream (server-sent events) of payments, transactions and deliveries for the CLI and the terminal UI"
describe('GET /sandbox/events over HTTP', () => {
  it('keeps the answer open and writes each engine event as a server-sent event', async () => {
    const { app, gateway } = createTestApp()
    const server = createServer(app).listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    const controller = new AbortController()
    try {
      const response = await fetch(`http://127.0.0.1:${port}/sandbox/events`, { signal: controller.signal })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
      const reader = (response.body as ReadableStream<Uint8Array>).getReader()
      const decoder = new TextDecoder()
      let text = decoder.decode((await reader.read()).value)
      gateway.ctx.events.emit({ type: 'clock', now: 42, at: 42 })
      while (!text.includes('event: clock')) text += decoder.decode((await reader.read()).value)
      expect(text).toContain('event: clock')
      expect(text).toMatch(/data: \{"type":"clock","now":42,"at":42\}/)
    } finally {
      controller.abort()
      server.close()
    }
  })

  it('unsubscribes when the client goes away', async () => {
    const { app, gateway } = createTestApp()
    // Each stream client is one open stream of the engine's event history.
    const history = eventHistory(gateway.ctx)
    const listeners = () => history.stats().open
    const server = createServer(app).listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    const controller = new AbortController()
    const response = await fetch(`http://127.0.0.1:${port}/sandbox/events`, { signal: controller.signal })
    await (response.body as ReadableStream<Uint8Array>).getReader().read()
    const during = listeners()
    controller.abort()
    expect(during).toBe(1)
    await expect.poll(listeners).toBe(0)
    server.close()
  })
})
