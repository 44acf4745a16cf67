import type { OriginalPayment, SigningFormula } from '../signatures/formulas.js'
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

/**
 * Checks a request's `hash` against its declared formula computed with the merchant's password.
 * A wrong hash names the formula and the inputs it was computed over (docs/rules.md#rule-book),
 * never their values or the password.
 */
export function requireHash(
  given: unknown,
  formula: SigningFormula,
  fields: Record<string, unknown>,
  merchant: SandboxMerchant,
  original?: OriginalPayment,
): void {
  if (sameSignature(formula.sign(fields, merchant, original), given)) return
  throw fail('AUTH_HASH_INVALID', {
    rule: formula.rule,
    fields: ['hash'],
    formula: formula.id,
    inputs: formula.inputs(fields, original),
  })
}
