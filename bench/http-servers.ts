/**
 * The servers bench/http.ts measures, each in a process of its own (started pinned to one core):
 * `baseline` is the least a session create can cost with the same stack (express, ajv with the
 * compiled session-request validator, the same signature check, an in-memory Map); `sandbox` is
 * `paysandbox serve` itself, on a memory store or, given a file, a lowdb store.
 * Prints `PORT <n>` once listening.
 */
import '../src/schema-files.js'
import { randomBytes, randomUUID } from 'node:crypto'
import express from 'express'
import { serve } from '../src/adapters/serve.js'
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
 * A signed S2S CARD SALE of the bench merchant, as a form: each one a payment with its transaction
 * and a callback (to the demo merchant's localhost:3000), so several events on the event stream.
 */
export const BENCH_S2S_SALE = new URLSearchParams({
  action: 'SALE',
  client_key: BENCH_KEY,
  order_id: 'bench-sale',
  order_amount: '10.00',
  order_currency: 'USD',
  order_description: 'Bench sale',
  card_number: '4111111111111111',
  card_exp_month: '01',
  card_exp_year: '2039',
  card_cvv2: '123',
  payer_first_name: 'John',
  payer_last_name: 'Doe',
  payer_address: '1 Main Street',
  payer_country: 'US',
  payer_city: 'New York',
  payer_zip: '10001',
  payer_email: 'doe@example.com',
  payer_phone: '2125550100',
  payer_ip: '203.0.113.10',
  term_url_3ds: 'https://shop.example/3ds-return',
  hash: s2sCardSignatures.payment('doe@example.com', BENCH_PASSWORD, { cardNumber: '4111111111111111' }),
}).toString()
/** The baseline's one stored payment, for status lookups. */
export const BASELINE_PAYMENT_ID = '0b7c3f5e-8a4d-4c1e-9f2a-000000000001'

type Body = Record<string, unknown> & { order: Record<string, string> }

function baseline(port = 0): Promise<number> {
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
  const app = express()
  app.use(express.json({ limit: '1mb' }))
  app.post('/api/v1/session', (req, res) => {
    const body = req.body as Body
    if (!validSession(body)) return void res.status(400).json({ errors: validSession.errors })
    if (
      body.merchant_key !== BENCH_KEY ||
      body.hash !== checkoutSignatures.session(body.order, BENCH_PASSWORD)
    )
      return void res.status(401).json({ error_message: 'Hash is not valid.' })
    const token = randomBytes(16).toString('hex')
    sessions.set(token, { id: randomUUID(), request: body, created_at: Date.now() })
    res.json({ redirect_url: `http://localhost:8080/auth/${token}` })
  })
  app.post('/api/v1/payment/status', (req, res) => {
    const body = req.body as Record<string, string>
    if (!validStatus(body)) return void res.status(400).json({ errors: validStatus.errors })
    if (body.hash !== checkoutSignatures.paymentOperation(body.payment_id ?? '', BENCH_PASSWORD))
      return void res.status(401).json({ error_message: 'Hash is not valid.' })
    const payment = payments.get(body.payment_id ?? '')
    if (!payment) return void res.status(400).json({ error_message: 'Payment does not exist.' })
    res.json(payment)
  })
  return new Promise((resolve) => {
    const server = app.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port))
  })
}

async function sandbox(dataFile?: string): Promise<number> {
  const running = await serve({ port: 0, logger: silentLogger, ...(dataFile ? { dataFile } : {}) })
  process.once('SIGTERM', () => void running.close().then(() => process.exit(0)))
  return running.port
}

if (process.argv[2] === '--serve') {
  const [kind, dataFile] = process.argv.slice(3)
  const port = kind === 'baseline' ? await baseline(Number(dataFile ?? 0)) : await sandbox(dataFile)
  console.log(`PORT ${port}`)
}
