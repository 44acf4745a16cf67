import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2e, startE2e, holdBrowserSlot } from './harness.js'

// One method of each behaviour group (2.2.2, 2.2.3), end to end in chromium: a session offering it,
// the hosted page, the method's simulator page (docs/rules.md#test-data (sandbox): "the payer ... chooses
// the outcome on the simulator page it shows"), approve, and the merchant's success URL ("success_url
// ... always receive payment_id, trans_id, order_id, hash", Events) plus its callback, acknowledged
// by the stand-in merchant server. One browser serves every case.
let e2e: E2e
holdBrowserSlot()
beforeAll(async () => {
  e2e = await startE2e()
  // The waiting pages ask the sandbox where the payment stands every 2 s (src/pages/apm/assets/apm.js).
  // The browser's clock is Playwright's: time flows as usual, and a test moves it on to the next
  // question instead of waiting 2 s for it.
  await e2e.browser.context.clock.install()
}, 300_000)
afterAll(async () => {
  await e2e?.close()
})

const CASES: { group: string; method: string; session?: Record<string, unknown>; waits?: boolean }[] = [
  { group: 'redirect', method: 'sepa' },
  { group: 'widget', method: 'helio' },
  { group: 'mobile_app', method: 'upi-2' },
  {
    group: 'qr',
    method: 'pix',
    session: { parameters: { pix: { document_number: '12345678909' } } },
    waits: true,
  },
  { group: 'payment_details', method: 'sofortuber' },
  { group: 'app_confirmation', method: 'jvz', waits: true },
  { group: 'device_confirmation', method: 'togocom', waits: true },
  {
    group: 'extra_page_fields',
    method: 'axxi-cash',
    session: { parameters: { 'axxi-cash': { id_document: 'AB123456' } } },
  },
  { group: 'message_link', method: 'ptn-email', session: { customer: { email: 'payer@example.com' } } },
  { group: 'crypto_address', method: 'crypto-btg', waits: true },
  { group: 'wallet', method: 'wallet2' },
  { group: 'none_described', method: 'ppro-alipay' },
]

/** Whether the payment's callback has been acknowledged (polled by the test, with the suite's bound). */
async function acknowledgedCallback(paymentId: string): Promise<boolean> {
  const r = await fetch(`${e2e.url}/sandbox/callbacks?payment_id=${paymentId}`)
  const { deliveries } = (await r.json()) as { deliveries: { payment_id: string; state: string }[] }
  return deliveries.some((d) => d.payment_id === paymentId && d.state === 'acknowledged')
}

describe('every behaviour group end to end to the success URL and callback', () => {
  it.each(CASES)('$group ($method)', async ({ method, session, waits }) => {
    const page = await e2e.page()
    await page.goto(await e2e.session({ methods: [method], ...session }))
    await page.locator('#pay-button').click()
    await page.waitForURL(/\/apm\//)
    const paymentId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '')
    expect(await page.locator('.card').getAttribute('data-group')).toBeTruthy()
    if (waits) {
      // The waiting pages follow the payment by themselves: approve through the control API.
      await fetch(`${e2e.url}/sandbox/payments/${paymentId}/apm`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: 'approve' }),
      })
      // The page's next question finds the payment approved, and the page reloads to go on.
      await page.clock.fastForward(2000)
    } else {
      await page.locator('#apm-approve').click()
    }
    await page.waitForURL(`${e2e.merchantUrl}/success?**`, { timeout: 10_000 })
    const params = new URL(page.url()).searchParams
    expect(params.get('payment_id')).toBe(paymentId)
    expect([...params.keys()]).toEqual(['payment_id', 'trans_id', 'order_id', 'hash'])
    await expect.poll(() => acknowledgedCallback(paymentId), { interval: 100 }).toBe(true)
    await page.close()
  })
})
