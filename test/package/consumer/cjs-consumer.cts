// A CommonJS TypeScript merchant project (`module: node16`, a .cts file): its imports compile to
// require() calls, typed by the package's .d.cts declarations; Node >= 20.19 requires the ES module.
import { createSandbox, type Sandbox, signatures } from 'paysandbox'

async function main(): Promise<void> {
  const PASSWORD = 'demo-password-0123456789abcdef'
  const received: Record<string, string>[] = []
  const sandbox: Sandbox = await createSandbox({
    onCallback: async (request: Request) => {
      received.push(Object.fromEntries(new URLSearchParams(await request.text())))
      return new Response('OK')
    },
  })
  const order = { number: 'cts-1', amount: '10.00', currency: 'USD', description: 'Socks' }
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
  const { redirect_url } = (await response.json()) as { redirect_url: string }
  const paid = await sandbox.payer.payCheckout(redirect_url, {
    number: '4111111111111111',
    expiry: '01/2030',
    cvv: '123',
  })
  await sandbox.idle()
  const ok = received.every((fields) => signatures.verifyCallback(fields, PASSWORD, 'checkout'))
  console.log(`cts: ${paid.status}, ${received.length} callback(s), hash ${ok ? 'ok' : 'BAD'}`)
  await sandbox.close()
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
