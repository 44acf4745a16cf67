import type { Pipeline } from '../engine/pipeline.js'
import type { OriginalPayment } from '../signatures/formulas.js'
import { S2S_CARD_FORMULAS } from '../signatures/formulas.js'
import { loadPayment } from './lookup.js'
import { requireHash } from '../engine/auth.js'
import type { SandboxMerchant } from '../engine/context.js'
import type { Payment } from '../engine/model.js'
import { type CardRef, s2sCardSignatures } from '../signatures/index.js'

/**
 * The S2S CARD hash checks of docs/rules.md#signatures, one per formula. A follow-up is signed over the
 * ORIGINAL payment's payer_email and card (first 6 + last 4), so both are kept on the payment: the
 * e-mail in `payment.payer`, the card as its stored bin and last4 (never the full number). The
 * merchant itself is the signing secret: its password, and SHA256 mode when its Protocol Mapping
 * enables it. Which action uses which formula: FORMULAS below.
 */

/** Action -> formula (docs/rules.md#signatures), to find each action's signature at a glance. */
export const FORMULAS = {
  SALE: 1,
  AUTH: 1,
  DEBIT: 1,
  RECURRING_SALE: 1,
  RECURRING_DEBIT: 1,
  RETRY: 1,
  CARD2CARD: 1,
  CAPTURE: 2,
  VOID: 2,
  CREDITVOID: 2,
  GET_TRANS_STATUS: 2,
  GET_TRANS_DETAILS: 2,
  CREATE_SCHEDULE: 3,
  UPDATE_SCHEDULE: 4,
  DELETE_SCHEDULE: 4,
  PAUSE: 4,
  PAUSE_SCHEDULE: 4,
  RUN: 4,
  RUN_SCHEDULE: 4,
  SCHEDULE_INFO: 4,
  DESCHEDULE: 4,
  CREDIT2CARD: 5,
  /** GET_TRANS_STATUS / GET_TRANS_DETAILS of a CREDIT2CARD payment, and its callbacks */
  CREDIT2CARD_LOOKUP: 6,
  GET_TRANS_STATUS_BY_ORDER: 7,
  /** SALE with digital_wallet + payment_token */
  WALLET_SALE: 8,
} as const

/** The e-mail the payment was made with (its signature's first part); empty when none was given. */
export const payerEmailOf = (payment: Payment): string => payment.payer?.payer_email ?? ''

/** The original payment's card in a signature: stored first 6 + last 4, else the token it was paid with. */
export function cardRefOf(payment: Payment): CardRef {
  if (payment.card) return { cardNumber: payment.card.bin + payment.card.last4 }
  return { cardToken: payment.card_token ?? '' }
}

/** What formulas over the original payment read of it: its e-mail, its card, whether it is a CREDIT2CARD. */
export const originalOf = (payment: Payment): OriginalPayment => ({
  payerEmail: payerEmailOf(payment),
  card: cardRefOf(payment),
  ...(payment.action === 'CREDIT2CARD' ? { credit2card: true } : {}),
})

/** Formula 1 for RECURRING_SALE, RECURRING_DEBIT, RETRY: over the initial payment's e-mail and card. */
export function recurringSignature(merchant: SandboxMerchant, initial: Payment): string {
  return s2sCardSignatures.payment(payerEmailOf(initial), merchant, cardRefOf(initial))
}

/**
 * Formula 2 (CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS, GET_TRANS_DETAILS): over the payment's
 * trans_id and original data; Formula 6 when the payment is a CREDIT2CARD.
 */
export function transactionSignature(merchant: SandboxMerchant, payment: Payment): string {
  return payment.action === 'CREDIT2CARD'
    ? s2sCardSignatures.credit2cardTransaction(merchant, payment.id, cardRefOf(payment))
    : s2sCardSignatures.transaction(payerEmailOf(payment), merchant, payment.id, cardRefOf(payment))
}

/** Formula 7 (GET_TRANS_STATUS_BY_ORDER): over the order_id and the original data of the payment it finds. */
export function requireOrderHash(
  merchant: SandboxMerchant,
  hash: string,
  orderId: string,
  payment: Payment,
): void {
  requireHash(hash, S2S_CARD_FORMULAS.byOrder, { order_id: orderId }, merchant, originalOf(payment))
}

/**
 * The pipeline of an action on one payment by `trans_id` (CAPTURE, VOID, CREDITVOID,
 * GET_TRANS_STATUS, GET_TRANS_DETAILS): the merchant's own payment or the action's not-found row,
 * then Formula 2 (Formula 6 for a CREDIT2CARD) over it.
 */
export function transactionPipeline<I extends { client_key: string; trans_id: string }>(
  schema: string,
  notFound: string,
): Pipeline<I, Payment> {
  return {
    schema,
    pathStyle: 'bracket',
    credential: 'client_key',
    load: (ctx, request, merchant) => loadPayment(ctx, merchant, request.trans_id, notFound),
    formula: S2S_CARD_FORMULAS.transaction,
    original: originalOf,
    originalBy: 'trans_id',
    signatureAfterLoad: true,
  }
}
