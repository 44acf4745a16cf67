import type { EngineContext } from '../engine/context.js'
import type { Payment } from '../engine/model.js'
import { zeroAmount } from './ledger.js'

/** What a new payment is made of: everything but what the constructor sets itself. */
export type NewPaymentFields<P extends Payment = Payment> = Omit<
  P,
  'id' | 'order_id' | 'status' | 'amount_captured' | 'amount_refunded' | 'created_at' | 'updated_at'
>

/**
 * The one constructor of a new payment record (Checkout card and APM payments, card credits,
 * Checkout and S2S recurring charges, S2S CARD and S2S APM payments): a fresh id, `order_id`
 * copied from `order.number` (the index), status `prepare` (the state table's start: every status
 * after it goes through `transition()`), nothing captured or refunded in the order's currency,
 * created and updated now. Optional fields left undefined are not written.
 */
export function newPayment<P extends Payment = Payment>(ctx: EngineContext, fields: NewPaymentFields<P>): P {
  const now = ctx.clock.now()
  const zero = zeroAmount(fields.order.currency)
  const { api, merchant_key, mid_id, session_id, operation, method, order, auth, ...rest } =
    fields as NewPaymentFields
  const payment: Record<string, unknown> = {
    id: ctx.ids.uuid(),
    api,
    merchant_key,
    mid_id,
    ...(session_id !== undefined ? { session_id } : {}),
    operation,
    method,
    order_id: order.number,
    order,
    status: 'prepare',
    auth,
    amount_captured: zero,
    amount_refunded: zero,
  }
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) payment[key] = value
  payment.created_at = now
  payment.updated_at = now
  return payment as P
}
