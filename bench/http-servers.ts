/**
 * The servers bench/http.ts measures, each in a process of its own (started pinned to one core):
 * `baseline` is a session create as a mock server is usually written (express and its JSON body
 * parser, ajv with the compiled session-request validator, the same signature check, an in-memory
 * Map bounded as the sandbox's store is, its oldest session forgotten past DEFAULT_RETAIN);
 * `floor` is the same work on node's HTTP server alone, the least it can cost; `sandbox` is
 * `paysandbox serve` itself, on a memory store or, given a file, a lowdb store.
 * Prints `PORT <n>` once listening.
 */
import '../src/schema-files.js'
import { randomBytes, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import express from 'express'
import { serve } from '../src/adapters/serve.js'
import { DEFAULT_RETAIN } from '../src/adapters/store/retention.js'
import { silentLogger } from '../src/core/ports/logger.js'
import { checkoutSignatures, s2sCardSignatures } from '../src/core/signatures/index.js'
import { schemaRegistry } from '../src/core/validation/index.js'

export const BENCH_KEY = 'demo-merchant'
export const BENCH_PASSWORD = 'demo-password-0123456789abcdef'
/** The order every benchmark's session request carries. */
export const BENCH_ORDER = { number: 'bench-1', amount: '10.00', currency: 'USD', description: 'Bench order' }
/** A signed Checkout session request for the bench merchant, as the load generators send it. */
export const BENCH_SESSION = JSON.stringify({
  merchant_key: BENCH_KEY,
  operation: 'purchase',
  methods: ['card'],
  order: BENCH_ORDER,
  success_url: 'https://shop.example/success',
  cancel_url: 'https://shop.example/cancel',
  customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
  hash: checkoutSignatures.session(BENCH_ORDER, BENCH_PASSWORD),
})
/**
 * A signed S2S CARD SALE of the bench merchant, as a form (fixture sale-request.basic): each one a
 * payment with its transaction and a callback (to the demo merchant's localhost:3000), so several
 * events on the event stream.
 */
export const BENCH_S2S_SALE = (() => {
  const fixture = JSON.parse(
    readFileSync(new URL('../fixtures/payloads/s2s-card/sale-request.basic.json', import.meta.url), 'utf8'),
  ) as Record<string, string>
  const { payer_email: email = '', card_number: card = '' } = fixture
  return new URLSearchParams({
    ...fixture,
    client_key: BENCH_KEY,
    hash: s2sCardSignatures.payment(email, BENCH_PASSWORD, { cardNumber: card }),
  }).toString()
})()
/** The baseline's one stored payment, for status lookups. */
export const BASELINE_PAYMENT_ID = '0b7c3f5e-8a4d-4c1e-9f2a-000000000001'

type Body = Record<string, unknown> & { order: Record<string, string> }

/** What a session create and a status lookup do in the baselines: the same checks, a bounded Map. */
function baselineWork() {
  const validSession = schemaRegistry().validator('checkout/session-request')
  const validStatus = schemaRegistry().validator('checkout/status-request')
  const sessions = new Map<string, unknown>()
  const payments = new Map<string, Record<string, unknown>>([
    [
      BASELINE_PAYMENT_ID,
      {
        payment_id: BASELINE_PAYMENT_ID,
        date: '2026-03-01 12:30:00',
        status: 'settled',
        order: { number: 'o-1', amount: '10.00', currency: 'USD', description: 'Bench' },
      },
    ],
  ])
  type Answer = [status: number, body: unknown]
  const routes: Record<string, (body: Record<string, unknown>) => Answer> = {
    '/api/v1/session': (raw) => {
      const body = raw as Body
      if (!validSession(body)) return [400, { errors: validSession.errors }]
      if (
        body.merchant_key !== BENCH_KEY ||
        body.hash !== checkoutSignatures.session(body.order, BENCH_PASSWORD)
      )
        return [401, { error_message: 'Hash is not valid.' }]
      const token = randomBytes(16).toString('hex')
      sessions.set(token, { id: randomUUID(), request: body, created_at: Date.now() })
      // Bounded as the sandbox's memory store is (--retain, default 10,000): the oldest forgotten first.
      if (sessions.size > DEFAULT_RETAIN) sessions.delete(sessions.keys().next().value as string)
      return [200, { redirect_url: `http://localhost:8080/auth/${token}` }]
    },
    '/api/v1/payment/status': (raw) => {
      const body = raw as Record<string, string>
      if (!validStatus(body)) return [400, { errors: validStatus.errors }]
      if (body.hash !== checkoutSignatures.paymentOperation(body.payment_id ?? '', BENCH_PASSWORD))
        return [401, { error_message: 'Hash is not valid.' }]
      const payment = payments.get(body.payment_id ?? '')
      if (!payment) return [400, { error_message: 'Payment does not exist.' }]
      return [200, payment]
    },
  }
  return routes
}

/** The baseline as such a mock is usually written: express and its JSON body parser. */
function baseline(port = 0): Promise<number> {
  const routes = baselineWork()
  const app = express()
  app.use(express.json({ limit: '1mb' }))
  for (const [path, route] of Object.entries(routes))
    app.post(path, (req, res) => {
      const [status, body] = route(req.body as Record<string, unknown>)
      res.status(status).json(body)
    })
  return new Promise((resolve) => {
    const server = app.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port))
  })
}

/**
 * The floor: the same work on node's HTTP server and nothing else (the body read whole, 1 MB at
 * most, and parsed as JSON), as the sandbox serves through no framework either.
 */
function floor(port = 0): Promise<number> {
  const routes = baselineWork()
  const answer = (res: ServerResponse, [status, body]: [number, unknown]) => {
    const text = JSON.stringify(body)
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    })
    res.end(text)
  }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const route = req.method === 'POST' ? routes[req.url ?? ''] : undefined
    if (!route) return void answer(res, [404, { error_message: 'Not found.' }])
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= 1024 * 1024) chunks.push(chunk)
    })
    req.on('end', () => {
      if (size > 1024 * 1024) return answer(res, [413, { error_message: 'Request body is too large.' }])
      let body: Record<string, unknown>
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>
      } catch {
        return answer(res, [400, { error_message: 'Request body could not be parsed.' }])
      }
      answer(res, route(body))
    })
  })
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port))
  })
}

async function sandbox(dataFile?: string): Promise<number> {
  const running = await serve({ port: 0, logger: silentLogger, ...(dataFile ? { dataFile } : {}) })
  process.once('SIGTERM', () => void running.close().then(() => process.exit(0)))
  return running.port
}

if (process.argv[2] === '--serve') {
  const [kind, dataFile] = process.argv.slice(3)
  const port =
    kind === 'baseline'
      ? await baseline(Number(dataFile ?? 0))
      : kind === 'floor'
        ? await floor(Number(dataFile ?? 0))
        : await sandbox(dataFile)
  console.log(`PORT ${port}`)
}
