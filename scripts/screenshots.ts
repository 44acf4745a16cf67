/**
 * `npm run screenshots`: PNGs of the hosted pages in docs/screenshots/, taken from a real served
 * sandbox with Debian's chromium (the same harness as the browser tests): the checkout in English,
 * French, Arabic and Japanese at desktop and phone widths, the 3-D Secure page, simulator pages,
 * a status page and the Hosted Payment Fields demo. The README shows them; run again after
 * changing a page. Japanese needs CJK fonts: as root on Debian the script installs
 * `fonts-noto-cjk` when fontconfig knows no Japanese font.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
// site.ts, not harness.ts: this is a plain script, where vitest's `vi` cannot run.
import { fillCard, startE2e } from '../test/e2e/site.js'

const OUT = join(import.meta.dirname, '..', 'docs', 'screenshots')
const DESKTOP = { width: 1024, height: 900 }
const PHONE = { width: 390, height: 844 }
const LANGS = ['en', 'fr', 'ar', 'ja'] as const

/** Japanese glyphs for chromium: Debian's Noto CJK fonts, installed once where we may. */
function ensureCjkFonts(): void {
  const list = spawnSync('fc-list', [':lang=ja', 'family'], { encoding: 'utf8' })
  if (list.status === 0 && list.stdout.trim()) return
  const root = process.getuid?.() === 0
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0
  if (!root || !apt) {
    process.stderr.write(
      'screenshots: no Japanese font found; install one (Debian: sudo apt-get install -y fonts-noto-cjk)\n',
    )
    return
  }
  process.stderr.write('screenshots: installing fonts-noto-cjk with apt-get\n')
  execFileSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq fonts-noto-cjk'], {
    stdio: 'inherit',
  })
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true })
  process.stdout.write(`docs/screenshots/${name}.png\n`)
}

async function main(): Promise<void> {
  ensureCjkFonts()
  mkdirSync(OUT, { recursive: true })
  const e2e = await startE2e({
    name: 'Blue Teapot Co.',
    protocol_mapping: { terms_and_conditions: { enabled: true } },
  })
  try {
    // The checkout in each language, desktop and phone: card form, the method radio group.
    for (const lang of LANGS) {
      for (const [size, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const page = await e2e.page(viewport)
        await page.goto(
          await e2e.session({
            methods: ['card', 'pix', 'walletTR'],
            billing_address: { language: lang, country: lang === 'ja' ? 'JP' : 'FR' },
          }),
        )
        await page.locator('#card_number').pressSequentially('4111111111111111')
        await shoot(page, `checkout-${lang}-${size}`)
        await page.close()
      }
    }

    // The 3-D Secure page, in English and in Arabic (the masked card stays left to right).
    for (const lang of ['en', 'ar'] as const) {
      const acs = await e2e.page(DESKTOP)
      await acs.goto(await e2e.session({ billing_address: { language: lang, phone_country_code: '44' } }))
      // By id: the labels are in the page's language.
      await acs.locator('#card_number').fill('4111 1111 1111 1111')
      await acs.locator('#card_exp').fill('05/30')
      await acs.locator('#card_cvv2').fill('123')
      await acs.getByRole('checkbox').check()
      await acs.locator('#pay-button').click()
      await acs.waitForURL(/\/acs\//)
      await shoot(acs, `acs-${lang}`)
      await acs.close()
    }

    const done = await e2e.page(PHONE)
    await done.goto(
      await e2e.session({ url_target: '_blank', billing_address: { phone_country_code: '44' } }),
    )
    await fillCard(done, { exp: '01/30' })
    await done.getByRole('checkbox').check()
    await done.locator('#pay-button').click()
    await done.locator('#continue').waitFor()
    await shoot(done, 'status-success')
    await done.close()

    const demo = await e2e.page(DESKTOP)
    await demo.goto(`${e2e.url}/hpf/demo`)
    await shoot(demo, 'hpf-demo')
    await demo.close()

    await shootApmPages(e2e)
  } finally {
    await e2e.close()
  }
}

/** Simulator pages: a QR code (English), a phone confirmation (French), a crypto address (Japanese). */
async function shootApmPages(e2e: Awaited<ReturnType<typeof startE2e>>): Promise<void> {
  const cases: [string, Record<string, unknown>][] = [
    ['apm-qr-en', { methods: ['pix'], parameters: { pix: { document_number: '12345678909' } } }],
    [
      'apm-device-fr',
      {
        methods: ['moov-money'],
        billing_address: { language: 'fr', country: 'BJ', phone: '0197123456', phone_country_code: '229' },
      },
    ],
    [
      'apm-crypto-ja',
      {
        methods: ['awcc'],
        billing_address: { language: 'ja' },
        parameters: { awcc: { crypto_type: 'BTC', bech32: true } },
      },
    ],
  ]
  for (const [name, session] of cases) {
    const page = await e2e.page(PHONE)
    await page.goto(await e2e.session(session))
    const terms = page.getByRole('checkbox')
    if (await terms.count()) await terms.check()
    await page.locator('#pay-button').click()
    await page.waitForURL(/\/apm\//)
    await shoot(page, name)
    await page.close()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`screenshots: ${(error as Error).message}\n`)
  process.exit(1)
})
