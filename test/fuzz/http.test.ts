import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createExpressApp } from '../../src/adapters/express/app.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { createTestGateway, demoConfig } from '../helpers/engine.js'
import { createRandom } from './mutate.js'

/**
 * The same promise over real HTTP, where express reads the body: whatever the method, path,
 * headers, encoding or bytes, the answer is below 500, JSON, and the error envelope when it is an
 * error; never an HTML page. Seeded; 600 requests.
 */
const t = createTestGateway(DEFAULT_MODULES, { ...demoConfig(), limits: { body_bytes: 4096 } })
/** The hosted pages' paths answer HTML (and their scripts) by design; every other path answers JSON. */
const PAGE_PATHS = DEFAULT_MODULES.flatMap((m) => m.routes(t.gateway.ctx))
  .filter((r) => r.api === 'page')
  .map((r) => new RegExp(`^${r.path.replace(/:[^/]+/g, '[^/]+')}$`))
const isPage = (path: string) => PAGE_PATHS.some((re) => re.test(path.split('?')[0] as string))
/** The event stream (GET /sandbox/events, docs/rules.md#connections) answers text/event-stream and stays open. */
const STREAM_PATHS = DEFAULT_MODULES.flatMap((m) => m.routes(t.gateway.ctx))
  .filter((r) => r.longLived)
  .map((r) => r.path)
const isStream = (path: string) => STREAM_PATHS.includes(path.split('?')[0] as string)
const app = createExpressApp(t.gateway)
let base = { host: '127.0.0.1', port: 0 }
let server: ReturnType<typeof app.listen>

beforeAll(async () => {
  server = app.listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  base = { host: '127.0.0.1', port: (server.address() as AddressInfo).port }
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

interface Answer {
  status: number
  type: string
  body: string
}

function send(method: string, path: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ ...base, method, path, headers }, (res) => {
      const type = String(res.headers['content-type'] ?? '')
      if (type.startsWith('text/event-stream')) {
        // An event stream never ends by itself: its head is the answer; the client hangs up.
        resolve({ status: res.statusCode ?? 0, type, body: '' })
        req.destroy()
        return
      }
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks).toString(),
        }),
      )
    })
    req.on('error', reject)
    req.end(body)
  })
}

const random = createRandom(7)
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']
const TYPES = [
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=b',
  'text/html',
  'application/json; charset=latin1',
]
const ENCODINGS = ['', 'gzip', 'deflate', 'br', 'identity', 'compress, gzip']
const paths = () => {
  const known = t.gateway.routes().map((r) => (r.split(' ')[1] as string).replace(/:[^/]+/g, 'x'))
  return [
    ...known,
    '/',
    '/api/v1',
    '/api/v1/session/',
    '//api//v1//session',
    '/%',
    '/%zz',
    '/a?b=%',
    `/${'x'.repeat(4000)}`,
  ]
}

function body(encoding: string): Buffer {
  const kind = random.int(4)
  const raw =
    kind === 0
      ? Buffer.from(
          JSON.stringify({
            merchant_key: 'demo-merchant',
            order: { amount: random.pick(['1', '-1', 'x', '1e999']) },
          }),
        )
      : kind === 1
        ? Buffer.from(Array.from({ length: random.int(600) }, () => random.int(256)))
        : kind === 2
          ? Buffer.from('x'.repeat(4097 + random.int(20_000)))
          : Buffer.from('a[b][c]=1&'.repeat(random.int(300)))
  // A body that claims gzip is sometimes gzip, sometimes not.
  return encoding === 'gzip' && random.next() < 0.5 ? gzipSync(raw) : raw
}

describe('fuzz over HTTP (express adapter)', () => {
  it('answers 600 random requests below 500, as JSON (pages: their own HTML), never an express error page', async () => {
    const failures: string[] = []
    const all = paths()
    for (let i = 0; i < 600; i++) {
      const method = random.pick(METHODS)
      const path = random.pick(all)
      const encoding = random.pick(ENCODINGS)
      const headers: Record<string, string> = { 'content-type': random.pick(TYPES), 'x-fuzz': String(i) }
      if (encoding) headers['content-encoding'] = encoding
      if (random.next() < 0.2) headers['transfer-encoding'] = 'chunked'
      const payload = method === 'GET' && random.next() < 0.5 ? Buffer.alloc(0) : body(encoding)
      // Node's client frames a GET, DELETE or OPTIONS body only when told its length.
      if (!headers['transfer-encoding']) headers['content-length'] = String(payload.length)
      const answer = await send(method, path, headers, payload)
      // docs/rules.md#errors: PUT /session/update with a bad Token is answered 403 with an HTML page, as the platform answers.
      const platformPage =
        method === 'PUT' && path.split('?')[0] === '/api/v1/session/update' && answer.status === 403
      const stream = isStream(path) && answer.status === 200 && answer.type.startsWith('text/event-stream')
      const page =
        platformPage ||
        stream ||
        (isPage(path) &&
          ((answer.status >= 300 && answer.status < 400) ||
            /^(text\/html|text\/javascript|application\/javascript)/.test(answer.type)))
      const problem =
        answer.status >= 500
          ? `HTTP ${answer.status}`
          : page
            ? undefined
            : /<html|<!doctype/i.test(answer.body)
              ? 'an HTML page'
              : method !== 'OPTIONS' && !answer.type.startsWith('application/json')
                ? `HTTP ${answer.status} content-type ${answer.type}`
                : answer.status >= 400 && JSON.parse(answer.body || '{}').http_code !== answer.status
                  ? `HTTP ${answer.status}, not the envelope: ${answer.body.slice(0, 120)}`
                  : undefined
      if (problem)
        failures.push(`#${i} ${method} ${path.slice(0, 60)} ${JSON.stringify(headers)}: ${problem}`)
    }
    expect(failures.slice(0, 8)).toEqual([])
    // A bound for a loaded machine (600 round trips), not an expected duration.
  }, 120_000)
})
