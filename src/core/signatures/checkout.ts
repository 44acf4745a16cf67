import { md5, sha1, upper } from './primitives.js'

/** Checkout (JSON API): `sha1(md5(upper(FIELDS)))`, SHA1 over the hex MD5 string (decisions.md §1). */
export const checkoutHash = (...fields: (string | undefined)[]): string =>
  sha1(md5(upper(fields.map((f) => f ?? '').join(''))))

interface Order {
  number?: string
  amount?: string
  currency?: string
  description?: string
}

export const checkoutSignatures = {
  /** session and session token */
  session: (order: Order, password: string) =>
    checkoutHash(order.number, order.amount, order.currency, order.description, password),
  /** capture and refund */
  amountOperation: (paymentId: string, amount: string | undefined, password: string) =>
    checkoutHash(paymentId, amount, password),
  /** void, retry, status by payment_id */
  paymentOperation: (paymentId: string, password: string) => checkoutHash(paymentId, password),
  statusByOrder: (orderId: string, password: string) => checkoutHash(orderId, password),
  recurring: (initTransId: string, recurringToken: string, order: Order, password: string) =>
    checkoutHash(initTransId, recurringToken, order.number, order.amount, order.description, password),
  credit: (
    body: { order_id?: string; order_amount?: string; order_currency?: string; order_description?: string },
    password: string,
  ) => checkoutHash(body.order_id, body.order_amount, body.order_currency, body.order_description, password),
  /** callback and redirect `hash` */
  notification: (paymentId: string, order: Order, password: string) =>
    checkoutHash(paymentId, order.number, order.amount, order.currency, order.description, password),
}
