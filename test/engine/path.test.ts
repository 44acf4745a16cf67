import { describe, expect, it } from 'vitest'
import { normalisePath, PATH_INVALID, PATH_OUTSIDE } from '../../src/core/engine/path.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { createTestGateway } from '../helpers/engine.js'

/**
 * Issue 21, requirement 1: "The path is normalised once, in core, before anything reads it (empty
 * segments, dot segments, percent-encoded slashes, trailing slash, base path)". The choices
 * (docs/architecture.md, the lifecycle): empty and dot segments and a trailing slash are
 * normalised away; an encoded slash or backslash is refused (400 REQUEST_PATH_INVALID).
 */
describe('normalisePath', () => {
  it.each([
    ['/sandbox/reset', '/sandbox/reset'],
    ['/', '/'],
    ['//sandbox/reset', '/sandbox/reset'],
    ['/sandbox//reset', '/sandbox/reset'],
    ['/sandbox/reset/', '/sandbox/reset'],
    ['/./sandbox/reset', '/sandbox/reset'],
    ['/x/../sandbox/reset', '/sandbox/reset'],
    ['/../../sandbox/reset', '/sandbox/reset'],
    ['/sandbox/reset/..', '/sandbox'],
    ['/%2e/sandbox/%2E%2e/sandbox/reset', '/sandbox/reset'],
    ['/%73andbox/reset', '/sandbox/reset'],
    ['/auth/a%20b', '/auth/a%20b'],
    ['/auth/a%3f', '/auth/a%3F'],
    ['http://evil.example//sandbox/reset', '/sandbox/reset'],
    ['/api/v1/session', '/api/v1/session'],
    ['/sandbox/payments/0b7c3f5e-8a4d/merchant-request', '/sandbox/payments/0b7c3f5e-8a4d/merchant-request'],
  ])('%s is %s', (raw, path) => {
    expect(normalisePath(raw)).toBe(path)
  })

  it.each([
    '/%2Fsandbox/reset',
    '/sandbox%2freset',
    '/sandbox%5Creset',
    '/sandbox\\reset',
    '*',
    'sandbox/reset',
  ])('%s is refused', (raw) => {
    expect(normalisePath(raw)).toBe(PATH_INVALID)
  })

  it('takes the base path off after normalising; what is outside it is outside', () => {
    expect(normalisePath('/payment//sandbox/clock', '/payment')).toBe('/sandbox/clock')
    expect(normalisePath('/payment/./post/', '/payment')).toBe('/post')
    expect(normalisePath('/payment/', '/payment')).toBe('/')
    expect(normalisePath('//payment', '/payment')).toBe('/')
    expect(normalisePath('/payment/../sandbox/reset', '/payment')).toBe(PATH_OUTSIDE)
    expect(normalisePath('/paymentx/post', '/payment')).toBe(PATH_OUTSIDE)
    expect(normalisePath('/sandbox/reset', '/payment')).toBe(PATH_OUTSIDE)
    expect(normalisePath('/payment%2Fpost', '/payment')).toBe(PATH_INVALID)
  })
})

describe('gateway.handle normalises before routing and guarding', () => {
  const send = (path: string, headers: Record<string, string> = {}) =>
    createTestGateway(DEFAULT_MODULES).gateway.handle({
      method: 'POST',
      path,
      query: {},
      headers: { 'content-type': 'application/json', ...headers },
      body: new TextEncoder().encode('{"seconds":1}'),
    })

  it('answers an encoded slash 400 REQUEST_PATH_INVALID, and serves a doubled slash as the route', async () => {
    const refused = await send('/sandbox%2Fclock/advance')
    expect(refused.status).toBe(400)
    expect(JSON.parse(refused.body)).toEqual({
      http_code: 400,
      error_code: 100000,
      error_message: 'Request path is not valid.',
    })
    expect((await send('//sandbox//clock/advance/')).status).toBe(200)
    // The guard reads the same normalised path: a cross-origin caller is refused on any spelling.
    expect((await send('//sandbox/clock/advance', { origin: 'http://evil.example' })).status).toBe(403)
  })
})
