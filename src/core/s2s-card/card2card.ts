import type { S2SCardCard2CardRequest } from '../../generated/types.js'
import { authenticate } from '../engine/auth.js'
import { fail } from '../engine/errors.js'
import { isZeroAmount } from '../engine/format.js'
import { validated } from '../engine/request-validation.js'
import { luhnValid, toStoredCard } from '../payments/card.js'
import { authorizeCard } from '../payments/connector.js'
import { FieldProblems } from '../payments/field-errors.js'
import { commit } from '../payments/ledger.js'
import { applyOutcome } from '../payments/outcome.js'
import { startCardPayment } from '../payments/payer.js'
import type { S2sCardAction } from './action.js'
import { requireCard2CardHash } from './auth.js'
import { checkRequiredPayerFields, payerOf, type RequestCard, readCard } from './card-request.js'
import { newS2sPayment, routeS2s } from './new-payment.js'
import { paymentAnswer } from './response.js'

/**
 * (sandbox) The recipient of a transfer is credited unless the simulated acquirer refuses its
 * brand: decisions.md §4's recipient 4601541833776519 succeeds, as does any other valid card
 * number, and 1111222233334444 answers "Brand of card does not support.". It has no expiry in
 * the request, so it is read as a card that expires far ahead.
 */
function recipientRefusal(cardNumber2: string): string | undefined {
  const recipient = toStoredCard({ number: cardNumber2, expMonth: '01', expYear: '9999' })
  const answer = authorizeCard(recipient, { held: false, moto: true })
  return answer.kind === 'decline' ? answer.reason : undefined
}

/**
 * CARD2CARD: a transfer from the sender card (debited; its expiry month picks the outcome, 3DS
 * included) to the recipient `card_number2` (credited), signed over the password and the sender
 * card (decisions.md §1, sandbox). A payout: it cannot be refunded or voided later.
 */
export const card2card: S2sCardAction = ({ body, ctx }) => {
  const request = validated<S2SCardCard2CardRequest>('s2s-card/card2card-request', body, 'bracket')
  const merchant = authenticate(ctx, request.client_key)
  requireCard2CardHash(merchant, request.hash, request.card_number)
  const problems = new FieldProblems()
  // The sender is always a card number: a `card_token` sent along is not part of CARD2CARD.
  const { card_number, card_exp_month, card_exp_year } = request
  const sender = readCard(ctx, merchant, { card_number, card_exp_month, card_exp_year }, problems)
  if (!luhnValid(request.card_number2)) problems.addRow('S2S_CARD_RECIPIENT_CARD_INVALID')
  checkRequiredPayerFields(merchant, request, problems)
  problems.throwIfAny()
  if (isZeroAmount(request.order_amount)) throw fail('S2S_CARD_OPERATION_ZERO_AMOUNT')
  const mid = routeS2s(merchant, {
    auth: false,
    moto: false,
    zeroAmount: false,
    currency: request.order_currency,
  })

  const payment = newS2sPayment(ctx, merchant, mid, request, {
    action: 'CARD2CARD',
    operation: 'credit',
    held: false,
    card: (sender as RequestCard).card,
    payer: payerOf(request),
  })
  const refusal = recipientRefusal(request.card_number2)
  if (refusal)
    commit(ctx, payment, undefined, applyOutcome(ctx, payment, { kind: 'decline', reason: refusal }, 'PAY'))
  else startCardPayment(ctx, payment, { skipThreeDs: false })
  return paymentAnswer(ctx, 'CARD2CARD', payment)
}
