import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Browser, launchBrowser } from './browser.js'
import { type E2e, fillCard, startE2e, holdBrowserSlot } from './harness.js'

// Issue 25, requirement 2: choosing a method on the hosted payment page switches the form at once
// with JavaScript (no card form left behind, the pay button names the chosen method); without
// JavaScript the GET form's "Use this method" still loads the chosen method's form.

let e2e: E2e
let noScript: Browser
holdBrowserSlot()
beforeAll(async () => {
  e2e = await startE2e()
  noScript = await launchBrowser({ javaScriptEnabled: false })
}, 300_000)
afterAll(async () => {
  await noScript?.close()
  await e2e?.close()
})

const METHODS = ['card', 'pix', 'walletTR']
const cardFields = (page: Page) => page.locator('#card_number').count()
const payButton = (page: Page) => page.locator('#pay-button').textContent()

describe('with JavaScript', () => {
  it('switches to the chosen method at once, and back to the card form', async () => {
    const page = await e2e.page()
    await page.goto(await e2e.session({ methods: METHODS }))
    expect(await payButton(page)).toBe('Pay €25.00 by card')
    expect(await cardFields(page)).toBe(1)
    // A pointer payer: a click on the method, nothing else.
    await page.getByRole('radio', { name: /^Pix/ }).click()
    await expect.poll(() => payButton(page)).toBe('Continue with Pix')
    // No stale card form: its fields and its test cards are gone, the address names the method.
    expect(await cardFields(page)).toBe(0)
    expect(await page.locator('details.testcards').count()).toBe(0)
    expect(page.url()).toMatch(/[?&]method=pix\b/)
    expect(await page.locator('#pay-form').getAttribute('action')).toMatch(/\/method\/pix$/)
    // Back to the card: the card form, its pay button and its test cards, working as before.
    await page.getByRole('radio', { name: 'Card', exact: true }).click()
    await expect.poll(() => payButton(page)).toBe('Pay €25.00 by card')
    expect(await cardFields(page)).toBe(1)
    expect(await page.locator('details.testcards').count()).toBe(1)
    await fillCard(page, { exp: '01/30' })
    await page.locator('#pay-button').click()
    await page.waitForURL(`${e2e.merchantUrl}/success?**`)
    await page.close()
  })

  it('pays with the chosen method: the pay button goes to the method, never asks for a card', async () => {
    const page = await e2e.page()
    await page.goto(await e2e.session({ methods: METHODS }))
    await page.getByRole('radio', { name: /^Pix/ }).click()
    await expect.poll(() => payButton(page)).toBe('Continue with Pix')
    const documentNumber = page.locator('input[name="document_number"]')
    if (await documentNumber.count()) await documentNumber.fill('12345678909')
    await page.locator('#pay-button').click()
    await page.waitForURL(/\/apm\//)
    expect(await page.content()).not.toContain('Enter a valid card number.')
    await page.close()
  })
})

describe('without JavaScript', () => {
  it('keeps the form-submit fallback: "Use this method" loads the chosen method\'s form', async () => {
    const page = await noScript.context.newPage()
    await page.goto(await e2e.session({ methods: METHODS }))
    const use = page.getByRole('button', { name: 'Use this method' })
    expect(await use.isVisible()).toBe(true)
    await page.getByRole('radio', { name: /^Pix/ }).check()
    // Nothing runs on the page: the card form stays until the choice is sent.
    expect(await cardFields(page)).toBe(1)
    await use.click()
    await page.waitForURL(/[?&]method=pix\b/)
    expect(await payButton(page)).toBe('Continue with Pix')
    expect(await cardFields(page)).toBe(0)
    expect(await page.getByRole('radio', { name: /^Pix/ }).isChecked()).toBe(true)
    await page.close()
  })
})
