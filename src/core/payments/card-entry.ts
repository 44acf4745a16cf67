import type { CheckoutHostedFieldsCardPayment } from '../../generated/types.js'
import { sessionRequest } from '../sessions/session-access.js'
import type { EngineContext } from '../engine/context.js'
import type { SavedCard, Session, StoredCard } from '../engine/model.js'
import { warn } from '../engine/warnings.js'
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

/** The fields that make a card in the body (a security code alone goes with the session's saved card). */
const CARD_FIELDS = ['card_number', 'card_exp_month', 'card_exp_year'] as const

/**
 * The card of a session payment. docs/rules.md#hosted-payment-fields: a Hosted Payment Fields payment carries no card
 * data; the fields' frames put the card into the session first (`entered_card`, masked, checked
 * when collected), and the body brings `with_hosted_fields`, `name`, `email`, `browser_info`. A
 * card sent in the body (the hosted page's own form, or an HPF body in the sandbox's earlier form)
 * is checked here: the Luhn digit, an expiry in the past, and the security code, optional only for
 * MOTO sessions (2.5); on an HPF session that earns a Sandbox-Warning. On a session with a
 * `card_token` the payer may send no card at all: the saved card is used (a card that is sent
 * wins). Nothing full-length leaves here.
 */
export function readCardEntry(
  ctx: EngineContext,
  session: Session,
  body: Record<string, unknown>,
): EnteredCard {
  const request = sessionRequest(session)
  const schema = `checkout/hpf-${session.operation === 'debit' ? 'debit' : 'purchase'}-card-request`
  const result = validate<CheckoutHostedFieldsCardPayment>(schema, body)
  const problems = new FieldProblems()
  problems.addSchemaErrors(result.errors)
  problems.throwIfAny()
  const entry = result.data
  const sentCard = CARD_FIELDS.some((f) => body[f] !== undefined)
  const payerBody = {
    ...entry,
    ...(entry.payer_email === undefined && entry.email !== undefined ? { payer_email: entry.email } : {}),
  }

  if (!sentCard) {
    const savedCard =
      request.card_token !== undefined
        ? findSavedCard(ctx, session.merchant_key, request.card_token)
        : undefined
    const collected = session.entered_card
    if (collected && session.hosted_fields) {
      if (cardExpired(collected.exp_month, collected.exp_year, ctx.clock.now()))
        problems.addRow('CARD_EXPIRED')
      problems.throwIfAny()
      const card = entry.name && !collected.holder ? { ...collected, holder: entry.name } : collected
      return { card, body: payerBody }
    }
    if (savedCard) {
      if (cardExpired(savedCard.card.exp_month, savedCard.card.exp_year, ctx.clock.now()))
        problems.addRow('CARD_EXPIRED')
      if (!entry.card_cvv2 && !isMotoType(request.moto_type)) problems.addRow('CARD_CVV2_REQUIRED')
      problems.throwIfAny()
      return { card: savedCard.card, body: payerBody, savedCard }
    }
    problems.addRow(session.hosted_fields ? 'HPF_CARD_NOT_COLLECTED' : 'CARD_NUMBER_REQUIRED')
    problems.throwIfAny()
  }

  if (session.hosted_fields && entry.with_hosted_fields === true) {
    warn({
      field: 'card_number',
      sent: 'card data in the body of a Hosted Payment Fields payment',
      documented: 'no card data in this request: the fields collect it (hostedFields.collectIframesData())',
      source: 'docs/rules.md#hosted-payment-fields (Hosted Payment Fields 1.0.0: purchase-card)',
    })
  }
  const card = checkedCard(ctx, session, {
    card_number: entry.card_number,
    card_exp_month: entry.card_exp_month,
    card_exp_year: entry.card_exp_year,
    card_cvv2: entry.card_cvv2,
    card_holder: entry.card_holder ?? entry.name,
  })
  return { card, body: payerBody }
}

/**
 * A card entered by the payer (hosted page form, or the Hosted Payment Fields' frames): every
 * field present and well formed, the Luhn digit, not expired, the security code unless MOTO
 * (2.5). Answers its masked form; field problems are answered together.
 */
export function checkedCard(
  ctx: EngineContext,
  session: Session,
  entry: {
    card_number?: string | undefined
    card_exp_month?: string | undefined
    card_exp_year?: string | undefined
    card_cvv2?: string | undefined
    card_holder?: string | undefined
  },
): StoredCard {
  const problems = new FieldProblems()
  const shape = validate<Required<typeof entry>>(ENTRY_SCHEMA, dropUndefined(entry))
  problems.addSchemaErrors(shape.errors)
  problems.throwIfAny()
  const card = shape.data
  if (!luhnValid(card.card_number)) problems.addRow('CARD_NUMBER_INVALID')
  if (cardExpired(card.card_exp_month, card.card_exp_year, ctx.clock.now())) problems.addRow('CARD_EXPIRED')
  if (!card.card_cvv2 && !isMotoType(sessionRequest(session).moto_type)) problems.addRow('CARD_CVV2_REQUIRED')
  problems.throwIfAny()
  return toStoredCard({
    number: card.card_number,
    expMonth: card.card_exp_month,
    expYear: card.card_exp_year,
    ...(card.card_holder ? { holder: card.card_holder } : {}),
  })
}

const ENTRY_SCHEMA = 'sandbox/hpf-collect-request'

const dropUndefined = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))
