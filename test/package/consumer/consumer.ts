// A TypeScript merchant project using the package's types (checked with `tsc --noEmit`).
import {
  type CallbackFields,
  createSandbox,
  type GatewayErrorBody,
  type Sandbox,
  type SandboxOptions,
  SandboxError,
  signatures,
} from 'paysandbox'

const PASSWORD = 'demo-password-0123456789abcdef'

export async function payOnce(options: SandboxOptions = {}): Promise<string> {
  const sandbox: Sandbox = await createSandbox(options)
  try {
    const order = { number: 'ts-1', amount: '10.00', currency: 'USD', description: 'Socks' }
    const hash: string = signatures.checkout.session(order, PASSWORD)
    const response = await sandbox.fetch(`${sandbox.baseUrl}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ merchant_key: 'demo-merchant', operation: 'purchase', order, hash }),
    })
    const body = (await response.json()) as { redirect_url?: string } | GatewayErrorBody
    if (!('redirect_url' in body) || body.redirect_url === undefined) return 'refused'
    const result = await sandbox.payer.payCheckout(body.redirect_url, {
      number: '4111111111111111',
      expiry: '01/2030',
      cvv: '123',
    })
    return result.status
  } catch (error) {
    if (error instanceof SandboxError) return error.message
    throw error
  } finally {
    await sandbox.close()
  }
}

export function checkCallback(fields: CallbackFields): boolean {
  return signatures.verifyCallback(fields, PASSWORD, 'checkout')
}
