import type { CheckoutOrderRecord } from '../../../generated/types.js'
import { CHECKOUT_FORMULAS } from '../../signatures/formulas.js'
import type { EngineContext, SandboxMerchant } from '../../engine/context.js'
import { fail } from '../../engine/errors.js'
import { formatDateTime } from '../../engine/format.js'
import type { OrderData, Payment } from '../../engine/model.js'
import type { Pipeline } from '../../engine/pipeline.js'

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

type PaymentRequest = { merchant_key: string; payment_id: string; amount?: string }

/**
 * The pipeline of a follow-up on one payment (capture, refund: signed over payment_id + amount;
 * void, retry: over payment_id), loading the merchant's own payment or CHECKOUT_PAYMENT_NOT_FOUND.
 */
export function paymentPipeline<I extends PaymentRequest>(
  schema: string,
  signed: 'with amount' | 'payment_id only',
): Pipeline<I, Payment> {
  return {
    schema,
    credential: 'merchant_key',
    formula:
      signed === 'with amount' ? CHECKOUT_FORMULAS.amountOperation : CHECKOUT_FORMULAS.paymentOperation,
    load: (ctx, request, merchant) =>
      loadPayment(ctx, merchant, request.payment_id, 'CHECKOUT_PAYMENT_NOT_FOUND'),
  }
}
