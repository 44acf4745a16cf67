import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFetchTransport, MAX_ANSWER_BYTES } from '../../src/adapters/transport/fetch-transport.js'
import type { OutboundRequest } from '../../src/core/ports/transport.js'

/** A merchant's callback endpoint on loopback, answering per path. */
let server: Server
let base = ''
const received: { headers: IncomingMessage['headers']; body: string }[] = []

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', () => {
      received.push({ headers: req.headers, body })
      if (req.url === '/ok') res.end('OK')
      else if (req.url === '/fail') res.writeHead(500).end('nope')
      else if (req.url === '/redirect') res.writeHead(302, { location: '/ok' }).end()
      else if (req.url === '/big') res.end('x'.repeat(MAX_ANSWER_BYTES * 3))
      // /slow never answers: only the transport's time-out ends the request (afterAll closes it).
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const post = (path: string, timeoutMs = 1_000): OutboundRequest => ({
  url: `${base}${path}`,
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
  body: 'id=1&order_status=settled',
  timeoutMs,
})

// docs/rules.md#acknowledgement: "Acknowledgement: Checkout: any 2xx. S2S: body `OK`. Anything else, a time-out (10 s)
// or a refused connection is a failed attempt."
describe('fetch transport', () => {
  it('sends the callback as given and resolves with the status and body of the answer', async () => {
    const transport = createFetchTransport()
    expect(await transport.send(post('/ok'))).toEqual({ status: 200, body: 'OK' })
    expect(received.at(-1)).toMatchObject({
      body: 'id=1&order_status=settled',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    })
    expect(await transport.send(post('/fail'))).toEqual({ status: 500, body: 'nope' })
  })

  it('does not follow a redirect: the 3xx is the answer', async () => {
    const r = await createFetchTransport().send(post('/redirect'))
    expect(r.status).toBe(302)
    expect(received.at(-1)?.body).toBe('id=1&order_status=settled')
  })

  it('reads at most 64 KiB of an answer', async () => {
    const r = await createFetchTransport().send(post('/big'))
    expect(r.body.length).toBe(MAX_ANSWER_BYTES)
  })

  it('rejects when the merchant does not answer in time', async () => {
    // The endpoint never answers: the send settles only because the time-out ends it (no stopwatch).
    await expect(createFetchTransport().send(post('/slow', 100))).rejects.toThrow()
  })

  it('rejects a refused connection', async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    await new Promise((r) => closed.close(r))
    await expect(
      createFetchTransport().send({ ...post('/ok'), url: `http://127.0.0.1:${port}/callback` }),
    ).rejects.toThrow()
  })
})
