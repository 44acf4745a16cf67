import { describe, expect, it } from 'vitest'
import { serveArgs } from '../../cli/serve-options.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { createMemoryStore, createSeededIds, createVirtualClock } from '../../src/adapters/index.js'
import { createGateway } from '../../src/core/engine/gateway.js'
import { jsonResponse } from '../../src/core/engine/http.js'
import { type Collections, STORE_INDEXES } from '../../src/core/engine/model.js'
import type { EngineModule } from '../../src/core/engine/modules.js'
import { declareControlRoute } from '../../src/core/engine/pipeline.js'
import type { Logger } from '../../src/core/ports/logger.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { createSandbox } from '../../src/library/create-sandbox.js'
import { demoConfig } from '../helpers/engine.js'

/**
 * Issue 21 point 7: under `serve --check-responses` (config `check_responses`, library
 * `checkResponses`) every successful answer is checked against its declared response schema in
 * the gateway's respond step. A mismatch is logged and counted in /sandbox/health, and the answer
 * goes out unchanged: never a 500.
 */
function gatewayWith(modules: EngineModule[], checks: boolean) {
  const logged: { message: string; fields?: Record<string, unknown> }[] = []
  const logger: Logger = {
    info() {},
    warn() {},
    error: (message, fields) => logged.push({ message, ...(fields ? { fields } : {}) }),
  }
  const gateway = createGateway(
    {
      store: createMemoryStore<Collections>(STORE_INDEXES),
      clock: createVirtualClock(Date.UTC(2026, 10, 2, 10, 0, 0)),
      ids: createSeededIds('checks'),
      transport: { send: async () => ({ status: 200, body: 'OK' }) },
      logger,
      config: { ...demoConfig(), check_responses: checks },
      baseUrl: 'http://sandbox.test',
    },
    modules,
  )
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await gateway.handle({
      method,
      path,
      query: {},
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: new TextEncoder().encode(body === undefined ? '' : JSON.stringify(body)),
    })
    return { status: r.status, body: JSON.parse(r.body) as Record<string, unknown> }
  }
  return { gateway, call, logged }
}

/** A route that declares the clock's answer and answers something else: the sandbox's own defect. */
const broken: EngineModule = {
  name: 'broken',
  routes: () => [
    declareControlRoute({
      method: 'GET',
      path: '/sandbox/broken',
      pipeline: {},
      response: 'control/clock-response',
      handler: () => jsonResponse(200, { mode: 'sundial' }),
    }),
  ],
}

describe('run-time response checks', () => {
  it('logs and counts a mismatch, answers unchanged (never a 500), and /sandbox/health shows the count', async () => {
    const { call, logged } = gatewayWith([...DEFAULT_MODULES, broken], true)
    const answer = await call('GET', '/sandbox/broken')
    expect(answer).toEqual({ status: 200, body: { mode: 'sundial' } })
    expect(logged).toHaveLength(1)
    expect(logged[0]?.message).toBe('response does not match its schema')
    expect(logged[0]?.fields).toMatchObject({
      route: 'GET /sandbox/broken',
      schema: 'control/clock-response.schema.json',
    })
    const health = await call('GET', '/sandbox/health')
    // The broken answer, then health itself (checked before it is counted into the next answer).
    expect(health.body.responses).toEqual({ checked: 1, mismatches: 1 })
    const again = await call('GET', '/sandbox/health')
    expect(again.body.responses).toEqual({ checked: 2, mismatches: 1 })
  })

  it('checks Checkout and control answers against their schemas: the real routes match', async () => {
    const { call, logged } = gatewayWith(DEFAULT_MODULES, true)
    const order = { number: 'CHK-1', amount: '10.00', currency: 'USD', description: 'Tea' }
    const session = await call('POST', '/api/v1/session', {
      merchant_key: 'demo-merchant',
      operation: 'purchase',
      order,
      success_url: 'https://shop.test/ok',
      hash: checkoutSignatures.session(order, 'demo-password-0123456789abcdef'),
    })
    expect(session.status).toBe(200)
    await call('GET', '/sandbox/clock')
    await call('GET', '/sandbox/payments')
    const health = await call('GET', '/sandbox/health')
    expect(health.body.responses).toEqual({ checked: 3, mismatches: 0 })
    expect(logged).toEqual([])
  })

  it('is off by default: nothing is checked and health says nothing about it', async () => {
    const { call, logged } = gatewayWith([...DEFAULT_MODULES, broken], false)
    expect((await call('GET', '/sandbox/broken')).status).toBe(200)
    expect((await call('GET', '/sandbox/health')).body.responses).toBeUndefined()
    expect(logged).toEqual([])
  })

  it('the library option and the serve flag turn it on', async () => {
    const sandbox = await createSandbox({ checkResponses: true, seed: 1 })
    const health = (await (await sandbox.fetch('http://gw.test/sandbox/health')).json()) as Record<
      string,
      unknown
    >
    expect(health.responses).toEqual({ checked: 0, mismatches: 0 })
    expect(serveArgs(['--check-responses'])).toMatchObject({ 'check-responses': true })
  })
})
