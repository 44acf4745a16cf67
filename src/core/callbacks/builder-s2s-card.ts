import { reportedStatus } from '../payments/reported-status.js'
import { formatDateTime, s2sStatus } from '../engine/format.js'
import type { Payment } from '../engine/model.js'
import { type CardRef, s2sCardSignatures } from '../signatures/index.js'
import type { BuiltCallback, CallbackInput } from './callback.js'
import { type PaymentFacts, str } from './facts.js'
import { compact, flattenForm } from './form.js'
import { s2sAction, s2sResult } from './kinds.js'
import { alwaysFields, cardFields, mappedCardFields, mappedFields, s2sRedirectFields } from './mapping.js'

const KEEP_EMPTY = new Set(['ARN', 'RRN'])

/** A decline always says why; the platform's words (docs/rules.md#test-cards: "Declined by processing."). */
export const DEFAULT_DECLINE_REASON = 'Declined by processing.'

/**
 * The S2S fields every action reports. `trans_id` is the payment id, also on CREDITVOID, which
 * adds `creditvoid_id` (the refund or reversal transaction); `status` is the payment's status
 * after the transaction (Events).
 */
export function s2sBase({ facts, transaction: tx }: CallbackInput, action: string) {
  const { payment, extras, merchant } = facts
  return {
    action,
    result: s2sResult(tx.status),
    // docs/rules.md#partial-refunds: `SETTLED` after a partial refund when the merchant chose it.
    status: s2sStatus(reportedStatus(payment, merchant)),
    order_id: payment.order_id,
    trans_id: payment.id,
    // docs/rules.md#s2s-callback-fields: CREDITVOID adds `creditvoid_date` and `amount` (the refunded amount).
    ...(action === 'CREDITVOID'
      ? { creditvoid_id: tx.id, creditvoid_date: formatDateTime(tx.created_at) }
      : {}),
    trans_date: formatDateTime(tx.created_at),
    descriptor: str(extras.descriptor),
    amount: tx.amount,
    currency: payment.order.currency,
    decline_reason:
      tx.status === 'fail'
        ? (tx.decline_reason ?? payment.decline_reason ?? DEFAULT_DECLINE_REASON)
        : undefined,
  }
}

/** The original payment's card in the signature: first 6 and last 4 digits, else its token. */
function cardRef(payment: Payment): CardRef {
  if (payment.card) return { cardNumber: payment.card.bin + payment.card.last4 }
  return { cardToken: payment.card_token ?? '' }
}

export function payerEmail(facts: PaymentFacts): string {
  const payer = facts.payment.payer ?? {}
  return str(payer.payer_email) ?? str(payer.email) ?? ''
}

/**
 * S2S CARD callback (schemas/callbacks/s2s-card-callback.schema.json), signed as docs/rules.md#signatures
 * says: md5(upper(rev(payer_email) + password + trans_id + rev(first6 + last4))) of the original
 * payment, "unchanged" by `creditvoid_id` (Authentication 6).
 */
export function buildS2sCardCallback(input: CallbackInput): BuiltCallback | undefined {
  const { facts, transaction: tx } = input
  const inferred = s2sAction(facts.payment, input.kind)
  if (!inferred) return undefined
  // A CREDIT2CARD payout reports its own action (docs/rules.md#callbacks), not the transfer's CARD2CARD.
  const credit2card = facts.payment.action === 'CREDIT2CARD'
  const action = credit2card && inferred === 'CARD2CARD' ? 'CREDIT2CARD' : inferred
  const body = compact(
    {
      ...s2sBase(input, action),
      ...cardFields(facts, 's2s-card'),
      ...s2sRedirectFields(facts, tx),
      ...mappedFields(facts, tx, 's2s-card'),
      ...mappedCardFields(facts),
      ...alwaysFields(facts, tx, 's2s-card'),
    },
    KEEP_EMPTY,
  )
  const { payment, merchant } = facts
  // docs/rules.md#s2s-card-formulas: Formula 2, or Formula 6 for CREDIT2CARD; the merchant's SHA256 mode applies.
  body.hash = credit2card
    ? s2sCardSignatures.credit2cardTransaction(merchant, payment.id, cardRef(payment))
    : s2sCardSignatures.transaction(payerEmail(facts), merchant, payment.id, cardRef(payment))
  return { kind: action, body, fields: flattenForm(body) }
}
