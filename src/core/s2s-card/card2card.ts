import type { S2SCardCard2CardRequest } from '../../generated/types.js'
import { S2S_CARD_FORMULAS } from '../signatures/formulas.js'
import { fail } from '../engine/errors.js'
import { isZeroAmount } from '../engine/format.js'
import type { StoredCard } from '../engine/model.js'
import { declareAction } from '../engine/pipeline.js'
import { validated } from '../engine/request-validation.js'
import { luhnValid, toStoredCard } from '../payments/card.js'
import { authorizeCard, payoutDecline } from '../payments/connector.js'
import { FieldProblems } from '../payments/field-errors.js'
import { commit } from '../payments/ledger.js'
import { applyOutcome } from '../payments/outcome.js'
import { startCardPayment } from '../payments/payer.js'
import { checkRequiredPayerFields, payerOf, type RequestCard, readCard } from './card-request.js'
import { newS2sPayment, routeS2s } from './new-payment.js'
import { paymentAnswer } from './response.js'

/**
 * (sandbox) The recipient of a transfer or payout is credited unless the simulated acquirer
 * refuses it: docs/rules.md#test-data's recipient 4601541833776519 succeeds, as does any other
 * valid card number, 4601541833776527 is declined ("Declined by processing."), and
 * 1111222233334444 answers "Brand of card does not support.". It has no expiry in the request,
 * so it is read as a card that expires far ahead.
 */
export function recipientRefusal(recipient: StoredCard): string | undefined {
  const declined = payoutDecline(recipient)
  if (declined) return declined
  const answer = authorizeCard(
    { ...recipient, exp_month: '01', exp_year: '9999' },
    { held: false, moto: true },
  )
  return answer.kind === 'decline' ? answer.reason : undefined
}

/** A recipient known only by its number. */
export const recipientCard = (number: string): StoredCard =>
  toStoredCard({ number, expMonth: '', expYear: '' })

/** The sandbox's earlier CARD2CARD names, read as aliases of the platform's (S2S CARD 5.6.2). */
const ALIASES: Record<string, string> = {
  card_number: 'payer_card_number',
  card_exp_month: 'payer_card_exp_month',
  card_exp_year: 'payer_card_exp_year',
  card_cvv2: 'payer_card_cvv2',
  card_number2: 'payee_card_number',
}

function platformNames(body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body }
  for (const [old, name] of Object.entries(ALIASES)) {
    if (out[old] === undefined) continue
    if (out[name] === undefined) out[name] = out[old]
    delete out[old]
  }
  return out
}

/**
 * CARD2CARD: a transfer from the payer's card (debited; its expiry month picks the outcome, 3DS
 * included) to the payee's card (credited), with the platform's fields (`payer_card_number`,
 * `payer_card_exp_month`, `payer_card_exp_year`, `payer_card_cvv2`, `payee_card_number`) and
 * Formula 1 over the payer's e-mail (when sent) and card (docs/rules.md#signatures). A payout: it cannot be
 * refunded or voided later.
 */
export const card2card = declareAction<S2SCardCard2CardRequest>(
  {
    schema: 's2s-card/card2card-request',
    validate: (body) =>
      validated<S2SCardCard2CardRequest>('s2s-card/card2card-request', platformNames(body), 'bracket'),
    pathStyle: 'bracket',
    credential: 'client_key',
    formula: S2S_CARD_FORMULAS.card2card,
  },
  ({ ctx, input: request, merchant }) => {
    const problems = new FieldProblems()
    const sender = readCard(
      ctx,
      merchant,
      {
        card_number: request.payer_card_number,
        card_exp_month: request.payer_card_exp_month,
        card_exp_year: request.payer_card_exp_year,
      },
      problems,
    )
    if (!luhnValid(request.payee_card_number)) problems.addRow('S2S_CARD_RECIPIENT_CARD_INVALID')
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
    const refusal = recipientRefusal(recipientCard(request.payee_card_number))
    if (refusal)
      commit(ctx, payment, undefined, applyOutcome(ctx, payment, { kind: 'decline', reason: refusal }, 'PAY'))
    else startCardPayment(ctx, payment, { skipThreeDs: false })
    return paymentAnswer(ctx, 'CARD2CARD', payment)
  },
)
