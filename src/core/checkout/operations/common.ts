import type { CheckoutOrderRecord } from '../../../generated/types.js'
import type { EngineContext, SandboxMerchant } from '../../engine/context.js'
import { fail } from '../../engine/errors.js'
import { formatDateTime } from '../../engine/format.js'
import type { OrderData, Payment } from '../../engine/model.js'

/** Steps every follow-up operation shares: load the merchant's own payment, check an amount, refuse a move. */

/**
 * The merchant's own Checkout payment. Another merchant's payment, or one made through S2S, answers
 * exactly as a missing one, so payment ids cannot be probed across merchants or APIs.
 */
export function loadPayment(
  ctx: EngineContext,
  merchant: SandboxMerchant,
  id: string,
  notFound: string,
): Payment {
  const payment = ctx.store.get('payments', id)
  if (!payment || payment.merchant_key !== merchant.key || payment.api !== 'checkout') throw fail(notFound)
  return payment
}

/** `order` as void, recurring, credit and status answers return it. */
export const orderRecord = (order: OrderData): CheckoutOrderRecord => ({
  number: order.number,
  amount: order.amount,
  currency: order.currency as CheckoutOrderRecord['currency'],
  description: order.description,
})

export const now = (ctx: EngineContext): string => formatDateTime(ctx.clock.now())
