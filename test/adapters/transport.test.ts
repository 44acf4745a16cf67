import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createFetchTransport } from '../../src/adapters/transport/fetch-transport.js'
import { createInProcessTransport } from '../../src/adapters/transport/in-process-transport.js'
import { type Received, transportContract } from './transport-contract.js'

transportContract('fetch (HTTP on loopback)', async (merchant) => {
  const received: Received[] = []
  const hanging = new Set<() => void>()
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        contentType: req.headers['content-type'],
        body: Buffer.concat(chunks).toString('utf8'),
      })
      if (merchant.kind === 'answer') res.writeHead(merchant.status).end(merchant.body)
      else hanging.add(() => res.destroy())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  if (merchant.kind === 'fail') await new Promise<void>((resolve) => server.close(() => resolve()))
  return {
    transport: createFetchTransport(),
    url: `http://127.0.0.1:${port}/callback`,
    received,
    close: async () => {
      for (const end of hanging) end()
      if (merchant.kind !== 'fail') await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
})

transportContract('in-process (the merchant as a function)', async (merchant) => {
  const received: Received[] = []
  const transport = createInProcessTransport(async (request) => {
    received.push({
      method: request.method,
      contentType: request.headers.get('content-type') ?? undefined,
      body: await request.text(),
    })
    if (merchant.kind === 'answer') return new Response(merchant.body, { status: merchant.status })
    if (merchant.kind === 'fail') throw new TypeError('fetch failed (ECONNREFUSED)')
    return new Promise<Response>(() => {})
  })
  return { transport, url: 'http://merchant.test/callback', received, close: async () => {} }
})
