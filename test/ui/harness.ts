import { createFetchHandler } from '../../src/adapters/fetch/fetch-handler.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { checkoutSignatures, s2sCardSignatures } from '../../src/core/signatures/index.js'
import { createControlClient } from '../../src/ui/client.js'
import { createTestGateway, type TestGateway } from '../helpers/engine.js'

export const DEMO = { key: 'demo-merchant', password: 'demo-password-0123456789abcdef' }
export const BASE = 'http://sandbox.test'

/** The whole engine (every module, the support routes among them) on a virtual clock, seeded ids. */
export function supportGateway(): TestGateway {
  return createTestGateway(DEFAULT_MODULES)
}

/** The console's client over the in-process gateway, as `paysandbox tui --data` and embedded use it. */
export function inProcessClient(t: TestGateway) {
  const handler = createFetchHandler(t.gateway, { base: BASE })
  return createControlClient({ baseUrl: BASE, fetch: (input, init) => handler(new Request(input, init)) })
}

/**
 * A Hosted Payment Fields card payment of the demo merchant with the test card of docs/rules.md#test-data
 * whose expiry month picks the outcome; answers the payment id.
 */
export async function cardPayment(
  t: TestGateway,
  options: {
    month?: string
    year?: string
    order?: string
    auth?: boolean
    custom_data?: Record<string, unknown>
  } = {},
): Promise<string> {
  const order = {
    number: options.order ?? 'order-1',
    amount: '25.00',
    currency: 'EUR',
    description: 'Tea for two',
  }
  const session = await t.call('POST', '/api/v1/session/token', {
    merchant_key: DEMO.key,
    operation: 'purchase',
    methods: ['card'],
    order,
    success_url: 'https://shop.example/ok',
    // docs/rules.md#hosted-payment-fields: the session-token request requires return_url.
    return_url: 'https://shop.example/return',
    ...(options.auth ? { auth: true } : {}),
    ...(options.custom_data ? { custom_data: options.custom_data } : {}),
    hash: checkoutSignatures.session(order, DEMO.password),
  })
  if (session.status !== 200) throw new Error(`session/token: ${session.raw}`)
  const paid = await t.call(
    'POST',
    '/api/v1/processing/purchase/card',
    {
      card_number: '4111111111111111',
      card_exp_month: options.month ?? '01',
      card_exp_year: options.year ?? '2030',
      card_cvv2: '123',
    },
    { Token: session.body.token as string },
  )
  if (paid.status !== 200) throw new Error(`processing: ${paid.raw}`)
  return paid.body.payment_id as string
}

/** An S2S CARD SALE (docs/rules.md#endpoints: form-urlencoded at /post); answers the trans_id. */
export async function s2sSale(t: TestGateway, extra: Record<string, string> = {}): Promise<string> {
  const card = '4111111111111111'
  const form = new URLSearchParams({
    action: 'SALE',
    client_key: DEMO.key,
    order_id: 's2s-1',
    order_amount: '10.00',
    order_currency: 'USD',
    order_description: 'Gift',
    card_number: card,
    card_exp_month: '01',
    card_exp_year: '2030',
    card_cvv2: '123',
    payer_first_name: 'John',
    payer_last_name: 'Doe',
    payer_email: 'doe@example.com',
    payer_phone: '123456789',
    payer_ip: '203.0.113.7',
    term_url_3ds: 'https://shop.example/3ds',
    hash: s2sCardSignatures.payment('doe@example.com', DEMO.password, { cardNumber: card }),
    ...extra,
  })
  const r = await t.call('POST', '/post', form.toString())
  if (typeof r.body.trans_id !== 'string') throw new Error(`SALE: ${r.raw}`)
  return r.body.trans_id
}
