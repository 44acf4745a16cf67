import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2e, fillCard, startE2e, holdBrowserSlot } from './harness.js'

let e2e: E2e
holdBrowserSlot()
beforeAll(async () => {
  e2e = await startE2e({ protocol_mapping: { terms_and_conditions: { enabled: true } } })
}, 300_000)
afterAll(async () => {
  await e2e?.close()
})

const payButton = /^(Pay|Payer|Zapłać) /

describe('Terms & Conditions (Events: "the pay button stays inactive until ticked")', () => {
  it('keeps the pay button inactive until the box is ticked, then pays', async () => {
    const page = await e2e.page()
    await page.goto(await e2e.session())
    await fillCard(page, { exp: '01/30' })
    const pay = page.getByRole('button', { name: payButton })
    expect(await pay.isDisabled()).toBe(true)
    const link = page.getByRole('link', { name: /Terms & Conditions/ })
    expect(await link.getAttribute('href')).toBe('/terms')
    await page.getByLabel(/I have read and accept/).check()
    expect(await pay.isEnabled()).toBe(true)
    await page.getByLabel(/I have read and accept/).uncheck()
    expect(await pay.isDisabled()).toBe(true)
    await page.getByLabel(/I have read and accept/).check()
    await pay.click()
    await page.waitForURL(`${e2e.merchantUrl}/success?**`)
    await page.close()
  })
})

describe('language (2.1.3)', () => {
  it('shows billing_address.language, and the payer can switch', async () => {
    const page = await e2e.page()
    await page.goto(await e2e.session({ billing_address: { language: 'fr' } }))
    expect(await page.locator('html').getAttribute('lang')).toBe('fr')
    expect(await page.getByLabel('Numéro de carte').count()).toBe(1)
    await page.getByLabel('Langue').selectOption('pl')
    await page.getByRole('button', { name: 'Changer' }).click()
    await page.waitForURL(/lang=pl/)
    expect(await page.getByLabel('Numer karty').count()).toBe(1)
    // The choice survives a submit that comes back with errors.
    await page.getByLabel(/Przeczytałem/).check()
    await page.getByRole('button', { name: payButton }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wypełnij to pole.')
    await page.close()
  })

  it("uses the browser's language when neither the request nor the mapping name one", async () => {
    const spanish = await startE2e({}, 'es-ES')
    try {
      const page = await spanish.page()
      await page.goto(await spanish.session())
      expect(await page.locator('html').getAttribute('lang')).toBe('es')
      expect(await page.getByLabel('Número de tarjeta').count()).toBe(1)
    } finally {
      await spanish.close()
    }
  })
})

describe('expiry and url_target', () => {
  // docs/rules.md#session-expiry: session_expiry in minutes on the sandbox clock; the interface: expiry_url.
  it('sends the payer to expiry_url once the session has expired', async () => {
    const page = await e2e.page()
    await page.goto(await e2e.session({ session_expiry: 2 }))
    expect(await page.locator('#expiry-timer').textContent()).toMatch(/2:00|1:5\d/)
    await e2e.sandbox.clock.advance(120)
    await page.reload()
    await page.waitForURL(`${e2e.merchantUrl}/expired?order_id=**`)
    await page.close()
  })

  // 2.1: "Inside an iframe with `_top`, the payer sees a continue button that opens a new window."
  it('inside an iframe with _top, offers a continue button that opens a new window', async () => {
    const page = await e2e.page()
    const hosted = await e2e.session({ url_target: '_top' })
    await page.goto(`${e2e.merchantUrl}/frame?src=${encodeURIComponent(hosted)}`)
    const frame = page.frameLocator('#pay')
    await frame.getByLabel('Card number').fill('4111111111111111')
    await frame.getByLabel('Expiry date').fill('01/30')
    await frame.getByLabel('Security code').fill('123')
    await frame.getByLabel(/I have read and accept/).check()
    await frame.getByRole('button', { name: payButton }).click()
    const continueLink = frame.getByRole('link', { name: /Continue to the shop/ })
    await continueLink.waitFor()
    // The page's script turns the link into a new window's once it knows it is framed: on a loaded
    // machine that is after the link appears (four suites at once read '_top' here).
    await expect.poll(() => continueLink.getAttribute('target')).toBe('_blank')
    const [opened] = await Promise.all([page.context().waitForEvent('page'), continueLink.click()])
    await opened?.waitForURL(`${e2e.merchantUrl}/success?**`)
    // The merchant's own page stays where it was.
    expect(page.url()).toContain('/frame?src=')
    await opened?.close()
    await page.close()
  })

  it('outside an iframe, _top goes straight to the merchant', async () => {
    const page = await e2e.page()
    await page.goto(await e2e.session({ url_target: '_top' }))
    await fillCard(page, { exp: '01/30' })
    await page.getByLabel(/I have read and accept/).check()
    await page.getByRole('button', { name: payButton }).click()
    await page.waitForURL(`${e2e.merchantUrl}/success?**`)
    await page.close()
  })
})
