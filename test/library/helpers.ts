import { type Sandbox, signatures } from '../../src/index.js'

export const KEY = 'demo-merchant'
export const PASSWORD = 'demo-password-0123456789abcdef'

export const order = (number: string, amount = '10.00') => ({
  number,
  amount,
  currency: 'USD',
  description: 'Library test',
})

/** A Checkout session request signed for the demo merchant (docs/rules.md#signatures session formula). */
export function sessionRequest(number: string, extra: Record<string, unknown> = {}) {
  const o = order(number)
  return {
    merchant_key: KEY,
    operation: 'purchase',
    methods: ['card'],
    order: o,
    success_url: 'https://shop.test/ok',
    cancel_url: 'https://shop.test/cancel',
    hash: signatures.checkout.session(o, PASSWORD),
    ...extra,
  }
}

/** Creates a session through the sandbox's fetch and answers its redirect_url. */
export async function createSession(
  sandbox: Sandbox,
  number: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const response = await sandbox.fetch(`${sandbox.baseUrl}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(sessionRequest(number, extra)),
  })
  const body = (await response.json()) as { redirect_url?: string }
  if (response.status !== 200 || !body.redirect_url)
    throw new Error(`session refused: ${response.status} ${JSON.stringify(body)}`)
  return body.redirect_url
}

export const card = (expiry: string, number = '4111111111111111') => ({ number, expiry, cvv: '123' })
