import { maskCard } from '../engine/format.js'
import type { StoredCard } from '../engine/model.js'

/** 2.5: these `moto_type` values make the security code optional and skip the MPI (3DS) service. */
const MOTO_VALUES = new Set(['phone_moto', 'email_moto', 'default_moto'])

export const isMotoType = (motoType: unknown): boolean =>
  typeof motoType === 'string' && MOTO_VALUES.has(motoType)

/** The check digit every real card number carries; test cards of docs/rules.md#test-data all pass it. */
export function luhnValid(cardNumber: string): boolean {
  if (!/^[0-9]{12,19}$/.test(cardNumber)) return false
  let sum = 0
  for (let i = 0; i < cardNumber.length; i++) {
    let digit = Number(cardNumber[cardNumber.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

/** The scheme by its number ranges; `unknown` for anything else (such numbers still work in the sandbox). */
export function cardBrand(cardNumber: string): string {
  const two = Number(cardNumber.slice(0, 2))
  const four = Number(cardNumber.slice(0, 4))
  if (cardNumber.startsWith('4')) return 'visa'
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard'
  if (two === 34 || two === 37) return 'amex'
  if (cardNumber.startsWith('6011') || cardNumber.startsWith('65')) return 'discover'
  if (two === 35) return 'jcb'
  return 'unknown'
}

/** A card is good through the last day of its expiry month (UTC, on the sandbox clock). */
export function cardExpired(expMonth: string, expYear: string, nowMs: number): boolean {
  const now = new Date(nowMs)
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth()
  return Number(expYear) * 12 + (Number(expMonth) - 1) < current
}

/** The only form in which an entered card reaches the store: masked, never the full number or the code. */
export function toStoredCard(entry: {
  number: string
  expMonth: string
  expYear: string
  holder?: string
}): StoredCard {
  return {
    masked: maskCard(entry.number),
    bin: entry.number.slice(0, 6),
    last4: entry.number.slice(-4),
    brand: cardBrand(entry.number),
    exp_month: entry.expMonth,
    exp_year: entry.expYear,
    ...(entry.holder ? { holder: entry.holder } : {}),
  }
}
