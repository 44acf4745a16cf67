import { createHash } from 'node:crypto'

/** Upper-cases ASCII a-z only (decisions.md §1): other characters are left as they are. */
export const upper = (s: string): string =>
  s.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32))

/** Reverses a string by code point. */
export const rev = (s: string): string => Array.from(s).reverse().join('')

export const md5 = (s: string): string => createHash('md5').update(s, 'utf8').digest('hex')
export const sha1 = (s: string): string => createHash('sha1').update(s, 'utf8').digest('hex')

/** First six and last four digits of a card number: the only part of it a signature uses. */
export const cardDigits = (cardNumber: string): string => {
  const digits = cardNumber.replace(/\D/g, '')
  return digits.slice(0, 6) + digits.slice(-4)
}

/** Constant-time comparison of two hex signatures (case-insensitive). */
export function sameSignature(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false
  const a = Buffer.from(expected.toLowerCase())
  const b = Buffer.from(given.toLowerCase())
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number)
  return diff === 0
}
