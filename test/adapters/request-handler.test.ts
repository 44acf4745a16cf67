import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createRequestHandler } from '../../src/adapters/express/handler.js'
import type { Gateway } from '../../src/core/engine/gateway.js'
import type { GatewayResponse } from '../../src/core/engine/http.js'
import { raw } from '../helpers/raw-connection.js'

/**
 * The node request listener `serve` and `sandbox.listen` use (adapters/express/handler.ts), with no
 * framework around it to catch what goes wrong: nothing may take the process down (docs/engine.md:
 * "nothing a user sends may produce a 500 or crash the process"; the adapter's own failure is the
 * engine's 500 shape, or the connection when not even that can be written).
 */
describe('the HTTP request listener', () => {
  const servers: ReturnType<typeof createServer>[] = []
  afterEach(() => {
    for (const s of servers.splice(0)) s.close()
  })

  /** A listener over a stand-in gateway whose answers the test chooses, and what it logged. */
  async function serveWith(answer: () => Promise<GatewayResponse>) {
    const errors: unknown[] = []
    const gateway = { handle: answer } as unknown as Gateway
    const server = createServer(createRequestHandler(gateway, { onError: (e) => errors.push(e) }))
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { port: (server.address() as AddressInfo).port, errors }
  }
  const ask = (port: number) => {
    const c = raw(port)
    c.socket.write('GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
    return c.until((a) => a.closed)
  }

  it('answers the structured 500 when the engine rejects', async () => {
    const { port, errors } = await serveWith(() => Promise.reject(new Error('engine bug')))
    const answer = await ask(port)
    expect(answer.text).toMatch(/^HTTP\/1\.1 500 /)
    expect(answer.text).toContain(
      '{"http_code":500,"error_code":0,"error_message":"Internal sandbox error."}',
    )
    expect(errors).toHaveLength(1)
  })

  it('never crashes on an answer that cannot be written: no 200, and it goes on serving', async () => {
    let bad = true
    const { port, errors } = await serveWith(
      async (): Promise<GatewayResponse> =>
        bad
          ? { status: 200, headers: { 'x-broken': 'a\nb' }, body: '' }
          : { status: 200, headers: { 'content-type': 'text/plain' }, body: 'fine' },
    )
    const broken = await ask(port)
    expect(broken.closed).toBe(true)
    expect(broken.text).not.toMatch(/^HTTP\/1\.1 200 /)
    expect(errors.length).toBeGreaterThan(0)
    bad = false
    expect((await ask(port)).text).toMatch(/^HTTP\/1\.1 200 [\s\S]*fine$/)
  })
})
