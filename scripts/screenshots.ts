/**
 * `npm run screenshots`: PNGs of the main hosted pages in docs/screenshots/, taken from a real
 * served sandbox with Debian's chromium (the same harness as the browser tests). The README shows
 * them; run again after changing a page.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { fillCard, startE2e } from '../test/e2e/harness.js'

const OUT = join(import.meta.dirname, '..', 'docs', 'screenshots')
const DESKTOP = { width: 1024, height: 900 }
const PHONE = { width: 390, height: 844 }

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true })
  process.stdout.write(`docs/screenshots/${name}.png\n`)
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true })
  const e2e = await startE2e({
    name: 'Blue Teapot Co.',
    protocol_mapping: { terms_and_conditions: { enabled: true } },
  })
  try {
    const us = { country: 'US', city: 'Portland', phone: '5035550123' }
    const hosted = await e2e.session({ methods: ['card', 'walletTR', 'pyk-upi'], billing_address: us })

    const desktop = await e2e.page(DESKTOP)
    await desktop.goto(hosted)
    await shoot(desktop, 'checkout-card')
    await desktop.getByRole('button', { name: /Pay/ }).isDisabled()
    await desktop.getByLabel(/I have read/).check()
    await desktop.getByRole('button', { name: /Pay/ }).click()
    await shoot(desktop, 'checkout-errors')
    await desktop.goto(`${hosted}?method=walletTR`)
    await shoot(desktop, 'checkout-method-fields')

    const phone = await e2e.page(PHONE)
    await phone.goto(await e2e.session({ billing_address: { country: 'FR', language: 'fr' } }))
    await shoot(phone, 'checkout-phone-fr')

    const acs = await e2e.page(DESKTOP)
    await acs.goto(await e2e.session({ billing_address: { country: 'GB', phone_country_code: '44' } }))
    await fillCard(acs, { exp: '05/30' })
    await acs.getByLabel(/I have read/).check()
    await acs.getByRole('button', { name: /Pay/ }).click()
    await acs.waitForURL(/\/acs\//)
    await shoot(acs, 'acs')

    const done = await e2e.page(PHONE)
    await done.goto(
      await e2e.session({ url_target: '_blank', billing_address: { phone_country_code: '44' } }),
    )
    await fillCard(done, { exp: '01/30' })
    await done.getByLabel(/I have read/).check()
    await done.getByRole('button', { name: /Pay/ }).click()
    await done.getByRole('heading', { name: 'Payment successful' }).waitFor()
    await shoot(done, 'status-success')

    const demo = await e2e.page(DESKTOP)
    await demo.goto(`${e2e.url}/hpf/demo`)
    await demo.getByRole('button', { name: /Create a demo session/ }).click()
    await demo.frameLocator('iframe').getByLabel('Card number').waitFor()
    await shoot(demo, 'hpf-demo')

    await shootApmPages(e2e)
  } finally {
    await e2e.close()
  }
}

/** The APM simulator pages: a QR code, an app confirmation that waits, a crypto address. */
async function shootApmPages(e2e: Awaited<ReturnType<typeof startE2e>>): Promise<void> {
  const cases: [string, Record<string, unknown>][] = [
    ['apm-qr', { methods: ['pix'], parameters: { pix: { document_number: '12345678909' } } }],
    [
      'apm-app-confirmation',
      { methods: ['jvz'], billing_address: { country: 'GB', phone: '7700900123', phone_country_code: '44' } },
    ],
    ['apm-crypto', { methods: ['awcc'], parameters: { awcc: { crypto_type: 'BTC', bech32: true } } }],
  ]
  for (const [name, session] of cases) {
    const page = await e2e.page(PHONE)
    await page.goto(await e2e.session(session))
    const terms = page.getByLabel(/I have read/)
    if (await terms.count()) await terms.check()
    await page.locator('#pay-button').click()
    await page.waitForURL(/\/apm\//)
    await shoot(page, name)
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`screenshots: ${(error as Error).message}\n`)
  process.exit(1)
})
