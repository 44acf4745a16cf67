// Plain Node, ES modules: what a merchant's script does with the package.
import { createSandbox, signatures } from 'paysandbox'

const PASSWORD = 'demo-password-0123456789abcdef'
const received = []
const sandbox = await createSandbox({
  onCallback: async (request) => {
    received.push(Object.fromEntries(new URLSearchParams(await request.text())))
    return new Response('OK')
  },
})
const order = { number: 'esm-1', amount: '10.00', currency: 'USD', description: 'Socks' }
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
const { redirect_url } = await response.json()
const paid = await sandbox.payer.payCheckout(redirect_url, {
  number: '4111111111111111',
  expiry: '01/2030',
  cvv: '123',
})
await sandbox.idle()
const ok = received.every((fields) => signatures.verifyCallback(fields, PASSWORD, 'checkout'))
console.log(`esm: ${paid.status}, ${received.length} callback(s), hash ${ok ? 'ok' : 'BAD'}`)
await sandbox.close()
