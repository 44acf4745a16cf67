import { rev, type Secret, signingKey, upper } from './primitives.js'

export type FormValue = string | { [key: string]: FormValue } | FormValue[]

/**
 * S2S APM signatures (docs/rules.md#signatures; CAPTURE/VOID/GET_TRANS_STATUS as in the interface's
 * Authentication 3). No outer sha1; `md5` is sha256 in SHA256 mode. An optional field not sent
 * (identifier, a crypto payout's order_amount) drops out: pass undefined.
 */
export const s2sApmSignatures = {
  /** SALE, DEBIT2VIRTUAL, DEBIT2VIRTUAL_CALC: md5(upper(rev(identifier + order_id + order_amount + order_currency + password))). */
  payment: (
    identifier: string | undefined,
    orderId: string,
    amount: string | undefined,
    currency: string,
    secret: Secret,
  ) => {
    const { password, digest } = signingKey(secret)
    return digest(upper(rev((identifier ?? '') + orderId + (amount ?? '') + currency + password)))
  },
  /** CREDITVOID: md5(upper(rev(trans_id + password))). */
  creditvoid: (transId: string, secret: Secret) => {
    const { password, digest } = signingKey(secret)
    return digest(upper(rev(transId + password)))
  },
  /** CAPTURE, VOID, GET_TRANS_STATUS, DEBIT2VIRTUAL_COMPLETE: md5(upper(rev(trans_id)) + password). */
  transaction: (transId: string, secret: Secret) => {
    const { password, digest } = signingKey(secret)
    return digest(upper(rev(transId)) + password)
  },
  /** CREDIT2VIRTUAL, CREDIT2CRYPTO: md5(upper(rev(order_id + order_amount + order_currency)) + password). */
  credit2virtual: (orderId: string, amount: string | undefined, currency: string, secret: Secret) => {
    const { password, digest } = signingKey(secret)
    return digest(upper(rev(orderId + (amount ?? '') + currency)) + password)
  },
  /**
   * Callbacks: every field but `hash`, keys sorted at each level, each value reversed
   * (recursively), joined, upper-cased, then the password UPPER-CASED appended:
   * md5(upper(values) + upper(password)) (docs/rules.md#signatures).
   */
  callback: (body: Record<string, FormValue>, secret: Secret) => {
    const { password, digest } = signingKey(secret)
    const { hash: _ignored, ...rest } = body
    return digest(upper(flatten(rest)) + upper(password))
  },
  /** CREDIT2VIRTUAL and CREDIT2CRYPTO callbacks: md5(upper(rev(trans_id + order_id + status)) + password). */
  credit2virtualCallback: (transId: string, orderId: string, status: string, secret: Secret) => {
    const { password, digest } = signingKey(secret)
    return digest(upper(rev(transId + orderId + status)) + password)
  },
}

function flatten(value: FormValue): string {
  if (typeof value === 'string') return rev(value)
  if (Array.isArray(value)) return value.map(flatten).join('')
  return Object.keys(value)
    .sort()
    .map((k) => flatten(value[k] as FormValue))
    .join('')
}
