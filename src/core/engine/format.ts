/** Small pure helpers every operation shares: dates, amounts, card masking, status spelling. */

/** `YYYY-MM-DD HH:MM:SS` in UTC (docs/rules.md#transport). */
export const formatDateTime = (ms: number): string =>
  new Date(ms).toISOString().slice(0, 19).replace('T', ' ')

/** `YYYY-MM-DD` in UTC: the financial day. */
export const formatDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

/** First 6 and last 4 digits, the rest masked: the only form a card number is ever stored or logged in. */
export function maskCard(cardNumber: string): string {
  const digits = cardNumber.replace(/\D/g, '')
  if (digits.length < 10) return '*'.repeat(digits.length)
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`
}

/** Checkout statuses are lowercase; S2S spells the same statuses in upper case, a decline as DECLINED. */
export function s2sStatus(status: string): string {
  return status === 'decline' ? 'DECLINED' : status.toUpperCase()
}

/**
 * Decimal amounts as exact integers of their smallest unit, so refunds add up without floating
 * point: `toMinor('10.5', 2)` is 1050n.
 */
export function toMinor(amount: string, exponent: number): bigint {
  const [whole = '0', fraction = ''] = amount.split('.')
  return BigInt(whole + fraction.padEnd(exponent, '0').slice(0, exponent))
}

export function fromMinor(minor: bigint, exponent: number): string {
  const negative = minor < 0n
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0')
  const whole = exponent ? digits.slice(0, -exponent) : digits
  const out = exponent ? `${whole}.${digits.slice(-exponent)}` : whole
  return negative ? `-${out}` : out
}

const ZERO = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'UYI',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
])
const THREE = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'])
const FOUR = new Set(['CLF', 'UYW'])

/** ISO 4217 minor unit of a currency (the same table as schemas/common.schema.json). */
export function currencyExponent(currency: string): number {
  const c = currency.toUpperCase()
  if (ZERO.has(c)) return 0
  if (THREE.has(c)) return 3
  if (FOUR.has(c)) return 4
  return 2
}

/** Whether an amount string is exactly zero (`0`, `0.00`). */
export const isZeroAmount = (amount: string): boolean => /^0+(\.0+)?$/.test(amount)
