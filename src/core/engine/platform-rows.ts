import { fail, GatewayError } from './errors.js'

/**
 * docs/rules.md#business-codes: "Business codes from the platform's catalogue ... 208001–208010 ... each with
 * its exact message, unless the interface's table has the row". A refusal whose catalogue row names
 * the platform's row (`checkout_row` pointing at a `PLATFORM_*` entry, for example 208004 capture
 * above the authorized amount) is answered on S2S with that row, inside the S2S ERROR envelope
 * (`{result: "ERROR", http_code, error_code, error_message, errors[]}`). The interface's rows and
 * the Checkout-only swaps (merchant_key, hash) are left as they are.
 */
export function s2sForm(error: unknown): unknown {
  if (!(error instanceof GatewayError)) return error
  const swapped = error.row?.checkout_row
  if (!swapped?.startsWith('PLATFORM_') || error.row?.interface_row) return error
  return fail(swapped, error.detail)
}

/**
 * Runs an S2S action, answering the platform's catalogue rows where they apply. Synchronous, as
 * every operation is: its checks and writes are one unit of work (docs/architecture.md), and a
 * refusal must reach the gateway as a throw before the unit commits.
 */
export function withPlatformRows<T>(run: () => T): T {
  try {
    return run()
  } catch (error) {
    throw s2sForm(error)
  }
}
