import { reportedStatus } from '../payments/reported-status.js'
import { formatDateTime } from '../engine/format.js'
import { checkoutSignatures } from '../signatures/index.js'
import type { BuiltCallback, CallbackInput } from './callback.js'
import { customerIp } from './facts.js'
import { compact, flattenForm } from './form.js'
import { checkoutType } from './kinds.js'
import {
  alwaysFields,
  cardFields,
  checkoutCustomerFields,
  mappedCardFields,
  mappedFields,
} from './mapping.js'

/** Sent even when empty: `ARN` ("sent empty when missing") with `RRN`, and the always-sent description. */
const KEEP_EMPTY = new Set(['ARN', 'RRN', 'order_description'])

/** (sandbox) A payment whose payer IP was never recorded: the sandbox runs on the merchant's machine. */
const UNKNOWN_IP = '127.0.0.1'

/**
 * Checkout callback (schemas/callbacks/checkout-callback.schema.json). Always sent (
 * docs/rules.md#callbacks): id, order_number, order_amount, order_currency, order_description, order_status, type,
 * status, customer_ip, hash; `order_status` is the payment's status after the transaction.
 */
export function buildCheckoutCallback({ facts, transaction: tx, kind }: CallbackInput): BuiltCallback {
  const { payment, merchant } = facts
  const type = checkoutType(payment, kind)
  const body = compact(
    {
      id: payment.id,
      order_number: payment.order.number,
      order_amount: payment.order.amount,
      order_currency: payment.order.currency,
      order_description: payment.order.description ?? '',
      // docs/rules.md#partial-refunds: the merchant's choice after a partial refund.
      order_status: reportedStatus(payment, merchant),
      type,
      // docs/rules.md#callbacks: "`status` on `type=3ds` and `type=redirect` callbacks is `success` (or
      // `undefined`), never `waiting`".
      status: (type === '3ds' || type === 'redirect') && tx.status === 'waiting' ? 'success' : tx.status,
      trans_id: tx.id,
      date: formatDateTime(tx.created_at),
      reason: tx.status === 'fail' ? (tx.decline_reason ?? payment.decline_reason) : undefined,
      customer_ip: customerIp(facts) ?? UNKNOWN_IP,
      ...checkoutCustomerFields(facts),
      ...cardFields(facts, 'checkout'),
      ...mappedFields(facts, tx, 'checkout'),
      ...mappedCardFields(facts),
      ...alwaysFields(facts, tx, 'checkout'),
    },
    KEEP_EMPTY,
  )
  // docs/rules.md#checkout-signatures: "callback and redirect `hash` | payment_id + order.number + order.amount + order.currency + order.description + password"
  body.hash = checkoutSignatures.notification(payment.id, payment.order, merchant.password)
  return { kind: type, body, fields: flattenForm(body) }
}
