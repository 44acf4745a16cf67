import type { CheckoutCreditRequest1, CheckoutCreditResponse } from '../../../generated/types.js'
import { CHECKOUT_FORMULAS } from '../../signatures/formulas.js'
import { newPayment } from '../../payments/new-payment.js'
import { cardExpired, luhnValid, toStoredCard } from '../../payments/card.js'
import { payoutDecline } from '../../payments/connector.js'
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
 * POST /api/v1/payment/card/credit: a payout to a saved card (`card_token`, the merchant's own) or
 * to a card number. payee_first_name and payee_last_name, when sent, replace the names stored
 * with the token. The answer only says the payout was accepted; a decline (the declining test
 * recipient, docs/rules.md#test-cards) comes as its `type=credit` callback.
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
    checkCardIdentification(request)
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
    // docs/rules.md#test-cards: the declining test recipient declines whatever its expiry (a saved
    // card's token included); any other card follows the month rules of an immediate sale.
    const declined = payoutDecline(card)
    const outcome = declined ? { outcome: 'declined' as const, reason: declined } : chargeOutcome(card, at)
    applyCharge(ctx, payment, 'CHARGE', 'credit', outcome, true)

    // docs/rules.md#card-credit: "card credit: accepted only, the outcome comes as a `type=credit` callback".
    const answer: CheckoutCreditResponse = { payment_id: payment.id, result: 'accepted' }
    return jsonResponse(200, answer)
  },
})

/** The platform's sentence (docs/rules.md#card-credit), and what the sandbox adds when both came. */
export const CREDIT_CARD_MESSAGES = {
  neither: 'Identify the card either by card_number or by a card_token.',
  both: 'Identify the card either by card_number or by a card_token, not both.',
  expiryWithToken: 'This value belongs to card_number: a card_token carries the expiry of its card.',
  expiryHalf: (other: string) => `This value should not be blank when ${other} is sent.`,
} as const

/**
 * docs/rules.md#card-credit: "Identify the card either by card_number or by a card_token": one of
 * the two; with card_number the expiry is taken when sent (month and year together), and a payout
 * by card number alone is valid. Each message names what was actually wrong.
 */
function checkCardIdentification(request: CheckoutCreditRequest1): void {
  const problems = new FieldProblems()
  const item = (path: string, message: string) =>
    problems.addSchemaErrors([
      { path, message, section: 'Endpoints', keyword: 'x-card-credit', rule: 'card-credit' },
    ])
  const byToken = request.card_token !== undefined
  const byNumber = request.card_number !== undefined
  if (!byToken && !byNumber) item('', CREDIT_CARD_MESSAGES.neither)
  else if (byToken && byNumber) item('', CREDIT_CARD_MESSAGES.both)
  else if (byToken) {
    for (const field of ['card_exp_month', 'card_exp_year'] as const)
      if (request[field] !== undefined) item(field, CREDIT_CARD_MESSAGES.expiryWithToken)
  } else if ((request.card_exp_month === undefined) !== (request.card_exp_year === undefined)) {
    if (request.card_exp_month === undefined)
      item('card_exp_month', CREDIT_CARD_MESSAGES.expiryHalf('card_exp_year'))
    else item('card_exp_year', CREDIT_CARD_MESSAGES.expiryHalf('card_exp_month'))
  }
  problems.throwIfAny()
}

/**
 * A payout card given by number (no security code on a payout): the Luhn digit, and the expiry
 * when it was sent. Without one the card has no expiry: its outcome is the number's (the
 * platform's payout test card 4601541833776519 succeeds, the sandbox's 4601541833776527 declines,
 * docs/rules.md#test-cards).
 */
function enteredCard(request: CheckoutCreditRequest1, now: number) {
  const number = request.card_number ?? ''
  const month = request.card_exp_month ?? ''
  const year = request.card_exp_year ?? ''
  const problems = new FieldProblems()
  if (!luhnValid(number)) problems.addRow('CARD_NUMBER_INVALID')
  if (month && year && cardExpired(month, year, now)) problems.addRow('CARD_EXPIRED')
  problems.throwIfAny()
  return toStoredCard({
    number,
    expMonth: month,
    expYear: year,
    ...(request.card_holder ? { holder: request.card_holder } : {}),
  })
}
