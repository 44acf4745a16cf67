import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SandboxHost, startSandboxHost } from '../../src/conformance/sandbox-host.js'

/**
 * The kit's host serves each scenario's gateway through the same node translation as `serve`:
 * the engine reads the merchant's body within its limits (docs/rules.md#transport; catalogue row
 * REQUEST_BODY_TOO_LARGE, Limits), and the request log keeps what the gateway read.
 */

const credentials = { merchant_key: 'host-merchant', password: 'host-password-0123456789' }
let host: SandboxHost

beforeAll(async () => {
  host = await startSandboxHost()
  host.create('host-case', {
    credentials,
    notificationUrl: 'http://127.0.0.1:9/callback',
    deliver: async () => ({ status: 200, body: 'OK' }),
  })
})
afterAll(() => host.close())

interface Answer {
  status: number
  body: string
  headers: Record<string, string | string[] | undefined>
}

/** Sends a head that declares `declared` bytes and then `sent` bytes of body. */
function send(path: string, declared: number, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${host.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(declared) },
    })
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          headers: res.headers,
        }),
      )
    })
    // The server may close after answering from the head: the rest of the body is not read.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error)
    })
    req.end(body)
  })
}

describe("the kit's host: the gateway reads the merchant's body (engine lifecycle)", () => {
  it('answers a body declared over the limit with 413 REQUEST_BODY_TOO_LARGE from its head', async () => {
    const gateway = host.get('host-case')
    if (!gateway) throw new Error('no gateway')
    const before = gateway.requests.length
    const answer = await send('/run/host-case/api/v1/session', 5 * 1024 * 1024, Buffer.alloc(64 * 1024, 'a'))
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toMatchObject({ error_message: 'Request body is too large.' })
    expect(answer.headers.connection).toBe('close')
    // The refused request is logged with its answer and no body read.
    const logged = gateway.requests.slice(before)
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatchObject({ path: '/api/v1/session', text: '', answer: { status: 413 } })
  })

  it('logs what the gateway read and answered, with the path under the scenario', async () => {
    const gateway = host.get('host-case')
    if (!gateway) throw new Error('no gateway')
    const before = gateway.requests.length
    const body = Buffer.from(
      JSON.stringify({ merchant_key: credentials.merchant_key, operation: 'purchase' }),
    )
    const answer = await send('/run/host-case/api/v1/session', body.length, body)
    expect(answer.status).toBe(400)
    const [logged] = gateway.requests.slice(before)
    expect(logged?.path).toBe('/api/v1/session')
    expect(logged?.text).toBe(body.toString())
    expect(logged?.body).toMatchObject({ operation: 'purchase' })
    expect(logged?.answer.status).toBe(400)
    expect(logged?.answer.json).toEqual(JSON.parse(answer.body))
  })

  it('refuses a callback to its own receiver past 1 MiB without reading it whole', async () => {
    const answer = await send('/callbacks/host-case', 2 * 1024 * 1024, Buffer.alloc(2 * 1024 * 1024, 'a'))
    expect(answer.status).toBe(413)
  })
})

describe("the kit's host: a head node cannot read (docs/rules.md#request-limits)", () => {
  it('answers the structured envelope, as serve does, and keeps serving', async () => {
    const { connect } = await import('node:net')
    const { port } = new URL(host.url)
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('GET / HTTP/1.1\r\nBad Header\r\n\r\n'),
      )
      const chunks: Buffer[] = []
      socket.on('data', (c: Buffer) => chunks.push(c))
      socket.on('close', () => resolve(Buffer.concat(chunks).toString()))
      socket.on('error', reject)
    })
    expect(raw).toMatch(/^HTTP\/1\.1 400 /)
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))
    expect(body).toMatchObject({
      http_code: 400,
      error_code: 100000,
      error_message: 'Request head could not be parsed.',
    })
    const after = await send('/run/host-case/api/v1/session', 2, Buffer.from('{}'))
    expect(after.status).toBe(400)
  })
})
