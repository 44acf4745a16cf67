import { afterEach } from 'vitest'
import { createSandbox, type Sandbox, signatures } from '../../src/index.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import { KEY, PASSWORD } from '../library/helpers.js'

/** Sandboxes of a test file, each closed after its test; callbacks are acknowledged in-process. */
export function sandboxes(): () => Promise<Sandbox> {
  const open: Sandbox[] = []
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()))
  })
  return async () => {
    const s = await createSandbox({ onCallback: () => new Response('OK'), logger: silentLogger })
    open.push(s)
    return s
  }
}

export const EMAIL = 'doe@example.com'
export const CARD = '4111111111111111'

/** An S2S CARD SALE of 10.00 USD for `orderId`, signed with Formula 1. */
export const sale = (orderId: string) =>
  new URLSearchParams({
    action: 'SALE',
    client_key: KEY,
    order_id: orderId,
    order_amount: '10.00',
    order_currency: 'USD',
    order_description: 'Tickets',
    card_number: CARD,
    card_exp_month: '01',
    card_exp_year: '2030',
    card_cvv2: '123',
    payer_first_name: 'John',
    payer_last_name: 'Doe',
    payer_email: EMAIL,
    payer_phone: '2125550100',
    payer_ip: '203.0.113.10',
    term_url_3ds: 'https://shop.test/3ds',
    hash: signatures.s2sCard.payment(EMAIL, PASSWORD, { cardNumber: CARD }),
  })

/** GET_TRANS_STATUS_BY_ORDER for `orderId`, signed with Formula 7. */
export const statusByOrder = (orderId: string) =>
  new URLSearchParams({
    action: 'GET_TRANS_STATUS_BY_ORDER',
    client_key: KEY,
    order_id: orderId,
    hash: signatures.s2sCard.byOrder(EMAIL, PASSWORD, orderId, { cardNumber: CARD }),
  })

/** POSTs an S2S CARD form to the sandbox's /post. */
export const post = (s: Sandbox, body: URLSearchParams, signal?: AbortSignal) =>
  s.fetch(`${s.baseUrl}/post`, { method: 'POST', body, ...(signal ? { signal } : {}) })
