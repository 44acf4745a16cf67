import type { CheckoutCreditRequest1, CheckoutCreditResponse } from '../../../generated/types.js'
import { CHECKOUT_FORMULAS } from '../../signatures/formulas.js'
import { newPayment } from '../../payments/new-payment.js'
import { cardExpired, luhnValid, toStoredCard } from '../../payments/card.js'
import { FieldProblems } from '../../payments/field-errors.js'
import type { SandboxMerchant } from '../../engine/context.js'
import { fail } from '../../engine/errors.js'
import { isZeroAmount } from '../../engine/format.js'
import { jsonResponse } from '../../engine/http.js'
import { declareRoute } from '../../engine/pipeline.js'
import { applyCharge } from './charge.js'
import { chargeOutcome } from './charge-outcome.js'

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
    formula: CHECKOUT_FORMULAS.credit,
  },
  handler: ({ input: request, merchant, ctx }) => {
    if (isZeroAmount(request.order_amount)) throw fail('CHECKOUT_OPERATION_ZERO_AMOUNT')
    // docs/rules.md#card-credit: "Identify the card either by card_number or by a card_token".
    const saved = request.card_token !== undefined ? ctx.store.get('cards', request.card_token) : undefined
    if (request.card_token !== undefined && (!saved || saved.merchant_key !== merchant.key))
      throw fail('CHECKOUT_CREDIT_CARD_TOKEN_UNKNOWN')
    const card = saved?.card ?? enteredCard(request, ctx.clock.now())
    const mid = payoutMid(merchant, request.order_currency)

    const at = ctx.clock.now()
    const payee: Record<string, string> = {}
    const first = request.payee_first_name ?? saved?.payee_first_name
    const last = request.payee_last_name ?? saved?.payee_last_name
    if (first !== undefined) payee.payee_first_name = first
    if (last !== undefined) payee.payee_last_name = last
    const payment = newPayment(ctx, {
      api: 'checkout',
      merchant_key: merchant.key,
      mid_id: mid.id,
      operation: 'credit',
      method: 'card',
      order: {
        number: request.order_id,
        amount: request.order_amount,
        currency: request.order_currency,
        description: request.order_description,
      },
      auth: false,
      card,
      ...(saved ? { card_token: saved.id } : {}),
      payer: payee,
    })
    if (request.custom_data) payment.custom_data = request.custom_data
    applyCharge(ctx, payment, 'CHARGE', 'credit', chargeOutcome(card, at), true)

    // docs/rules.md#card-credit: "card credit: accepted only, the outcome comes as a `type=credit` callback".
    const answer: CheckoutCreditResponse = { payment_id: payment.id, result: 'accepted' }
    return jsonResponse(200, answer)
  },
})

/** A payout card given by number (no security code on a payout): the Luhn digit and the expiry. */
function enteredCard(request: CheckoutCreditRequest1, now: number) {
  const number = request.card_number ?? ''
  const month = request.card_exp_month ?? ''
  const year = request.card_exp_year ?? ''
  const problems = new FieldProblems()
  if (!luhnValid(number)) problems.addRow('CARD_NUMBER_INVALID')
  if (cardExpired(month, year, now)) problems.addRow('CARD_EXPIRED')
  problems.throwIfAny()
  return toStoredCard({
    number,
    expMonth: month,
    expYear: year,
    ...(request.card_holder ? { holder: request.card_holder } : {}),
  })
}
