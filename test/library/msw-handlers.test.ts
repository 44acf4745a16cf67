import { gzipSync } from 'node:zlib'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventHistory } from '../../src/core/callbacks/index.js'
import { createSandbox } from '../../src/index.js'
import { mswHandlers } from '../../src/msw.js'
import { sessionRequest } from './helpers.js'

const BASE = 'https://gateway.test/pay'
const sandbox = await createSandbox({ seed: 'msw', onCallback: () => new Response('OK') })
const unhandled: string[] = []
const server = setupServer(...mswHandlers(sandbox, BASE))

beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request) => {
      unhandled.push(request.url)
    },
  }),
)
afterAll(async () => {
  server.close()
  await sandbox.close()
})

const invalid = (message: string) => ({
  http_code: 400,
  error_code: 100000,
  error_message: 'Request data is invalid.',
  errors: [{ error_code: 100000, error_message: message }],
})

describe('msw handlers: the engine at any base URL, no port', () => {
  // docs/rules.md#responses: session: `{"redirect_url": "{base_url}/auth/<session token>"}`
  it('answers every method and path under the base, relative to its path', async () => {
    const session = await fetch(`${BASE}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sessionRequest('msw-1')),
    })
    expect(session.status).toBe(200)
    expect(session.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await session.json()).toEqual({
      redirect_url: expect.stringMatching(/^https:\/\/gateway\.test\/pay\/auth\//),
    })
    const missing = await fetch(`${BASE}/api/v1/nowhere`, { method: 'DELETE' })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ http_code: 404, error_code: 100000, error_message: 'Not found.' })
  })

  it('leaves requests outside the base to other handlers', async () => {
    await expect(fetch('https://gateway.test/sandbox/health')).rejects.toThrow()
    expect(unhandled).toEqual(['https://gateway.test/sandbox/health'])
  })

  it('takes the first value of a repeated query parameter, as the express adapter does', async () => {
    const r = await fetch(`${BASE}/sandbox/payments?per_page=0&per_page=5`)
    expect(await r.json()).toEqual(invalid('per_page: This value should be a whole number from 1 to 100.'))
  })

  // Catalogue REQUEST_CONTENT_TYPE_UNSUPPORTED: body-parser refuses an unknown Content-Encoding with 415.
  it('inflates gzip bodies and refuses unknown encodings as express does', async () => {
    const zipped = await fetch(`${BASE}/sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync('{"seconds":30}'),
    })
    expect(await zipped.json()).toMatchObject({ now: '2020-01-01 00:00:30', advanced_seconds: 30 })
    const compressed = await fetch(`${BASE}/sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'compress' },
      body: '{"seconds":30}',
    })
    expect(compressed.status).toBe(415)
    const broken = await fetch(`${BASE}/sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: 'not gzip',
    })
    expect(await broken.json()).toMatchObject({
      http_code: 400,
      error_message: 'Request body could not be parsed.',
    })
    expect(sandbox.clock.now()).toBe(Date.UTC(2020, 0, 1, 0, 0, 30))
  })

  // Issue 5: "a live event stream (server-sent events)"; the adapter maps response.stream to a ReadableStream.
  it('streams /sandbox/events and stops listening when the client goes away', async () => {
    const events = sandbox.gateway.ctx.events
    // Each stream client is one open stream of the engine's event history.
    const history = eventHistory(sandbox.gateway.ctx)
    const listeners = () => history.stats().open
    const controller = new AbortController()
    const response = await fetch(`${BASE}/sandbox/events`, { signal: controller.signal })
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    let text = decoder.decode((await reader.read()).value)
    expect(text).toBe(': paysandbox events\n\n')
    expect(listeners()).toBe(1)
    events.emit({ type: 'clock', now: 42, at: 42 })
    while (!text.includes('event: clock')) text += decoder.decode((await reader.read()).value)
    expect(text).toContain('data: {"type":"clock","now":42,"at":42}')
    controller.abort()
    await expect.poll(listeners).toBe(0)
  })

  // docs/conformance.md, Gateway faults: a late answer ends when the merchant's client gives up.
  it('a caller whose time-out fires while its answer is held gets its own time-out error; the work is done', async () => {
    const before = sandbox.gateway.ctx.store.list('sessions').length
    await sandbox.faults.add({ mode: 'late', hold_seconds: 600, match: { path: '/api/v1/session' } })
    const sent = fetch(`${BASE}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sessionRequest('msw-late')),
      signal: AbortSignal.timeout(300),
    })
    await expect(sent).rejects.toThrow(/abort|time/i)
    expect(sandbox.gateway.ctx.store.list('sessions')).toHaveLength(before + 1)
    expect(sandbox.faults.list()).toEqual([])
  })

  it('refuses a base URL that is not absolute http(s)', () => {
    expect(() => mswHandlers(sandbox, 'gateway.test')).toThrow(/must be absolute/)
    expect(() => mswHandlers(sandbox, 'ftp://gateway.test')).toThrow(/http or https/)
  })
})
