/**
 * The served sandbox, the merchant site and the browser of the page tests, without vitest: the
 * browser tests use it through harness.ts, and `npm run screenshots` (a plain script, where
 * vitest's `vi` cannot run) uses it directly.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import type { SandboxConfig, SandboxMerchant } from '../../src/core/engine/context.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { createSandbox, type Sandbox } from '../../src/index.js'
import { demoConfig } from '../helpers/engine.js'
import { type Browser, launchBrowser } from './browser.js'

export const PASSWORD = 'demo-password-0123456789abcdef'

/** A merchant site on its own origin: its pages show which URL the payer landed on. */
async function startMerchant(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://merchant')
    if (url.pathname === '/frame') {
      // The merchant embeds the hosted page in an iframe (2.1 url_target `_top` case).
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(
        `<!DOCTYPE html><title>Shop</title><h1>Shop</h1><iframe id="pay" title="Payment" style="width:420px;height:700px" src="${url.searchParams.get('src') ?? ''}"></iframe>`,
      )
      return
    }
    if (req.method === 'POST') {
      res.writeHead(200).end('OK')
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(`<!DOCTYPE html><title>Shop ${url.pathname}</title><h1 id="landed">${url.pathname.slice(1)}</h1>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

export interface E2e {
  sandbox: Sandbox
  url: string
  merchantUrl: string
  browser: Browser
  page(viewport?: { width: number; height: number }): Promise<Page>
  /** A signed Checkout session; answers its hosted page address. */
  session(overrides?: Record<string, unknown>): Promise<string>
  close(): Promise<void>
}

/**
 * A real served sandbox on 127.0.0.1 (the library's createSandbox + listen, express underneath),
 * a merchant site on another port, and a browser. The clock is virtual, starting now, so expiry
 * is tested by advancing it.
 */
export async function startE2e(merchantPatch: Partial<SandboxMerchant> = {}, locale?: string): Promise<E2e> {
  const merchant = await startMerchant()
  const base = demoConfig()
  const demo = base.merchants[0] as SandboxMerchant
  const config: SandboxConfig = {
    ...base,
    merchants: [{ ...demo, notification_url: `${merchant.url}/callback`, ...merchantPatch }],
  }
  const sandbox = await createSandbox({ config, clock: 'virtual', start: Date.now() })
  const listening = await sandbox.listen()
  const browser = await launchBrowser(locale ? { locale } : {})
  let n = 0
  return {
    sandbox,
    url: listening.url,
    merchantUrl: merchant.url,
    browser,
    async page(viewport) {
      const page = await browser.context.newPage()
      if (viewport) await page.setViewportSize(viewport)
      return page
    },
    async session(overrides = {}) {
      n += 1
      const order = { number: `e2e-${n}`, amount: '25.00', currency: 'EUR', description: 'Blue teapot' }
      const response = await fetch(`${listening.url}/api/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          merchant_key: demo.key,
          operation: 'purchase',
          methods: ['card'],
          order,
          success_url: `${merchant.url}/success`,
          error_url: `${merchant.url}/error`,
          cancel_url: `${merchant.url}/cancel`,
          expiry_url: `${merchant.url}/expired`,
          hash: checkoutSignatures.session(order, PASSWORD),
          ...overrides,
        }),
      })
      const body = (await response.json()) as { redirect_url?: string }
      if (!body.redirect_url) throw new Error(`session refused: ${JSON.stringify(body)}`)
      return body.redirect_url
    },
    async close() {
      await browser.close()
      await sandbox.close()
      await new Promise<void>((resolve) => merchant.server.close(() => resolve()))
    },
  }
}

/** Fills the hosted page's card form as a payer types it. */
export async function fillCard(
  page: Page,
  card: { number?: string; exp: string; cvv?: string },
): Promise<void> {
  await page.getByLabel('Card number').fill(card.number ?? '4111 1111 1111 1111')
  await page.getByLabel('Expiry date').fill(card.exp)
  await page.getByLabel('Security code').fill(card.cvv ?? '123')
}
