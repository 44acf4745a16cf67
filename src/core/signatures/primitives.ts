import { createHash } from 'node:crypto'

/** Any character outside ASCII (a surrogate half of an astral one included). */
const NON_ASCII = /[\u0080-\uffff]/

/** Upper-cases ASCII a-z only (docs/rules.md#signatures): other characters are left as they are. */
export const upper = (s: string): string =>
  // A run of a-z is ASCII, which toUpperCase maps letter for letter; the rest is kept as it is.
  !NON_ASCII.test(s) ? s.toUpperCase() : s.replace(/[a-z]+/g, (run) => run.toUpperCase())

/** Reverses a string by code point. */
export const rev = (s: string): string => Array.from(s).reverse().join('')

export const md5 = (s: string): string => createHash('md5').update(s, 'utf8').digest('hex')
export const sha1 = (s: string): string => createHash('sha1').update(s, 'utf8').digest('hex')
export const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex')

/** First six and last four digits of a card number: the only part of it a signature uses. */
export const cardDigits = (cardNumber: string): string => {
  const digits = cardNumber.replace(/\D/g, '')
  return digits.slice(0, 6) + digits.slice(-4)
}

/**
 * What signs: the merchant's password, and whether its Protocol Mapping enables SHA256 mode
 * (docs/rules.md#sha256: "every `md5` above replaced by `sha256`", requests and callbacks alike).
 * A plain string is a password in the default (md5) mode; a configured merchant can be passed as
 * it is (`protocol_mapping.use_sha256`); a library user writes `{ password, sha256: true }`.
 */
export type Secret =
  | string
  | {
      password: string
      sha256?: boolean | undefined
      protocol_mapping?: { use_sha256?: boolean | undefined } | null | undefined
      /** The digest itself, for a caller that inspects a formula (the kit's hash diagnosis); the gateway never passes one. */
      digest?: ((text: string) => string) | undefined
    }

export interface SigningKey {
  password: string
  /** The digest every formula's `md5` stands for: md5, or sha256 in SHA256 mode. */
  digest: (s: string) => string
}

export function signingKey(secret: Secret): SigningKey {
  if (typeof secret === 'string') return { password: secret, digest: md5 }
  if (secret.digest) return { password: secret.password, digest: secret.digest }
  const sha = secret.sha256 === true || secret.protocol_mapping?.use_sha256 === true
  return { password: secret.password, digest: sha ? sha256 : md5 }
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
