/**
 * The memory a stored session and a stored sale take, measured in a process of its own
 * (`node --expose-gc`): `serve()` of the package under test (its dist build) with retention off,
 * sessions and sales made through `gateway.handle` (no HTTP, so nothing but the store grows), the
 * heap measured after a full collection. Prints one JSON line.
 * Usage: node --expose-gc --import tsx bench/memory-child.ts ROOT SESSIONS SALES [RETAIN]
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const [root = '.', sessionsArg = '50000', salesArg = '10000', retainArg = '10000000'] = process.argv.slice(2)
const SESSIONS = Number(sessionsArg)
const SALES = Number(salesArg)
const load = (path: string) => import(pathToFileURL(join(root, 'dist/src', path)).href)
const { serve } = await load('adapters/serve.js')
const { checkoutSignatures } = await load('core/signatures/index.js')
const { silentLogger } = await load('core/ports/logger.js')
const PASSWORD = 'demo-password-0123456789abcdef'

const running = await serve({ port: 0, logger: silentLogger, retain: Number(retainArg) })
const encoder = new TextEncoder()
type Answer = { status: number; body: string }
const handle = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
  running.gateway.handle({
    method: 'POST',
    path,
    query: {},
    headers: { 'content-type': 'application/json', ...headers },
    body: encoder.encode(JSON.stringify(body)),
    remoteAddress: '127.0.0.1',
  })
const sessionBody = (i: number, extra: Record<string, unknown> = {}) => {
  const order = { number: `mem-${i}`, amount: '10.00', currency: 'USD', description: 'Bench order' }
  return {
    merchant_key: 'demo-merchant',
    operation: 'purchase',
    methods: ['card'],
    order,
    success_url: 'https://shop.example/success',
    cancel_url: 'https://shop.example/cancel',
    customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
    hash: checkoutSignatures.session(order, PASSWORD),
    ...extra,
  }
}
const gc = (globalThis as { gc?: () => void }).gc as () => void
const heap = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const h0 = heap()
for (let i = 0; i < SESSIONS; i++) {
  const r = await handle('/api/v1/session', sessionBody(i))
  if (r.status !== 200) throw new Error(`session ${i}: ${r.status} ${r.body}`)
}
const h1 = heap()
for (let i = 0; i < SALES; i++) {
  const t = await handle(
    '/api/v1/session/token',
    sessionBody(SESSIONS + i, { return_url: 'https://shop.example/return' }),
  )
  const { token } = JSON.parse(t.body) as { token: string }
  const paid = await handle(
    '/api/v1/processing/purchase/card',
    { card_number: '4111111111111111', card_exp_month: '01', card_exp_year: '2030', card_cvv2: '123' },
    { token },
  )
  if (!JSON.parse(paid.body).payment_id) throw new Error(`sale ${i}: ${paid.body}`)
  if (i % 500 === 499) await new Promise((r) => setTimeout(r, 50)) // let callbacks go out
}
await new Promise((r) => setTimeout(r, 500))
const h2 = heap()
const store = running.gateway.ctx.store
console.log(
  JSON.stringify({
    sessions: store.count('sessions'),
    payments: store.count('payments'),
    deliveries: store.count('deliveries'),
    kbPerSession: (h1 - h0) / SESSIONS / 1024,
    kbPerSale: (h2 - h1) / SALES / 1024,
    rssMb: process.memoryUsage().rss / 2 ** 20,
  }),
)
await running.close()
process.exit(0)
