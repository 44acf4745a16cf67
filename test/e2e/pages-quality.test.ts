import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { type E2e, fillCard, PASSWORD, startE2e, holdBrowserSlot } from './harness.js'

// Issue 17 in chromium, one browser for the whole file: axe-core finds no WCAG 2.2 AA or
// best-practice violation on any page type; Arabic keeps card numbers, dates and masked cards
// left to right; the method choice is a radio group the arrow keys move; the countdown follows the
// sandbox clock (docs/rules.md#session-expiry: session_expiry on the sandbox clock); nothing overflows a 320 px
// screen with long order values; no page asks for a missing favicon.

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
/** An element's computed writing direction. */
const direction = (page: Page, selector: string) =>
  page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).direction`)
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']

let e2e: E2e
/** Every response a page got that was a 404 (a missing favicon would show here). */
const missing: string[] = []
holdBrowserSlot()
beforeAll(async () => {
  e2e = await startE2e({ protocol_mapping: { terms_and_conditions: { enabled: true } } })
  e2e.browser.context.on('response', (r) => {
    if (r.status() === 404 && !r.url().includes('/auth/nope')) missing.push(r.url())
  })
}, 300_000)
afterAll(async () => {
  await e2e?.close()
})

async function open(path: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await e2e.page(viewport)
  await page.goto(path)
  return page
}

interface AxeResult {
  violations: { id: string; impact: string; nodes: { target: string[] }[] }[]
}

async function violations(page: Page): Promise<string[]> {
  // Through the DevTools protocol: the pages' Content-Security-Policy refuses inline scripts.
  await page.evaluate(AXE)
  // The tests compile without the DOM library: what runs in the page is written as text.
  const result = (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(AXE_TAGS)} }, resultTypes: ['violations'] })`,
  )) as AxeResult
  return result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  )
}

/** Pays with the card form up to the page the payment goes to. */
async function payCard(page: Page, exp: string): Promise<void> {
  await fillCard(page, { exp })
  await page.getByRole('checkbox').check()
  await page.locator('#pay-button').click()
}

const GROUPS: [string, Record<string, unknown>][] = [
  ['sepa', {}],
  ['helio', {}],
  ['upi-2', {}],
  ['pix', { parameters: { pix: { document_number: '12345678909' } } }],
  ['paycash-mexico', {}],
  [
    'phone-pe',
    { billing_address: { country: 'IN', state: 'MH', phone: '9876543210', phone_country_code: '91' } },
  ],
  ['moov-money', { billing_address: { country: 'BJ', phone: '0197123456', phone_country_code: '229' } }],
  ['beeline', { billing_address: { phone: '7700900123', phone_country_code: '44' } }],
  ['axxi-cash', { parameters: { 'axxi-cash': { id_document: 'AB123456' } } }],
  ['ptn-email', { customer: { email: 'payer@example.com' } }],
  ['awcc', { parameters: { awcc: { crypto_type: 'BTC', bech32: true } } }],
  ['wallet1', {}],
  ['airtel', {}],
]

async function simulator(method: string, session: Record<string, unknown>, lang = 'en', width = 1024) {
  const page = await open(
    await e2e.session({ methods: [method], billing_address: { language: lang }, ...session }),
    { width, height: 800 },
  )
  const terms = page.getByRole('checkbox')
  if (await terms.count()) await terms.check()
  await page.locator('#pay-button').click()
  await page.waitForURL(/\/apm\//)
  return page
}

describe('axe-core: WCAG 2.2 AA and best practice on every page type', () => {
  it('checkout (with the method radio group), its error summary, and the Arabic checkout', async () => {
    const page = await open(
      await e2e.session({ methods: ['card', 'walletTR', 'pix'], billing_address: { country: 'US' } }),
    )
    expect(await violations(page)).toEqual([])
    await page.getByRole('checkbox').check()
    await page.locator('#pay-button').click()
    await page.locator('#error-summary a').first().waitFor()
    expect(await violations(page)).toEqual([])
    // Error-summary links are at least 24 px tall (WCAG 2.2 target size).
    const heights = (await page.evaluate(
      "[...document.querySelectorAll('#error-summary a')].map((a) => a.getBoundingClientRect().height)",
    )) as number[]
    expect(Math.min(...heights)).toBeGreaterThanOrEqual(24)
    await page.close()
    const ar = await open(
      await e2e.session({ methods: ['card', 'walletTR'], billing_address: { language: 'ar' } }),
    )
    expect(await violations(ar)).toEqual([])
    await ar.close()
  })

  it('ACS, redirect and status pages, the not-found and the expired page', async () => {
    const acs = await open(await e2e.session())
    await payCard(acs, '05/30')
    await acs.waitForURL(/\/acs\//)
    expect(await violations(acs)).toEqual([])
    await acs.close()
    const redirect = await open(await e2e.session())
    await payCard(redirect, '12/30')
    await redirect.waitForURL(/\/redirect-sim\//)
    expect(await violations(redirect)).toEqual([])
    await redirect.close()
    const done = await open(await e2e.session({ url_target: '_blank' }))
    await payCard(done, '01/30')
    await done.locator('#continue').waitFor()
    expect(await violations(done)).toEqual([])
    await done.close()
    const notFound = await open(`${e2e.url}/auth/nope`)
    expect(await violations(notFound)).toEqual([])
    await notFound.close()
    const expiring = await e2e.session({ session_expiry: 1, expiry_url: undefined })
    await e2e.sandbox.clock.advance(60)
    const expired = await open(expiring)
    expect(await expired.locator('h1').textContent()).toBe('Session expired')
    expect(await violations(expired)).toEqual([])
    await expired.close()
  }, 120_000)

  it('the simulator page of every behaviour group', async () => {
    const found: Record<string, string[]> = {}
    for (const [method, session] of GROUPS) {
      const page = await simulator(method, session)
      const v = await violations(page)
      if (v.length) found[method] = v
      await page.close()
    }
    expect(found).toEqual({})
  }, 120_000)

  it('the Hosted Payment Fields demo page, its code blocks reachable by keyboard', async () => {
    const page = await open(`${e2e.url}/hpf/demo`)
    expect(await page.locator('pre').count()).toBeGreaterThan(0)
    const tabindexes = (await page.evaluate(
      "[...document.querySelectorAll('pre')].map((p) => p.getAttribute('tabindex'))",
    )) as string[]
    for (const tabindex of tabindexes) expect(tabindex).toBe('0')
    expect(await violations(page)).toEqual([])
    await page.close()
  })
})

describe('Arabic, right to left, with numbers left to right', () => {
  it('shows a typed card number as 4111 1111 1111 1111, the ACS title and the masked card in their order', async () => {
    const page = await open(await e2e.session({ billing_address: { language: 'ar', country: 'AE' } }))
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
    const number = page.locator('#card_number')
    await number.pressSequentially('4111111111111111')
    expect(await number.inputValue()).toBe('4111 1111 1111 1111')
    expect(await direction(page, '#card_number')).toBe('ltr')
    expect(await direction(page, '#card_exp')).toBe('ltr')
    expect(await direction(page, '#card_cvv2')).toBe('ltr')
    await page.locator('#card_exp').fill('05/30')
    await page.locator('#card_cvv2').fill('123')
    await page.getByRole('checkbox').check()
    await page.locator('#pay-button').click()
    await page.waitForURL(/\/acs\//)
    // "3-D Secure" reads as one left-to-right run inside the Arabic title.
    const title = page.locator('h1')
    expect(await title.textContent()).toContain('\u20663-D Secure\u2069')
    const masked = page.locator('dd bdi[dir="ltr"]')
    expect(await masked.textContent()).toBe('411111******1111')
    expect(await direction(page, 'dd bdi[dir="ltr"]')).toBe('ltr')
    // Visually too: the first group of digits is at the left of the last one.
    const [first, last] = (await page.evaluate(`(() => {
      const text = document.querySelector('dd bdi[dir="ltr"]').firstChild
      const range = document.createRange()
      range.setStart(text, 0)
      range.setEnd(text, 6)
      const a = range.getBoundingClientRect().left
      range.setStart(text, 12)
      range.setEnd(text, 16)
      return [a, range.getBoundingClientRect().left]
    })()`)) as number[]
    expect(first).toBeLessThan(last as number)
    await page.close()
  })
})

describe('the method choice is a radio group', () => {
  it('moves with the arrow keys, and the form follows the choice (with script, no button needed)', async () => {
    const page = await open(await e2e.session({ methods: ['card', 'walletTR', 'pix'] }))
    const radios = page.getByRole('radio')
    expect(await radios.count()).toBe(3)
    expect(await page.getByRole('radio', { name: 'Card', exact: true }).isChecked()).toBe(true)
    // The no-script fallback's button is not shown when the choice switches by itself.
    expect(await page.getByRole('button', { name: 'Use this method' }).isVisible()).toBe(false)
    await page.getByRole('radio', { name: 'Card', exact: true }).focus()
    await page.keyboard.press('ArrowDown')
    expect(await page.getByRole('radio', { name: /E-wallet/ }).isChecked()).toBe(true)
    await page.keyboard.press('ArrowDown')
    expect(await page.getByRole('radio', { name: /^Pix/ }).isChecked()).toBe(true)
    await page.waitForURL(/method=pix/)
    await expect.poll(() => page.locator('#pay-button').textContent()).toBe('Continue with Pix')
    await page.close()
  })
})

describe('the countdown follows the sandbox clock (docs/rules.md#sessions)', () => {
  it('shows the new remaining time after a clock advance, without a reload', async () => {
    // On the sandbox's virtual clock the page shows the time the sandbox gives and asks for it
    // again every 2 s (src/pages/assets/hosted.js). The browser's clock is Playwright's, paused
    // while this page is open: the test moves it on by the page's 2 s instead of waiting for them.
    const clock = e2e.browser.context.clock
    await clock.install()
    await clock.pauseAt(Date.now() + 1000)
    try {
      const page = await open(await e2e.session({ session_expiry: 5 }))
      const timer = page.locator('#expiry-timer')
      expect(await timer.textContent()).toBe('This page expires in 5:00.')
      await e2e.sandbox.clock.advance(181)
      await clock.runFor(2000)
      await expect.poll(() => timer.textContent()).toBe('This page expires in 1:59.')
      // Past the end, the page moves on by itself to the expiry URL at its next question.
      await e2e.sandbox.clock.advance(120)
      await clock.runFor(2000)
      await page.waitForURL(`${e2e.merchantUrl}/expired?**`)
      await page.close()
    } finally {
      await clock.resume()
    }
  })
})

describe('phones: 320 px wide with long values', () => {
  const order = {
    number: `ORDER-${'7'.repeat(40)}-${'X'.repeat(30)}`,
    amount: '1234567.89',
    currency: 'EUR',
    description: `Blue teapot with an extraordinarily long description ${'W'.repeat(60)} and more words after it`,
  }
  const long = (extra: Record<string, unknown> = {}) =>
    e2e.session({ order, hash: checkoutSignatures.session(order, PASSWORD), ...extra })
  const narrow = { width: 320, height: 700 }
  const fits = (page: Page) =>
    page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')

  it('checkout in French (test cards open), ACS and simulator pages never scroll sideways', async () => {
    const page = await open(
      await long({ methods: ['card', 'walletTR'], billing_address: { language: 'fr', country: 'FR' } }),
      narrow,
    )
    await page.locator('details.testcards summary').click()
    expect(await fits(page)).toBe(true)
    // The French test-card panel is French throughout and its chips stay on one line.
    const panel = (await page.locator('details.testcards').textContent()) ?? ''
    expect(panel).toContain('réussite')
    expect(panel).not.toMatch(/success|decline|then/)
    const chip = page.locator('details.testcards .chip').first()
    await chip.waitFor()
    expect(
      await page.evaluate("document.querySelector('details.testcards .chip').getBoundingClientRect().height"),
    ).toBeLessThan(40)
    // The phone country code label holds on at most two lines.
    const lines = await page.evaluate(`(() => {
      const label = document.querySelector('label[for="phone_country_code"]')
      return Math.round(label.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(label).lineHeight))
    })()`)
    expect(lines).toBeLessThanOrEqual(2)
    await page.locator('#card_number').fill('4111 1111 1111 1111')
    await page.locator('#card_exp').fill('05/30')
    await page.locator('#card_cvv2').fill('123')
    await page.locator('#phone_country_code').fill('33')
    await page.getByRole('checkbox').check()
    await page.locator('#pay-button').click()
    await page.waitForURL(/\/acs\//)
    expect(await fits(page)).toBe(true)
    await page.close()
    // The simulator pages with the most to show (codes, addresses, details, phone rows, fields).
    const wordy = ['pix', 'paycash-mexico', 'moov-money', 'beeline', 'ptn-email', 'awcc']
    for (const [method, session] of GROUPS.filter(([m]) => wordy.includes(m))) {
      const sim = await open(await long({ methods: [method], ...session }), narrow)
      const terms = sim.getByRole('checkbox')
      if (await terms.count()) await terms.check()
      await sim.locator('#pay-button').click()
      await sim.waitForURL(/\/apm\//)
      expect(await fits(sim), method).toBe(true)
      await sim.close()
    }
  }, 120_000)

  it('no page asked for a file that is not there (the favicon is inline)', () => {
    expect(missing).toEqual([])
  })
})
