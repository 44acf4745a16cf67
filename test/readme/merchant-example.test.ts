import { setupServer } from 'msw/node'
import { createSandbox, signatures } from 'paysandbox'
import { mswHandlers } from 'paysandbox/msw'
import { afterAll, beforeAll, expect, it } from 'vitest'

const PASSWORD = 'demo-password-0123456789abcdef' // the built-in demo merchant's
const received: Record<string, string>[] = []

// The merchant's code under test: it creates a Checkout session and takes the gateway's callbacks.
async function startCheckout(number: string): Promise<string> {
  const order = { number, amount: '10.00', currency: 'USD', description: 'Socks' }
  const hash = signatures.checkout.session(order, PASSWORD)
  const session = {
    merchant_key: 'demo-merchant',
    operation: 'purchase',
    order,
    success_url: 'https://shop.test/ok',
    hash,
  }
  const response = await fetch('https://gateway.test/api/v1/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(session),
  })
  const { redirect_url } = (await response.json()) as { redirect_url: string }
  return redirect_url
}
async function onCallback(request: Request): Promise<Response> {
  const fields = Object.fromEntries(new URLSearchParams(await request.text()))
  if (!signatures.verifyCallback(fields, PASSWORD, 'checkout'))
    return new Response('bad hash', { status: 400 })
  received.push(fields)
  return new Response('OK')
}

const sandbox = await createSandbox({ onCallback })
const server = setupServer(...mswHandlers(sandbox, 'https://gateway.test'))
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => Promise.all([server.close(), sandbox.close()]))

it('pays an order by card and receives the signed callback', async () => {
  const redirectUrl = await startCheckout('order-1001')
  const card = { number: '4111111111111111', expiry: '01/2030', cvv: '123' }
  expect(await sandbox.payer.payCheckout(redirectUrl, card)).toMatchObject({ status: 'settled' })
  expect(received).toMatchObject([{ order_number: 'order-1001', type: 'sale', status: 'success' }])
})
