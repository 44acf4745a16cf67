import { describe, expect, it } from 'vitest'
import { fail } from '../../src/core/engine/errors.js'
import { jsonResponse } from '../../src/core/engine/http.js'
import type { EngineModule } from '../../src/core/engine/modules.js'
import { createTestGateway, demoConfig } from '../helpers/engine.js'

const echo: EngineModule = {
  name: 'echo',
  routes: () => [
    { method: 'POST', path: '/api/v1/echo', api: 'checkout', handler: ({ body }) => jsonResponse(200, body) },
    { method: 'POST', path: '/post', api: 's2s-card', handler: ({ body }) => jsonResponse(200, body) },
    { method: 'GET', path: '/items/:id', api: 'sandbox', handler: ({ params }) => jsonResponse(200, params) },
    {
      method: 'POST',
      path: '/api/v1/refuse',
      api: 'checkout',
      handler: () => {
        throw fail('CHECKOUT_PAYMENT_NOT_FOUND')
      },
    },
    {
      method: 'POST',
      path: '/api/v1/bug',
      api: 'checkout',
      handler: () => {
        throw new TypeError('a bug')
      },
    },
  ],
}

describe('gateway.handle', () => {
  it('routes by method and path, with parameters', async () => {
    const t = createTestGateway([echo], undefined, { checkResponses: false })
    expect((await t.call('GET', '/items/a%20b')).body).toEqual({ id: 'a b' })
    const missing = await t.call('GET', '/nowhere')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ http_code: 404, error_code: 100000, error_message: 'Not found.' })
    expect((await t.call('GET', '/api/v1/echo')).status).toBe(404)
  })

  it('parses forms with bracket notation and JSON with bracketed keys alike', async () => {
    const t = createTestGateway([echo], undefined, { checkResponses: false })
    const form = await t.call('POST', '/post', 'action=SALE&mpi_data%5Beci%5D=05&custom_data%5Ba%5D%5Bb%5D=1')
    expect(form.body).toEqual({ action: 'SALE', mpi_data: { eci: '05' }, custom_data: { a: { b: '1' } } })
    const json = await t.call('POST', '/api/v1/echo', {
      'parameters[card][descriptor]': 'SHOP',
      parameters: { x: 1 },
    })
    expect(json.body).toEqual({ parameters: { x: 1, card: { descriptor: 'SHOP' } } })
  })

  it('answers malformed JSON with a structured 400 in the envelope of the API', async () => {
    const t = createTestGateway([echo], undefined, { checkResponses: false })
    const r = await t.call('POST', '/api/v1/echo', '{"a":', { 'content-type': 'application/json' })
    expect(r.status).toBe(400)
    // docs/rules.md#errors: on Checkout every refusal is an errors[] item under error_code 0
    expect(r.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'Request body could not be parsed.' }],
    })
    const s2s = await t.call('POST', '/post', '{"a":', { 'content-type': 'application/json' })
    expect(s2s.body).toMatchObject({ result: 'ERROR', error_message: 'Request body could not be parsed.' })
  })

  it('refuses bodies over the configured limit with 413 and unknown media types with 415', async () => {
    const config = { ...demoConfig(), limits: { body_bytes: 64 } }
    const t = createTestGateway([echo], config)
    const big = await t.call('POST', '/api/v1/echo', { a: 'x'.repeat(100) })
    expect(big.status).toBe(413)
    expect(big.body).toMatchObject({ error_message: 'Request body is too large.' })
    const xml = await t.call('POST', '/api/v1/echo', '<a/>', { 'content-type': 'application/xml' })
    expect(xml.status).toBe(415)
  })

  it('turns catalogue errors into their rows, and never lets a bug escape as anything but a structured 500', async () => {
    const t = createTestGateway([echo], undefined, { checkResponses: false })
    const refused = await t.call('POST', '/api/v1/refuse', {})
    expect(refused.body).toEqual({
      http_code: 400,
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'Payment not found.' }],
    })
    const bug = await t.call('POST', '/api/v1/bug', {})
    expect(bug.status).toBe(500)
    expect(bug.body).toMatchObject({ error_message: 'Internal sandbox error.' })
  })

  it('does not let __proto__ keys reach an object prototype', async () => {
    const t = createTestGateway([echo], undefined, { checkResponses: false })
    const r = await t.call('POST', '/api/v1/echo', '{"__proto__[polluted]":"1","a[__proto__][b]":"2"}', {
      'content-type': 'application/json',
    })
    expect(r.status).toBe(200)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

// docs/sandbox-choices.md (Void: the financial day is the sandbox clock's): every answer, refusals
// and unknown routes too, carries that clock in its HTTP Date header, so a merchant can tell a day is over.
describe('the Date header', () => {
  it("is the sandbox clock's time, moving with the virtual clock", async () => {
    const t = createTestGateway([echo], undefined, { checkResponses: false })
    const first = await t.call('POST', '/api/v1/echo', { a: 1 })
    expect(first.headers.date).toBe('Mon, 02 Nov 2026 10:00:00 GMT')
    await t.clock.advance(3 * 24 * 3600 * 1000)
    expect((await t.call('POST', '/api/v1/refuse', {})).headers.date).toBe('Thu, 05 Nov 2026 10:00:00 GMT')
    expect((await t.call('GET', '/nowhere')).headers.date).toBe('Thu, 05 Nov 2026 10:00:00 GMT')
  })
})

describe('body parsing robustness', () => {
  it('accepts bracketed JSON keys and values holding lone surrogates without failing', async () => {
    const t = createTestGateway([echo], undefined, { checkResponses: false })
    const r = await t.call('POST', '/api/v1/echo', '{"a[\\ud800]":"\\udc00","b[c]":"ok"}', {
      'content-type': 'application/json',
    })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ b: { c: 'ok' } })
  })
})
