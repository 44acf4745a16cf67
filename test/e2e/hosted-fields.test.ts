import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { type E2e, PASSWORD, startE2e, holdBrowserSlot } from './harness.js'

// docs/rules.md#hosted-payment-fields: Hosted Payment Fields as the platform runs them, in a real browser (Debian's
// chromium through playwright-core): /sdk/hosted-fields.js on a merchant page, one frame per
// field, collectIframesData() putting the card into the session, the payment request without card
// data answering `result`, 3DS through return_url; /hpf/demo at 127.0.0.1 and localhost alike.
let e2e: E2e
let shop: { url: string; server: Server; paymentBodies: string[] }

/**
 * A merchant on its own origin: its page loads the sandbox's script; its "server" makes the
 * session token (return_url back to itself) and the payment request with the Token header.
 */
async function startShop(sandboxUrl: string): Promise<typeof shop> {
  const paymentBodies: string[] = []
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop')
    const self = `http://${req.headers.host}`
    if (url.pathname === '/checkout') {
      const order = { number: `shop-${Date.now()}`, amount: '12.00', currency: 'EUR', description: 'Tea' }
      const created = await fetch(`${sandboxUrl}/api/v1/session/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          merchant_key: 'demo-merchant',
          operation: 'purchase',
          methods: ['card'],
          order,
          return_url: `${self}/back`,
          hash: checkoutSignatures.session(order, PASSWORD),
        }),
      })
      const { token } = (await created.json()) as { token: string }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!DOCTYPE html><title>Shop checkout</title>
<div id="card"></div><div id="exp"></div><div id="cvv"></div>
<button id="pay" disabled>Pay</button><p id="out"></p><ol id="events"></ol>
<script src="${sandboxUrl}/sdk/hosted-fields.js"></script>
<script>
  const out = document.getElementById('out')
  const hf = new HostedFields()
  hf.cardOn('focus', (s) => { const li = document.createElement('li'); li.textContent = 'card focus ' + s.empty; document.getElementById('events').appendChild(li) })
  hf.init({ sessionToken: ${JSON.stringify(token)}, fields: { card: { id: 'card' }, expiry: { id: 'exp' }, cvv: { id: 'cvv' } } })
    .then(() => { document.getElementById('pay').disabled = false })
  document.getElementById('pay').addEventListener('click', async () => {
    const collected = await hf.collectIframesData()
    if (collected.result !== 'success') { out.textContent = 'fields: ' + JSON.stringify(collected.errors); return }
    const answer = await (await fetch('/pay', { method: 'POST', body: ${JSON.stringify(token)} })).json()
    if (answer.result === 'redirect') window.location.assign(answer.redirect_url)
    else out.textContent = answer.result + ' ' + (answer.decline_message || '')
  })
</script>`)
      return
    }
    if (url.pathname === '/pay' && req.method === 'POST') {
      let token = ''
      for await (const chunk of req) token += chunk
      const body = JSON.stringify({ with_hosted_fields: true, name: 'Jane Doe', email: 'jane@shop.example' })
      paymentBodies.push(body)
      const paid = await fetch(`${sandboxUrl}/api/v1/processing/purchase/card`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', Token: token },
        body,
      })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(await paid.text())
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(`<!DOCTYPE html><title>Shop ${url.pathname}</title><h1 id="landed">${url.pathname.slice(1)}</h1>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, paymentBodies }
}

holdBrowserSlot()
beforeAll(async () => {
  e2e = await startE2e()
  shop = await startShop(e2e.url)
}, 300_000)
afterAll(async () => {
  await e2e?.close()
  await new Promise<void>((resolve) => (shop ? shop.server.close(() => resolve()) : resolve()))
})

/** Types into one hosted field's frame, found inside the merchant's element. */
async function type(page: Page, hostId: string, label: string, value: string) {
  await page.frameLocator(`#${hostId} iframe`).getByLabel(label).fill(value)
}

async function fillDemo(page: Page, expiry: string) {
  await type(page, 'card-number', 'Card number', '4111 1111 1111 1111')
  await type(page, 'card-expiry', 'Expiry date (MM/YY)', expiry)
  await type(page, 'card-cvv', 'Security code', '123')
}

const store = () => e2e.sandbox.gateway.ctx.store

describe('a merchant page on its own origin with /sdk/hosted-fields.js (docs/rules.md#sessions)', () => {
  it('puts the card into the session from the frames, pays without card data and answers result', async () => {
    const page = await e2e.page()
    await page.goto(`${shop.url}/checkout`)
    await expect.poll(() => page.locator('#pay').isEnabled()).toBe(true)
    // per-field events reach the merchant's page, values never do
    await page.frameLocator('#card iframe').getByLabel('Card number').focus()
    await expect.poll(() => page.locator('#events').textContent()).toContain('card focus true')
    await type(page, 'card', 'Card number', '4111111111111111')
    await type(page, 'exp', 'Expiry date (MM/YY)', '01/30')
    await type(page, 'cvv', 'Security code', '123')
    await page.locator('#pay').click()
    await expect.poll(() => page.locator('#out').textContent()).toBe('success ')
    // The merchant's payment request carried no card data (docs/rules.md#sessions)
    expect(shop.paymentBodies.at(-1)).not.toMatch(/card_number|4111/)
    const payment = store()
      .list('payments')
      .find((p) => p.order.description === 'Tea')
    expect(payment).toMatchObject({ status: 'settled', card: { masked: '411111******1111' } })
    // The page's own document never held the number: the value lives in the frame only.
    expect(await page.content()).not.toContain('4111111111111111')
    await page.close()
  })

  it('answers the fields own refusal for a bad card number, before any payment', async () => {
    const page = await e2e.page()
    const before = store().count('payments')
    await page.goto(`${shop.url}/checkout`)
    await expect.poll(() => page.locator('#pay').isEnabled()).toBe(true)
    await type(page, 'card', 'Card number', '4111111111111112')
    await type(page, 'exp', 'Expiry date (MM/YY)', '01/30')
    await type(page, 'cvv', 'Security code', '123')
    await page.locator('#pay').click()
    await expect
      .poll(() => page.locator('#out').textContent())
      .toContain('card_number: This value is not a valid card number.')
    expect(store().count('payments')).toBe(before)
    await page.close()
  })

  it('05: 3DS through redirect_url, then back to the merchant at return_url', async () => {
    const page = await e2e.page()
    await page.goto(`${shop.url}/checkout`)
    await expect.poll(() => page.locator('#pay').isEnabled()).toBe(true)
    await type(page, 'card', 'Card number', '4111111111111111')
    await type(page, 'exp', 'Expiry date (MM/YY)', '05/30')
    await type(page, 'cvv', 'Security code', '123')
    await page.locator('#pay').click()
    await page.waitForURL(/\/acs\//)
    await page.getByRole('button', { name: 'Confirm payment' }).click()
    await page.waitForURL(`${shop.url}/back?**`)
    const params = new URL(page.url()).searchParams
    expect([...params.keys()]).toEqual(['payment_id', 'trans_id', 'order_id', 'hash'])
    expect(store().get('payments', params.get('payment_id') ?? '')?.status).toBe('settled')
    await page.close()
  })
})

describe('/hpf/demo, the merchant page built only on the script (docs/rules.md#sessions)', () => {
  for (const host of ['127.0.0.1', 'localhost']) {
    it(`pays at ${host}: 01 succeeds, 02 declines with its message, 05 goes through 3DS back to the demo`, async () => {
      const base = e2e.url.replace('127.0.0.1', host)
      const page = await e2e.page()
      await page.goto(`${base}/hpf/demo`)
      await page.getByRole('button', { name: /Create a demo session/ }).click()
      await expect.poll(() => page.locator('#hpf-demo-status').textContent()).toBe('The fields are ready.')
      expect(new URL(page.url()).host).toBe(new URL(base).host)

      await fillDemo(page, '02/30')
      await page.locator('#hpf-demo-pay').click()
      await expect
        .poll(() => page.locator('#hpf-demo-status').textContent())
        .toContain('Declined: Declined by')

      await fillDemo(page, '05/30')
      await page.locator('#hpf-demo-pay').click()
      await page.waitForURL(/\/acs\//)
      expect(new URL(page.url()).host).toBe(new URL(base).host)
      await page.getByRole('button', { name: 'Confirm payment' }).click()
      await page.waitForURL(`${base}/hpf/demo?payment_id=**`)
      expect(await page.locator('#hpf-returned-status').textContent()).toBe('settled')

      await page.getByRole('button', { name: /Create a demo session/ }).click()
      await expect.poll(() => page.locator('#hpf-demo-status').textContent()).toBe('The fields are ready.')
      await fillDemo(page, '01/30')
      await page.locator('#hpf-demo-pay').click()
      await expect.poll(() => page.locator('#hpf-demo-status').textContent()).toMatch(/^Paid: payment /)
      await page.close()
    })
  }
})
