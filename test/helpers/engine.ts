import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import request from 'supertest'
import { createExpressApp } from '../../src/adapters/express/app.js'
import { createMemoryStore, createSeededIds, createVirtualClock } from '../../src/adapters/index.js'
import type { SandboxConfig } from '../../src/core/engine/context.js'
import { createGateway, type Gateway } from '../../src/core/engine/gateway.js'
import { type Collections, STORE_INDEXES } from '../../src/core/engine/model.js'
import type { EngineModule } from '../../src/core/engine/modules.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import type { Store } from '../../src/core/ports/store.js'
import { checkResponse } from './response-check.js'
import type { OutboundRequest, Transport } from '../../src/core/ports/transport.js'

const root = join(import.meta.dirname, '..', '..')

/** The demo configuration of fixtures/config/demo.json (key demo-merchant). */
export function demoConfig(): SandboxConfig {
  return JSON.parse(readFileSync(join(root, 'fixtures', 'config', 'demo.json'), 'utf8')) as SandboxConfig
}

/** Records every outbound callback; answers with `answer` (default 200 OK). */
export function recordingTransport(
  answer: (r: OutboundRequest) => { status: number; body: string } = () => ({ status: 200, body: 'OK' }),
) {
  const sent: OutboundRequest[] = []
  const transport: Transport = {
    async send(request) {
      sent.push(request)
      return answer(request)
    },
  }
  return { transport, sent }
}

/**
 * `PAYSANDBOX_TEST_TRANSPORT=http` sends every `call` through the express adapter with supertest
 * (the `api-over-http` vitest project runs the API suites that way too), so the same tests prove
 * the engine's answers and their HTTP translation. Read at each call, not at import: test files
 * share their worker's modules (vitest `isolate: false`).
 */
export const overHttp = (): boolean => process.env.PAYSANDBOX_TEST_TRANSPORT === 'http'

export interface TestGateway {
  /** The address the engine records for the caller: 203.0.113.7 in-process, 127.0.0.1 over HTTP. */
  callerIp: string
  gateway: Gateway
  clock: ReturnType<typeof createVirtualClock>
  store: ReturnType<typeof createMemoryStore<Collections>>
  sent: OutboundRequest[]
  /** Sends a JSON (object body) or form (string body) request through gateway.handle. */
  call(
    method: string,
    path: string,
    body?: Record<string, unknown> | string,
    headers?: Record<string, string>,
  ): Promise<{
    status: number
    body: Record<string, unknown> & Record<string, unknown>[]
    raw: string
    headers: Record<string, string>
  }>
}

/** A gateway on a memory store, a virtual clock and seeded ids: deterministic, no port. */
export function createTestGateway(
  modules: EngineModule[],
  config: SandboxConfig = demoConfig(),
  options: {
    wrapStore?: (store: Store<Collections>) => Store<Collections>
    /** Check every 200 answer against its x-endpoint response schema (off for stand-in modules). */
    checkResponses?: boolean
  } = {},
): TestGateway {
  const clock = createVirtualClock(Date.UTC(2026, 10, 2, 10, 0, 0))
  const store = createMemoryStore<Collections>(STORE_INDEXES)
  const { transport, sent } = recordingTransport()
  const gateway = createGateway(
    {
      store: options.wrapStore ? options.wrapStore(store) : store,
      clock,
      ids: createSeededIds('test'),
      transport,
      logger: silentLogger,
      config,
      baseUrl: 'http://sandbox.test',
    },
    modules,
  )
  const http = overHttp()
  const app = http ? createExpressApp(gateway) : undefined
  return {
    gateway,
    clock,
    store,
    sent,
    callerIp: http ? '127.0.0.1' : '203.0.113.7',
    async call(method, path, body, headers = {}) {
      if (app) return callOverHttp(app, method, path, body, headers, options.checkResponses !== false)
      const [pathname, search = ''] = path.split('?') as [string, string?]
      const isForm = typeof body === 'string'
      const text = body === undefined ? '' : isForm ? body : JSON.stringify(body)
      const response = await gateway.handle({
        method,
        path: pathname,
        query: Object.fromEntries(new URLSearchParams(search)),
        headers: {
          ...(body === undefined
            ? {}
            : { 'content-type': isForm ? 'application/x-www-form-urlencoded' : 'application/json' }),
          ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
        },
        body: new TextEncoder().encode(text),
        remoteAddress: '203.0.113.7',
      })
      let parsed: unknown = response.body
      try {
        parsed = JSON.parse(response.body)
      } catch {
        // HTML pages and empty redirects stay as text.
      }
      if (options.checkResponses !== false) checkResponse(method, pathname, body, response.status, parsed)
      return { status: response.status, body: parsed as never, raw: response.body, headers: response.headers }
    },
  }
}

async function callOverHttp(
  app: ReturnType<typeof createExpressApp>,
  method: string,
  path: string,
  body: Record<string, unknown> | string | undefined,
  headers: Record<string, string>,
  check: boolean,
) {
  const isForm = typeof body === 'string'
  let req = request(app)[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](path)
  const contentType = isForm ? 'application/x-www-form-urlencoded' : 'application/json'
  if (body !== undefined) req = req.set('content-type', contentType)
  for (const [k, v] of Object.entries(headers)) req = req.set(k, v)
  if (body !== undefined) req = req.send(isForm ? body : JSON.stringify(body))
  const response = await req.buffer(true).parse((res, done) => {
    let text = ''
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => {
      text += chunk
    })
    res.on('end', () => done(null, text))
  })
  const raw = response.body as string
  let parsed: unknown = raw
  try {
    parsed = JSON.parse(raw)
  } catch {
    // HTML pages and empty redirects stay as text.
  }
  const responseHeaders = Object.fromEntries(
    Object.entries(response.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
  )
  if (check) checkResponse(method, path.split('?')[0] as string, body, response.status, parsed)
  return { status: response.status, body: parsed as never, raw, headers: responseHeaders }
}
