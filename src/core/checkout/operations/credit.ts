import type { CheckoutCreditRequest1, CheckoutCreditResponse1 } from '../../../generated/types.js'
import type { SandboxMerchant } from '../../engine/context.js'
import { fail } from '../../engine/errors.js'
import { currencyExponent, fromMinor, isZeroAmount } from '../../engine/format.js'
import { jsonResponse } from '../../engine/http.js'
import type { Payment } from '../../engine/model.js'
import { declareRoute } from '../../engine/pipeline.js'
import { checkoutSignatures } from '../../signatures/index.js'
import { applyCharge } from './charge.js'
import { chargeOutcome } from './charge-outcome.js'
import { now, orderRecord } from './common.js'

/** A MID that pays out in the currency with the card method (payment mode does not apply to payouts). */
function payoutMid(merchant: SandboxMerchant, currency: string) {
  const mid = merchant.mids.find(
    (m) =>
      (!m.currencies || (m.currencies as string[]).includes(currency)) &&
      (!m.methods || m.methods.includes('card')),
  )
  if (!mid) throw fail('ROUTING_NO_MID')
  return mid
}

/**
 * POST /api/v1/payment/card/credit: a payout to a saved card (`card_token`, the merchant's own).
 * payee_first_name and payee_last_name, when sent, replace the names stored with the token.
 */
export const credit = declareRoute<CheckoutCreditRequest1>({
  method: 'POST',
  path: '/api/v1/payment/card/credit',
  api: 'checkout',
  pipeline: {
    schema: 'checkout/credit-request',
    credential: 'merchant_key',
    signature: (request, merchant) => checkoutSignatures.credit(request, merchant.password),
  },
  handler: ({ input: request, merchant, ctx }) => {
    if (isZeroAmount(request.order_amount)) throw fail('CHECKOUT_OPERATION_ZERO_AMOUNT')
    const saved = ctx.store.get('cards', request.card_token)
    if (!saved || saved.merchant_key !== merchant.key) throw fail('CHECKOUT_CREDIT_CARD_TOKEN_UNKNOWN')
    const mid = payoutMid(merchant, request.order_currency)

    const at = ctx.clock.now()
    const zero = fromMinor(0n, currencyExponent(request.order_currency))
    const payee: Record<string, string> = {}
    const first = request.payee_first_name ?? saved.payee_first_name
    const last = request.payee_last_name ?? saved.payee_last_name
    if (first !== undefined) payee.payee_first_name = first
    if (last !== undefined) payee.payee_last_name = last
    const payment: Payment = {
      id: ctx.ids.uuid(),
      api: 'checkout',
      merchant_key: merchant.key,
      mid_id: mid.id,
      operation: 'credit',
      method: 'card',
      order_id: request.order_id,
      order: {
        number: request.order_id,
        amount: request.order_amount,
        currency: request.order_currency,
        description: request.order_description,
      },
      status: 'prepare',
      auth: false,
      amount_captured: zero,
      amount_refunded: zero,
      card: saved.card,
      card_token: saved.id,
      payer: payee,
      created_at: at,
      updated_at: at,
    }
    if (request.custom_data) payment.custom_data = request.custom_data
    applyCharge(ctx, payment, 'CHARGE', 'credit', chargeOutcome(saved.card, at), true)

    const answer: CheckoutCreditResponse1 = {
      payment_id: payment.id,
      status: payment.status,
      date: now(ctx),
      order: orderRecord(payment.order),
      ...(payment.decline_reason ? { reason: payment.decline_reason } : {}),
    }
    return jsonResponse(200, answer)
  },
})
