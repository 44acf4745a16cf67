import { currencyExponent } from '../engine/format.js'

/**
 * docs/rules.md#amounts, from the platform's documents (Checkout 6.6.2 `order.amount`, S2S CARD
 * `order_amount`, S2S APM `order_amount`): "XX.XX" for exponent 2, "XXX.XXX" for 3, "XXX.XXXX"
 * for 4, an integer for exponent 0, except "currencies 'UGX', 'JPY', 'KRW', 'CLP' must be send in
 * the format XX.XX, with the zeros after comma. Example: 100.00".
 */
export const DOUBLE_ZERO_CURRENCIES: ReadonlySet<string> = new Set(['UGX', 'JPY', 'KRW', 'CLP'])

/** How many decimals the platform documents for a currency (2 for UGX, JPY, KRW, CLP). */
export function documentedDecimals(currency: string): number {
  return DOUBLE_ZERO_CURRENCIES.has(currency.toUpperCase()) ? 2 : currencyExponent(currency)
}

/** An example of the documented form: `100.00`, `100`, `100.000`. */
export function documentedExample(currency: string): string {
  const decimals = documentedDecimals(currency)
  return decimals ? `100.${'0'.repeat(decimals)}` : '100'
}

export type AmountForm =
  /** Exactly as documented. */
  | { kind: 'documented' }
  /** A form the platform may accept (`25`, `25.5` for USD; `1000` for JPY): served with a warning. */
  | { kind: 'lenient'; documented: string }
  /** Not an amount of this currency (more decimals than its minor unit): refused. */
  | { kind: 'invalid'; message: string }

const MESSAGES: Record<number, string> = {
  0: 'This value is not valid. This currency has no decimals: send an integer, for example 100.',
  2: 'This value is not valid. This currency has 2 decimals: send them with a dot, for example 100.00.',
  3: 'This value is not valid. This currency has 3 decimals: send them with a dot, for example 100.000.',
  4: 'This value is not valid. This currency has 4 decimals: send them with a dot, for example 100.0000.',
}

/** The message for an amount that carries more decimals than its currency has. */
export function amountMessage(currency: string): string {
  const c = currency.toUpperCase()
  if (DOUBLE_ZERO_CURRENCIES.has(c))
    return `This value is not valid. ${c} has no minor unit: send the amount with two zero decimals, for example 100.00.`
  return MESSAGES[currencyExponent(c)] ?? MESSAGES[2] ?? ''
}

/**
 * Classifies an amount string against its currency. Strings that are not decimal numbers at all
 * are left to the schema's own pattern (answered `documented` here so no second message appears).
 */
export function amountForm(amount: string, currency: string): AmountForm {
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(amount)
  if (!match) return { kind: 'documented' }
  const fraction = match[2] ?? ''
  const exponent = currencyExponent(currency)
  const decimals = documentedDecimals(currency)
  const significant = fraction.replace(/0+$/, '')
  if (significant.length > exponent) return { kind: 'invalid', message: amountMessage(currency) }
  if (fraction.length === decimals) return { kind: 'documented' }
  return {
    kind: 'lenient',
    documented: `${decimals ? `${decimals} decimals` : 'an integer'} for ${currency.toUpperCase()}, for example ${documentedExample(currency)}`,
  }
}
