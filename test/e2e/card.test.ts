import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2e, fillCard, startE2e, holdBrowserSlot } from './harness.js'

// Browser tests: Debian's chromium through playwright-core against a served sandbox. They fail
// (never skip) when no browser can be found or installed: see test/e2e/browser.ts.
let e2e: E2e
holdBrowserSlot()
beforeAll(async () => {
  e2e = await startE2e()
}, 300_000)
afterAll(async () => {
  await e2e?.close()
})

const payButton = /^Pay /

describe('paying by card on the hosted page (docs/rules.md#test-data test cards)', () => {
  it('01: success lands on success_url with payment_id, trans_id, order_id and hash', async () => {
    const page = await e2e.page()
    await page.goto(await e2e.session())
    await fillCard(page, { exp: '01/30' })
    await page.getByRole('button', { name: payButton }).click()
    await page.waitForURL(`${e2e.merchantUrl}/success?**`)
    const params = new URL(page.url()).searchParams
    expect([...params.keys()]).toEqual(['payment_id', 'trans_id', 'order_id', 'hash'])
    expect(await page.locator('#landed').textContent()).toBe('success')
    await page.close()
  })

  it('02: a decline goes to error_url; without one the page shows it and another card succeeds', async () => {
    const page = await e2e.page()
    await page.goto(await e2e.session())
    await fillCard(page, { exp: '02/30' })
    await page.getByRole('button', { name: payButton }).click()
    await page.waitForURL(`${e2e.merchantUrl}/error?**`)

    await page.goto(await e2e.session({ error_url: undefined }))
    await fillCard(page, { exp: '02/30' })
    await page.getByRole('button', { name: payButton }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The payment was declined.')
    await fillCard(page, { exp: '01/30' })
    await page.getByRole('button', { name: payButton }).click()
    await page.waitForURL(`${e2e.merchantUrl}/success?**`)
    await page.close()
  })

  it('05: the ACS challenge passed settles the payment', async () => {
    const page = await e2e.page()
    await page.goto(await e2e.session())
    await fillCard(page, { exp: '05/30' })
    await page.getByRole('button', { name: payButton }).click()
    await page.waitForURL(/\/acs\//)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('3-D Secure authentication')
    await page.getByRole('button', { name: 'Confirm payment' }).click()
    await page.waitForURL(`${e2e.merchantUrl}/success?**`)
    const id = new URL(page.url()).searchParams.get('payment_id') ?? ''
    expect(e2e.sandbox.gateway.ctx.store.get('payments', id)?.status).toBe('settled')
    await page.close()
  })

  it('05: the ACS challenge failed declines it', async () => {
    const page = await e2e.page()
    await page.goto(await e2e.session())
    await fillCard(page, { exp: '05/30' })
    await page.getByRole('button', { name: payButton }).click()
    await page.getByRole('button', { name: 'Fail authentication' }).click()
    await page.waitForURL(`${e2e.merchantUrl}/error?**`)
    const id = new URL(page.url()).searchParams.get('payment_id') ?? ''
    expect(e2e.sandbox.gateway.ctx.store.get('payments', id)?.status).toBe('decline')
    await page.close()
  })
})

describe('the form as a payer meets it', () => {
  it('checks as the payer types and announces the problems in the alert region', async () => {
    const page = await e2e.page()
    await page.goto(await e2e.session())
    await page.getByLabel('Card number').fill('4111 1111 1111 1112')
    await page.getByRole('button', { name: payButton }).click()
    const alert = page.getByRole('alert')
    await expect.poll(() => alert.textContent()).toContain('Card number: Enter a valid card number.')
    expect(await page.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true')
    // Nothing was sent: the client check stopped the form.
    expect(page.url()).toMatch(/\/auth\//)
    await page.close()
  })

  // 2.1.3: the state is "Collected from the payer only when country is CA, US, JP, AU or IN".
  it('asks for the state for a US payer only, and requires it', async () => {
    const page = await e2e.page()
    await page.goto(await e2e.session({ billing_address: { country: 'FR', phone_country_code: '33' } }))
    expect(await page.getByLabel(/State/).count()).toBe(0)
    await page.goto(await e2e.session({ billing_address: { country: 'US', phone_country_code: '1' } }))
    await fillCard(page, { exp: '01/30' })
    await page.getByRole('button', { name: payButton }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('State, province or prefecture')
    await page.getByLabel(/State/).fill('Oregon')
    await page.getByRole('button', { name: payButton }).click()
    await page.waitForURL(`${e2e.merchantUrl}/success?**`)
    await page.close()
  })

  it('can be filled and sent with the keyboard alone', async () => {
    const page = await e2e.page()
    await page.goto(await e2e.session({ billing_address: { phone_country_code: '44' } }))
    await page.getByLabel('Card number').focus()
    await page.keyboard.type('4111111111111111')
    await page.keyboard.press('Tab')
    await page.keyboard.type('0130')
    expect(await page.getByLabel('Expiry date').inputValue()).toBe('01/30')
    await page.keyboard.press('Tab')
    await page.keyboard.type('123')
    await page.keyboard.press('Enter')
    await page.waitForURL(`${e2e.merchantUrl}/success?**`)
    await page.close()
  })

  it('fits a phone-sized screen: no sideways scrolling, large touch targets', async () => {
    const page = await e2e.page({ width: 360, height: 740 })
    await page.goto(await e2e.session({ methods: ['card', 'walletTR'], billing_address: { country: 'US' } }))
    // Page code runs in the browser: given as text, as the test types have no DOM.
    const widths = (await page.evaluate(
      '[document.documentElement.scrollWidth, window.innerWidth]',
    )) as number[]
    expect(widths[0]).toBeLessThanOrEqual(widths[1] ?? 0)
    const button = await page.getByRole('button', { name: payButton }).boundingBox()
    expect(button?.height).toBeGreaterThanOrEqual(44)
    expect(button?.width).toBeGreaterThan(280)
    const input = await page.getByLabel('Card number').boundingBox()
    expect(input?.height).toBeGreaterThanOrEqual(44)
    // 16 px text in inputs: phones do not zoom in on focus.
    expect(await page.evaluate("getComputedStyle(document.getElementById('card_number')).fontSize")).toBe(
      '16px',
    )
    await page.close()
  })
})
