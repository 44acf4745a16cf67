import { join } from 'node:path'
import type { Listening } from '../../src/library/listen.js'
import { createSandbox, type Sandbox } from '../../src/library/create-sandbox.js'
import { loadAdapter, type MerchantClient, startMerchant } from '../../src/conformance/merchant.js'
import { silentLogger } from '../../src/core/ports/logger.js'

/**
 * A sandbox served over HTTP with the reference merchant (fixtures/merchants/reference.json)
 * configured, and that merchant's process pointed at it: what support sees when a shop uses
 * `paysandbox serve`. Orders go through the shop's own checkout (its start hook) and the hosted
 * page, as a payer's browser submits it.
 */
export const REFERENCE = join(import.meta.dirname, '..', '..', 'fixtures', 'merchants', 'reference.json')
export const REF_KEY = 'ref-merchant'
export const REF_PASSWORD = 'ref-password-0123456789abcdef'

export interface ObservedShop {
  sandbox: Sandbox
  listening: Listening
  merchant: MerchantClient
  /** The shop's checkout button: a session for this order, answered with the hosted page's URL. */
  checkout(order: { number: string; amount: string; currency: string; description?: string }): Promise<string>
  /** The payer on the hosted page: opens it and submits the card form, as a browser does. */
  payOnPage(pageUrl: string, card: { number: string; exp: string; cvv: string }): Promise<Response>
  close(): Promise<void>
}

export async function observedShop(): Promise<ObservedShop> {
  const { adapter, dir } = loadAdapter(REFERENCE)
  const merchant = await startMerchant(
    {
      ...adapter,
      ...(adapter.process ? { process: { ...adapter.process, ready_timeout_seconds: 60 } } : {}),
    },
    dir,
  )
  const sandbox = await createSandbox({
    config: {
      merchants: [
        {
          key: REF_KEY,
          password: REF_PASSWORD,
          name: 'Reference shop',
          notification_url: merchant.notificationUrl,
          mids: [{ id: 'mid-1', payment_mode: 'SMS/DMS' }],
        },
      ],
    },
    seed: 'observed-shop',
    logger: silentLogger,
  })
  const listening = await sandbox.listen()
  return {
    sandbox,
    listening,
    merchant,
    async checkout(order) {
      const answer = await merchant.startPayment({
        gateway_url: listening.url,
        flow: 'checkout',
        operation: 'purchase',
        order,
        methods: ['card'],
      })
      const url = (answer.body as { redirect_url?: unknown } | undefined)?.redirect_url
      if (typeof url !== 'string')
        throw new Error(`the shop's checkout answered ${answer.status} ${answer.text}`)
      return url
    },
    async payOnPage(pageUrl, card) {
      const page = await fetch(pageUrl)
      const html = await page.text()
      const action = /<form[^>]*action="([^"]*\/pay)"/.exec(html)?.[1]
      if (!action) throw new Error(`no card form on the hosted page (HTTP ${page.status})`)
      return fetch(new URL(action.replace(/&amp;/g, '&'), pageUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(pageUrl).origin },
        body: new URLSearchParams({
          card_number: card.number,
          card_exp: card.exp,
          card_cvv2: card.cvv,
          card_holder: 'Jane Payer',
        }).toString(),
      })
    },
    async close() {
      await Promise.all([merchant.stop(), sandbox.close()])
    },
  }
}
