import { fail, invalid } from '../engine/errors.js'
import { currencyExponent, isZeroAmount, toMinor } from '../engine/format.js'
import { SCHEMA_BASE, validate } from '../validation/index.js'

const AMOUNT_MATCHES_CURRENCY = `${SCHEMA_BASE}common.schema.json#/$defs/AmountMatchesCurrency`

/**
 * An amount sent without its currency (CAPTURE, CREDITVOID, a secondary recurring payment) must
 * carry exactly the decimals of the payment's currency and be above zero (2.1.1: zero only on an
 * authorization or a recurring initialization). Answers minor units, or undefined when not sent.
 */
export function checkedAmount(
  amount: string | undefined,
  currency: string,
  field: string,
): bigint | undefined {
  if (amount === undefined) return undefined
  const result = validate(AMOUNT_MATCHES_CURRENCY, { amount, currency })
  if (!result.valid) throw invalid(result.errors.map((e) => ({ ...e, path: field })))
  if (isZeroAmount(amount)) throw fail('S2S_CARD_OPERATION_ZERO_AMOUNT')
  return toMinor(amount, currencyExponent(currency))
}
