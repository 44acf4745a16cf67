import { gzipSync } from 'node:zlib'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createExpressApp } from '../../src/adapters/express/app.js'
import type { Gateway } from '../../src/core/engine/gateway.js'
import { jsonResponse } from '../../src/core/engine/http.js'
import type { EngineModule } from '../../src/core/engine/modules.js'
import { demoConfig } from '../helpers/engine.js'
import { createTestApp } from './app.js'

/** Answers what the engine received, so the translation can be checked. */
const mirror: EngineModule = {
  name: 'mirror',
  routes: () =>
    (['/api/v1/mirror', '/post'] as const).map((path) => ({
      method: 'POST' as const,
      path,
      api: path === '/post' ? ('s2s-card' as const) : ('checkout' as const),
      handler: ({ request: r, body }) =>
        jsonResponse(
          201,
          {
            method: r.method,
            path: r.path,
            query: r.query,
            headers: r.headers,
            bytes: Buffer.from(r.body).toString('hex'),
            remoteAddress: r.remoteAddress,
            body,
          },
          { 'x-engine': 'yes', 'cache-control': 'no-store' },
        ),
    })),
}

describe('express adapter: request in, response out (docs/engine.md)', () => {
  it('hands the engine raw bytes, lower-case headers, the query and the caller address', async () => {
    const { app } = createTestApp([mirror])
    const bytes = Buffer.from('{"a":"é","n":1}')
    const r = await request(app)
      .post('/api/v1/mirror?x=1&x=2&empty=&__proto__=p')
      .set('Content-Type', 'application/json')
      .set('X-Custom-Thing', 'Value')
      .serialize((b: Buffer) => b as unknown as string)
      .send(bytes)
      .expect(201)
    expect(r.body).toMatchObject({
      method: 'POST',
      path: '/api/v1/mirror',
      query: { x: '1', empty: '', ['__proto__']: 'p' },
      bytes: bytes.toString('hex'),
      remoteAddress: '127.0.0.1',
      body: { a: 'é', n: 1 },
    })
    expect(r.body.headers).toMatchObject({ 'content-type': 'application/json', 'x-custom-thing': 'Value' })
    // The engine's answer is written back unchanged: status, headers, body.
    expect(r.headers['x-engine']).toBe('yes')
    expect(r.headers['cache-control']).toBe('no-store')
    expect(r.headers['x-powered-by']).toBeUndefined()
    expect(r.headers.etag).toBeUndefined()
  })

  it('passes forms through for the engine to parse, and inflates gzip bodies', async () => {
    const { app } = createTestApp([mirror])
    const form = await request(app)
      .post('/post')
      .type('form')
      .send('action=SALE&mpi_data%5Beci%5D=05')
      .expect(201)
    expect(form.body.body).toEqual({ action: 'SALE', mpi_data: { eci: '05' } })
    const zipped = await request(app)
      .post('/api/v1/mirror')
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .serialize((b: Buffer) => b as unknown as string)
      .send(gzipSync('{"zipped":true}'))
      .expect(201)
    expect(zipped.body.body).toEqual({ zipped: true })
  })
})

describe('express adapter: every error is the engine envelope, never HTML', () => {
  const html = (r: request.Response) =>
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8')

  // docs/engine.md: "router (method + path) -> 404 "Not found." when nothing matches"
  it.each([
    ['GET', '/nowhere'],
    ['GET', '/sandbox/reset'],
    ['DELETE', '/sandbox/health'],
    ['HEAD', '/api/v1/session/../../etc/passwd'],
    ['GET', '/%'],
  ])('%s %s answers 404 in the envelope', async (method, path) => {
    const { app } = createTestApp()
    const r = await request(app)[method.toLowerCase() as 'get'](path).expect(404)
    if (method !== 'HEAD') {
      html(r)
      expect(r.body).toEqual({ http_code: 404, error_code: 100000, error_message: 'Not found.' })
    }
  })

  it('answers malformed JSON with 400 and an unknown media type with 415 (catalogue rows)', async () => {
    const { app, clock } = createTestApp()
    const bad = await request(app)
      .post('/sandbox/clock/advance')
      .set('content-type', 'application/json')
      .send('{"seconds":')
    expect(bad.status).toBe(400)
    html(bad)
    expect(bad.body).toEqual({
      http_code: 400,
      error_code: 100000,
      error_message: 'Request body could not be parsed.',
    })
    const xml = await request(app)
      .post('/sandbox/clock/advance')
      .set('content-type', 'application/xml')
      .send('<seconds>1</seconds>')
    expect(xml.status).toBe(415)
    expect(xml.body).toEqual({
      http_code: 415,
      error_code: 100000,
      error_message: 'Content-Type is not supported.',
    })
    const encoding = await request(app)
      .post('/sandbox/clock/advance')
      .set('content-type', 'application/json')
      .set('content-encoding', 'compress')
      .send('{"seconds":1}')
    expect(encoding.status).toBe(415)
    expect(encoding.body).toEqual(xml.body)
    expect(clock.now()).toBe(Date.UTC(2026, 10, 2, 10, 0, 0))
  })

  // Catalogue REQUEST_BODY_TOO_LARGE: "Body larger than the configured limit (sandbox config `limits.body_bytes`)"
  it('answers a body over the limit with the 413 row, in the envelope of the route', async () => {
    const { app } = createTestApp([mirror], { ...demoConfig(), limits: { body_bytes: 1024 } })
    const fits = await request(app)
      .post('/api/v1/mirror')
      .set('content-type', 'application/json')
      .send(`"${'x'.repeat(1020)}"`)
    expect(fits.status).toBe(400) // 1022 bytes reach the engine: a JSON string is not an object
    const over = await request(app)
      .post('/api/v1/mirror')
      .set('content-type', 'application/json')
      .send(`"${'x'.repeat(1023)}"`)
    expect(over.status).toBe(413)
    html(over)
    expect(over.body).toEqual({
      http_code: 413,
      error_code: 100000,
      error_message: 'Request body is too large.',
    })
    const huge = await request(app)
      .post('/post')
      .type('form')
      .send(`a=${'x'.repeat(5_000_000)}`)
    expect(huge.status).toBe(413)
    expect(huge.body).toEqual({
      result: 'ERROR',
      http_code: 413,
      error_code: 100000,
      error_message: 'Request body is too large.',
    })
    // The router comes first (docs/engine.md): an unknown path is 404 whatever its body.
    const nowhere = await request(app).post('/nowhere').send('x'.repeat(4096))
    expect(nowhere.status).toBe(404)
  })

  it('answers a failure outside the engine with a structured 500, never HTML', async () => {
    const errors: unknown[] = []
    const broken = {
      ctx: { config: demoConfig(), store: { flush: async () => {} }, logger: console },
      routes: () => [],
      handle: async () => {
        throw new Error('adapter-level failure')
      },
    } as unknown as Gateway
    const app = createExpressApp(broken, { onError: (e) => errors.push(e) })
    const r = await request(app).get('/anything').expect(500)
    html(r)
    expect(r.body).toEqual({ http_code: 500, error_code: 0, error_message: 'Internal sandbox error.' })
    expect(errors).toHaveLength(1)
  })

  it('answers only once the store has the change (flush before writing)', async () => {
    const { gateway } = createTestApp()
    const order: string[] = []
    const store = gateway.ctx.store
    const original = store.flush.bind(store)
    store.flush = async () => {
      await new Promise((r) => setTimeout(r, 20))
      order.push('flushed')
      return original()
    }
    const app = createExpressApp(gateway)
    await request(app).post('/sandbox/reset').expect(200)
    order.push('answered')
    expect(order).toEqual(['flushed', 'answered'])
  })
})
