import type { CheckoutHostedFieldsCardPayment } from '../../generated/types.js'
import { sessionRequest } from '../checkout/session-access.js'
import type { EngineContext } from '../engine/context.js'
import type { SavedCard, Session, StoredCard } from '../engine/model.js'
import { validate } from '../validation/index.js'
import { cardExpired, isMotoType, luhnValid, toStoredCard } from './card.js'
import { FieldProblems } from './field-errors.js'
import { findSavedCard } from './tokens.js'

export interface EnteredCard {
  card: StoredCard
  /** The session's `card_token` card, when the payer paid with it instead of entering a card. */
  savedCard?: SavedCard
  body: CheckoutHostedFieldsCardPayment
}

const CARD_FIELDS = new Set(['card_number', 'card_exp_month', 'card_exp_year'])

/**
 * The card a payer entered (decisions.md 6 body), checked beyond its schema: the Luhn digit, an
 * expiry in the past, and the security code, optional only for MOTO sessions (2.5). On a session
 * with a `card_token` the payer may send no card at all: the saved card is used (a card that is
 * sent wins, as when a payer picks another card on the page). Nothing full-length leaves here.
 */
export function readCardEntry(
  ctx: EngineContext,
  session: Session,
  body: Record<string, unknown>,
): EnteredCard {
  const request = sessionRequest(session)
  const schema = `checkout/hpf-${session.operation === 'debit' ? 'debit' : 'purchase'}-card-request`
  const result = validate<CheckoutHostedFieldsCardPayment>(schema, body)
  const savedCard =
    body.card_number === undefined && request.card_token !== undefined
      ? findSavedCard(ctx, session.merchant_key, request.card_token)
      : undefined
  const problems = new FieldProblems()
  problems.addSchemaErrors(
    result.errors.filter((e) => !(savedCard && e.keyword === 'required' && CARD_FIELDS.has(e.path))),
  )
  problems.throwIfAny()

  const entry = result.data
  const now = ctx.clock.now()
  if (!savedCard && !luhnValid(entry.card_number)) problems.addRow('CARD_NUMBER_INVALID')
  const expiry = savedCard?.card ?? { exp_month: entry.card_exp_month, exp_year: entry.card_exp_year }
  if (cardExpired(expiry.exp_month, expiry.exp_year, now)) problems.addRow('CARD_EXPIRED')
  if (!entry.card_cvv2 && !isMotoType(request.moto_type)) problems.addRow('CARD_CVV2_REQUIRED')
  problems.throwIfAny()

  const card =
    savedCard?.card ??
    toStoredCard({
      number: entry.card_number,
      expMonth: entry.card_exp_month,
      expYear: entry.card_exp_year,
      holder: entry.card_holder,
    })
  return { card, body: entry, ...(savedCard ? { savedCard } : {}) }
}
