/**
 * Makes the worked example of docs/replay.md again, for real:
 *
 *   npx tsx scripts/capture-replay-fixtures.ts
 *
 * 1. fixtures/replay/checkout-s2s.har: Chromium (playwright-core's recordHar) against a local
 *    sandbox (port 27080, fixtures/replay/shop-config.json, the system clock): a Checkout session,
 *    the payer on the hosted page (card, then the shop's success page), the merchant's status
 *    lookup and a partial refund; then an S2S CARD SALE with a 3-D Secure card, the payer's
 *    challenge, and the merchant's lookup. The merchant's requests are sent from a page of the
 *    gateway (fetch in the page), so that one HAR holds both sides.
 * 2. fixtures/replay/shop-client.jsonl: a shop's HTTP client log (one JSON object per request):
 *    an S2S CARD SALE, its lookup, a partial refund and a lookup again.
 *
 * Both are redacted before they are written (src/replay/redact-capture.ts): card numbers masked,
 * CVVs and cookies left out, tokens replaced by role placeholders. The shop's pages and callback
 * receiver are a stub on port 27081 that answers `OK`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { checkoutSignatures, s2sCardSignatures } from '../src/core/signatures/index.js'
import { createSandbox } from '../src/library/create-sandbox.js'
import { silentLogger } from '../src/core/ports/logger.js'
import { redactHar, redactJsonLines } from '../src/replay/redact-capture.js'

const root = join(import.meta.dirname, '..')
const GATEWAY = 'http://127.0.0.1:27080'
const SHOP = 'http://127.0.0.1:27081'
const KEY = 'shop-key'
const PASSWORD = 'shop-password-0123456789abcdef'
const EMAIL = 'jane.payer@example.com'
const CARD = '4111111111111111'

const shop = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    res.writeHead(200, { 'content-type': req.url?.startsWith('/gateway/') ? 'text/plain' : 'text/html' })
    res.end(
      req.url?.startsWith('/gateway/') ? 'OK' : '<!doctype html><title>The shop</title><p>Thank you.</p>',
    )
  })
})
await new Promise<void>((resolve) => shop.listen(27081, '127.0.0.1', resolve))
const sandbox = await createSandbox({
  config: join(root, 'fixtures', 'replay', 'shop-config.json'),
  clock: 'system',
  logger: silentLogger,
})
await sandbox.listen({ port: 27080 })

const chromiumPath = process.env.PAYSANDBOX_CHROMIUM ?? '/usr/bin/chromium'
const dir = mkdtempSync(join(tmpdir(), 'paysandbox-capture-'))
const harFile = join(dir, 'capture.har')
const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
  executablePath: chromiumPath,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  locale: 'en-US',
  recordHar: { path: harFile, content: 'embed' },
})
context.setDefaultTimeout(60_000)
const page = await context.newPage()

/** The merchant's request, sent from a page of the gateway so the browser records it. */
async function merchantRequest(
  path: string,
  body: Record<string, string> | Record<string, unknown>,
  form = false,
) {
  if (!page.url().startsWith(GATEWAY)) await page.goto(`${GATEWAY}/terms`)
  return page.evaluate(
    async ({ path, body, form }) => {
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
        body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
      })
      return (await response.json()) as Record<string, unknown>
    },
    { path, body, form },
  )
}

// Checkout: the session, the payer on the hosted page, the lookup, a partial refund.
const order = { number: 'har-1001', amount: '25.00', currency: 'EUR', description: 'Two books' }
const session = await merchantRequest('/api/v1/session', {
  merchant_key: KEY,
  operation: 'purchase',
  methods: ['card'],
  order,
  success_url: `${SHOP}/payment/success`,
  cancel_url: `${SHOP}/payment/cancel`,
  error_url: `${SHOP}/payment/error`,
  hash: checkoutSignatures.session(order, PASSWORD),
})
await page.goto(String(session.redirect_url))
await page.getByLabel('Card number').fill('4111 1111 1111 1111')
await page.getByLabel('Expiry date').fill('01/30')
await page.getByLabel('Security code').fill('123')
await page.getByRole('button', { name: /^Pay / }).click()
await page.waitForURL(`${SHOP}/payment/success?**`)
const paymentId = new URL(page.url()).searchParams.get('payment_id') ?? ''
await merchantRequest('/api/v1/payment/status', {
  merchant_key: KEY,
  payment_id: paymentId,
  hash: checkoutSignatures.paymentOperation(paymentId, PASSWORD),
})
await merchantRequest('/api/v1/payment/refund', {
  merchant_key: KEY,
  payment_id: paymentId,
  amount: '5.00',
  hash: checkoutSignatures.amountOperation(paymentId, '5.00', PASSWORD),
})

// S2S CARD: a SALE with a 3-D Secure card (expiry month 05), the challenge, the lookup.
const sale = {
  action: 'SALE',
  client_key: KEY,
  order_id: 'har-2001',
  order_amount: '40.00',
  order_currency: 'EUR',
  order_description: 'A lamp',
  card_number: CARD,
  card_exp_month: '05',
  card_exp_year: '2030',
  card_cvv2: '123',
  payer_first_name: 'Jane',
  payer_last_name: 'Payer',
  payer_email: EMAIL,
  payer_phone: '5551234567',
  payer_ip: '203.0.113.10',
  term_url_3ds: `${SHOP}/payment/3ds-return`,
  hash: s2sCardSignatures.payment(EMAIL, PASSWORD, { cardNumber: CARD }),
}
const answer = await merchantRequest('/post', sale, true)
const transId = String(answer.trans_id)
await page.goto(String(answer.redirect_url))
await page.getByRole('button', { name: 'Confirm payment' }).click()
await page.waitForURL(`${SHOP}/payment/3ds-return**`)
await merchantRequest(
  '/post',
  {
    action: 'GET_TRANS_STATUS',
    client_key: KEY,
    trans_id: transId,
    hash: s2sCardSignatures.transaction(EMAIL, PASSWORD, transId, { cardNumber: CARD }),
  },
  true,
)
await context.close()
// The pages' scripts are the same in every capture: their bodies are left out (the replay skips them).
const har = JSON.parse(readFileSync(harFile, 'utf8')) as {
  log: {
    entries: {
      request: { url: string }
      response: { content: { text?: string; size?: number; comment?: string } }
    }[]
  }
}
for (const entry of har.log.entries)
  if (/\/(assets|sdk)\/[^/]+\.js$/.test(new URL(entry.request.url).pathname)) {
    delete entry.response.content.text
    entry.response.content.comment = 'left out: a static file of the hosted pages'
  }
writeFileSync(
  join(root, 'fixtures', 'replay', 'checkout-s2s.har'),
  `${JSON.stringify(redactHar(har), null, 2)}\n`,
)

// A shop's HTTP client log: its own requests to the gateway and their answers, one per line.
const lines: string[] = []
async function logged(path: string, fields: Record<string, string>) {
  const body = new URLSearchParams(fields).toString()
  const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }
  const time = new Date().toISOString()
  const response = await fetch(`${GATEWAY}${path}`, { method: 'POST', headers, body })
  const text = await response.text()
  lines.push(
    JSON.stringify({
      time,
      method: 'POST',
      url: `${GATEWAY}${path}`,
      headers,
      body,
      response: {
        status: response.status,
        headers: { 'content-type': response.headers.get('content-type') ?? '' },
        body: JSON.parse(text),
      },
    }),
  )
  return JSON.parse(text) as Record<string, unknown>
}
const logSale = {
  ...sale,
  order_id: 'jsonl-3001',
  card_exp_month: '01',
  order_amount: '18.50',
  order_description: 'A mug',
}
const done = await logged('/post', logSale)
const id = String(done.trans_id)
const trans = s2sCardSignatures.transaction(EMAIL, PASSWORD, id, { cardNumber: CARD })
await logged('/post', { action: 'GET_TRANS_STATUS', client_key: KEY, trans_id: id, hash: trans })
await logged('/post', { action: 'CREDITVOID', client_key: KEY, trans_id: id, amount: '8.50', hash: trans })
await logged('/post', { action: 'GET_TRANS_STATUS', client_key: KEY, trans_id: id, hash: trans })
writeFileSync(join(root, 'fixtures', 'replay', 'shop-client.jsonl'), redactJsonLines(`${lines.join('\n')}\n`))

await sandbox.close()
shop.close()
rmSync(dir, { recursive: true, force: true })
process.stdout.write('wrote fixtures/replay/checkout-s2s.har and fixtures/replay/shop-client.jsonl\n')
