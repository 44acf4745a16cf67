import type { CheckoutOrderRecord } from '../../../generated/types.js'
import type { EngineContext, SandboxMerchant } from '../../engine/context.js'
import { fail, invalid } from '../../engine/errors.js'
import { currencyExponent, formatDateTime, isZeroAmount, toMinor } from '../../engine/format.js'
import type { OrderData, Payment } from '../../engine/model.js'
import { SCHEMA_BASE, validate } from '../../validation/index.js'

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

const AMOUNT_MATCHES_CURRENCY = `${SCHEMA_BASE}common.schema.json#/$defs/AmountMatchesCurrency`

/**
 * An amount sent without its currency (capture, refund, a recurring order without `currency`)
 * must carry exactly the decimals of the currency it is charged in, and be above zero. The
 * messages are the schema's own (common AmountMatchesCurrency), at the field the merchant sent.
 * Returns the amount in minor units, or undefined when it was not sent.
 */
export function checkedAmount(
  amount: string | undefined,
  currency: string,
  field: string,
): bigint | undefined {
  if (amount === undefined) return undefined
  const result = validate(AMOUNT_MATCHES_CURRENCY, { amount, currency })
  if (!result.valid) throw invalid(result.errors.map((e) => ({ ...e, path: field })))
  if (isZeroAmount(amount)) throw fail('CHECKOUT_OPERATION_ZERO_AMOUNT')
  return toMinor(amount, currencyExponent(currency))
}

/** `order` as void, recurring, credit and status answers return it. */
export const orderRecord = (order: OrderData): CheckoutOrderRecord => ({
  number: order.number,
  amount: order.amount,
  currency: order.currency as CheckoutOrderRecord['currency'],
  description: order.description,
})

export const now = (ctx: EngineContext): string => formatDateTime(ctx.clock.now())
