import type { EngineContext, SandboxMerchant } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import type { Payment } from '../engine/model.js'

/**
 * The merchant's own S2S CARD payment by `trans_id`. Another merchant's payment, or one made
 * through another API, answers exactly as a missing one with the row of the action (Errors: "the
 * not-found code depends on the entity": CAPTURE and GET_TRANS_STATUS look up a transaction,
 * 101000; VOID and CREDITVOID a payment, 100000).
 */
export function loadPayment(
  ctx: EngineContext,
  merchant: SandboxMerchant,
  transId: string,
  notFound: string,
): Payment {
  const payment = ctx.store.get('payments', transId)
  if (!payment || payment.merchant_key !== merchant.key || payment.api !== 's2s-card') throw fail(notFound)
  return payment
}

/** The merchant's S2S CARD payments of an order, newest first (insertion order breaks ties). */
export function paymentsOfOrder(ctx: EngineContext, merchant: SandboxMerchant, orderId: string): Payment[] {
  const found = ctx.store
    .findBy('payments', 'order_id', orderId)
    .filter((p) => p.merchant_key === merchant.key && p.api === 's2s-card')
    .map((p, index) => ({ p, index }))
  found.sort((a, b) => b.p.created_at - a.p.created_at || b.index - a.index)
  return found.map(({ p }) => p)
}
