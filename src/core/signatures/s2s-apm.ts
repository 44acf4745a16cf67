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

/** The callback formula's joined values: each reversed (`reverse`), keys sorted at each level (`sort`). */
function flatten(value: FormValue, { sort = true, reverse = true } = {}): string {
  if (typeof value === 'string') return reverse ? rev(value) : value
  const each = (v: FormValue) => flatten(v, { sort, reverse })
  if (Array.isArray(value)) return value.map(each).join('')
  const keys = Object.keys(value)
  return (sort ? keys.sort() : keys).map((k) => each(value[k] as FormValue)).join('')
}

/** A wrong way of computing the callback signature, named for what it gets wrong. */
export interface CallbackMistake {
  name: string
  sign: (body: Record<string, FormValue>, secret: Secret) => string
}

const withoutHash = (body: Record<string, FormValue>): Record<string, FormValue> => {
  const { hash: _ignored, ...rest } = body
  return rest
}

/** The callback formula with the values joined as `join` does and the password as `pass` gives it. */
const callbackVariant =
  (join: (rest: Record<string, FormValue>) => string, pass: (password: string) => string = upper) =>
  (body: Record<string, FormValue>, secret: Secret) => {
    const { password, digest } = signingKey(secret)
    return digest(upper(join(withoutHash(body))) + pass(password))
  }

/** A form value without its empty strings (at every level). */
function dropEmpty(value: FormValue): FormValue {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.filter((v) => v !== '').map(dropEmpty)
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== '')
      .map(([k, v]) => [k, dropEmpty(v)]),
  )
}

/**
 * Mistakes merchants make computing the S2S APM callback signature (every field but `hash`, keys
 * sorted, values reversed, upper-cased, + upper(password)): none is a formula of the platform's.
 * The conformance kit re-sends a callback the merchant refused, signed right, with each of these
 * hashes in turn, and names the one the merchant acknowledges (docs/conformance.md, Cause first).
 * The likeliest first: the password appended as it is (the formula before its change).
 */
export const s2sApmCallbackMistakes: CallbackMistake[] = [
  /** md5(upper(values) + password): the password not upper-cased (the formula before its change). */
  { name: 'with the password appended as it is, not upper-cased', sign: callbackVariant(flatten, (p) => p) },
  /** The formula over every field but `creditvoid_id` (which it covers: Authentication 6). */
  {
    name: 'without creditvoid_id',
    sign: callbackVariant(({ creditvoid_id: _left, ...rest }) => flatten(rest)),
  },
  /** The values in the order the form sent them, keys not sorted. */
  {
    name: 'with the fields in the order sent, keys not sorted',
    sign: callbackVariant((r) => flatten(r, { sort: false })),
  },
  /** The values joined as they are, not each reversed. */
  { name: 'with the values not reversed', sign: callbackVariant((r) => flatten(r, { reverse: false })) },
  /** The formula over the non-empty fields only (ARN and RRN are sent empty). */
  { name: 'without the empty fields', sign: callbackVariant((r) => flatten(dropEmpty(r))) },
]
