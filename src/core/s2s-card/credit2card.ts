import type { S2SCardCredit2CardRequest } from '../../generated/types.js'
import { S2S_CARD_FORMULAS } from '../signatures/formulas.js'
import { fail } from '../engine/errors.js'
import { isZeroAmount } from '../engine/format.js'
import { declareAction } from '../engine/pipeline.js'
import { luhnValid } from '../payments/card.js'
import { FieldProblems } from '../payments/field-errors.js'
import { commit } from '../payments/ledger.js'
import { applyOutcome } from '../payments/outcome.js'
import { findSavedCard } from '../payments/tokens.js'
import type { StoredCard } from '../engine/model.js'
import { recipientCard, recipientRefusal } from './card2card.js'
import { newS2sPayment, routeS2s } from './new-payment.js'
import { paymentAnswer } from './response.js'

/** The payee attributes a CREDIT2CARD keeps (optional, as sent). */
const PAYEE_FIELDS = [
  'payee_first_name',
  'payee_last_name',
  'payee_middle_name',
  'payee_birth_date',
  'payee_address',
  'payee_address2',
  'payee_country',
  'payee_state',
  'payee_city',
  'payee_zip',
  'payee_email',
  'payee_phone',
  'payer_first_name',
  'payer_last_name',
  'payer_email',
  'payer_phone',
  'payer_ip',
] as const

/**
 * CREDIT2CARD (docs/rules.md#beyond-the-interface): a payout to a card, `card_number` or a saved `card_token`,
 * signed with Formula 5 (docs/rules.md#signatures). The recipient is credited at once (SETTLED) unless the
 * simulated acquirer refuses it (docs/rules.md#test-cards: 4601541833776519 succeeds, 4601541833776527
 * is declined, in the answer and its callback alike). A payout
 * cannot be refunded or voided; its status lookups and callbacks are signed with Formula 6.
 */
export const credit2card = declareAction<S2SCardCredit2CardRequest>(
  {
    schema: 's2s-card/credit2card-request',
    pathStyle: 'bracket',
    credential: 'client_key',
    formula: S2S_CARD_FORMULAS.credit2card,
  },
  ({ ctx, input: request, merchant }) => {
    const problems = new FieldProblems()
    let card: StoredCard | undefined
    if (request.card_token !== undefined) {
      card = findSavedCard(ctx, merchant.key, request.card_token)?.card
      if (!card) problems.addRow('S2S_CARD_CARD_TOKEN_UNKNOWN')
    } else if (!luhnValid(request.card_number ?? '')) {
      problems.addRow('S2S_CARD_RECIPIENT_CARD_INVALID')
    } else {
      card = recipientCard(request.card_number ?? '')
    }
    problems.throwIfAny()
    if (isZeroAmount(request.order_amount)) throw fail('S2S_CARD_OPERATION_ZERO_AMOUNT')
    const mid = routeS2s(merchant, {
      auth: false,
      moto: false,
      zeroAmount: false,
      currency: request.order_currency,
    })
    const payee: Record<string, string> = {}
    for (const field of PAYEE_FIELDS) {
      const value = (request as Record<string, unknown>)[field]
      if (typeof value === 'string' && value !== '') payee[field] = value
    }
    const recipient = card as StoredCard
    const payment = newS2sPayment(ctx, merchant, mid, request, {
      action: 'CREDIT2CARD',
      operation: 'credit',
      held: false,
      card: recipient,
      payer: payee,
    })
    if (request.card_token !== undefined) payment.card_token = request.card_token
    const refusal = recipientRefusal(recipient)
    const outcome = refusal ? { kind: 'decline' as const, reason: refusal } : { kind: 'approve' as const }
    commit(ctx, payment, undefined, applyOutcome(ctx, payment, outcome, 'PAY'))
    return paymentAnswer(ctx, 'CREDIT2CARD', payment)
  },
)
