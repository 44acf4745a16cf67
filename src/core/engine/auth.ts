import { sameSignature } from '../signatures/index.js'
import type { EngineContext, SandboxMerchant } from './context.js'
import { fail } from './errors.js'

/**
 * The merchant named by `merchant_key` (Checkout) or `client_key` (S2S). An unknown key and a
 * wrong hash answer alike in shape, and neither changes any state.
 */
export function authenticate(ctx: EngineContext, key: unknown): SandboxMerchant {
  const merchant = ctx.merchant(key)
  if (!merchant) throw fail('AUTH_MERCHANT_UNKNOWN')
  return merchant
}

/** Checks a request's `hash` against the signature computed with the merchant's password. */
export function requireHash(given: unknown, expected: string): void {
  if (!sameSignature(expected, given)) throw fail('AUTH_HASH_INVALID')
}
