import { type Secret, sha1, signingKey, upper } from './primitives.js'

/**
 * Checkout (JSON API): `sha1(md5(upper(FIELDS)))`, SHA1 over the hex MD5 string (docs/rules.md#signatures);
 * in SHA256 mode `sha1(sha256(upper(FIELDS)))`. The last field is the password, taken from `secret`.
 */
function sign(secret: Secret, ...fields: (string | undefined)[]): string {
  const key = signingKey(secret)
  return sha1(key.digest(upper([...fields, key.password].map((f) => f ?? '').join(''))))
}

/** The md5 form over fields given in full (the password among them, last). */
export const checkoutHash = (...fields: (string | undefined)[]): string => sign({ password: '' }, ...fields)

export interface Order {
  number?: string
  amount?: string
  currency?: string
  description?: string
}

export const checkoutSignatures = {
  /** session and session token */
  session: (order: Order, secret: Secret) =>
    sign(secret, order.number, order.amount, order.currency, order.description),
  /** capture and refund */
  amountOperation: (paymentId: string, amount: string | undefined, secret: Secret) =>
    sign(secret, paymentId, amount),
  /** void, retry, status by payment_id */
  paymentOperation: (paymentId: string, secret: Secret) => sign(secret, paymentId),
  statusByOrder: (orderId: string, secret: Secret) => sign(secret, orderId),
  recurring: (initTransId: string, recurringToken: string, order: Order, secret: Secret) =>
    sign(secret, initTransId, recurringToken, order.number, order.amount, order.description),
  credit: (
    body: { order_id?: string; order_amount?: string; order_currency?: string; order_description?: string },
    secret: Secret,
  ) => sign(secret, body.order_id, body.order_amount, body.order_currency, body.order_description),
  /** callback and redirect `hash` */
  notification: (paymentId: string, order: Order, secret: Secret) =>
    sign(secret, paymentId, order.number, order.amount, order.currency, order.description),
}
