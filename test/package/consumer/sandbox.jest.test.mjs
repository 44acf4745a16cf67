// A Jest suite (ES modules: `node --experimental-vm-modules node_modules/jest/bin/jest.js`).
import { afterAll, expect, test } from '@jest/globals'
import { createSandbox, signatures } from 'paysandbox'

const PASSWORD = 'demo-password-0123456789abcdef'
const sandbox = await createSandbox()
afterAll(() => sandbox.close())

test('a Checkout session is paid by card', async () => {
  const order = { number: 'jest-1', amount: '10.00', currency: 'USD', description: 'Socks' }
  const response = await sandbox.fetch(`${sandbox.baseUrl}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      merchant_key: 'demo-merchant',
      operation: 'purchase',
      order,
      success_url: 'https://shop.test/ok',
      hash: signatures.checkout.session(order, PASSWORD),
    }),
  })
  expect(response.status).toBe(200)
  const { redirect_url } = await response.json()
  const card = { number: '4111111111111111', expiry: '01/2030', cvv: '123' }
  await expect(sandbox.payer.payCheckout(redirect_url, card)).resolves.toMatchObject({ status: 'settled' })
})
