import { requireHash } from '../engine/auth.js'
import type { SandboxMerchant } from '../engine/context.js'
import type { Payment } from '../engine/model.js'
import { type CardRef, s2sCardSignatures } from '../signatures/index.js'

/**
 * The S2S CARD hash checks of decisions.md §1. A follow-up is signed over the ORIGINAL payment's
 * payer_email and card (first 6 + last 4), so both are kept on the payment: the e-mail in
 * `payment.payer`, the card as its stored bin and last4 (never the full number).
 */

/** The e-mail the payment was made with (its signature's first part); empty when none was given. */
export const payerEmailOf = (payment: Payment): string => payment.payer?.payer_email ?? ''

/** The original payment's card in a signature: stored first 6 + last 4, else the token it was paid with. */
export function cardRefOf(payment: Payment): CardRef {
  if (payment.card) return { cardNumber: payment.card.bin + payment.card.last4 }
  return { cardToken: payment.card_token ?? '' }
}

/** SALE, AUTH, DEBIT: over the request's own e-mail and card (or card_token). */
export function requirePaymentHash(
  merchant: SandboxMerchant,
  hash: string,
  payerEmail: string,
  card: CardRef,
): void {
  requireHash(hash, s2sCardSignatures.payment(payerEmail, merchant.password, card))
}

/** RECURRING_SALE, RECURRING_DEBIT: the payment formula over the initial payment's e-mail and card. */
export function requireRecurringHash(merchant: SandboxMerchant, hash: string, initial: Payment): void {
  requireHash(hash, s2sCardSignatures.payment(payerEmailOf(initial), merchant.password, cardRefOf(initial)))
}

/** CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS: over the payment's trans_id and original data. */
export function requireTransactionHash(merchant: SandboxMerchant, hash: string, payment: Payment): void {
  requireHash(
    hash,
    s2sCardSignatures.transaction(payerEmailOf(payment), merchant.password, payment.id, cardRefOf(payment)),
  )
}

/** GET_TRANS_STATUS_BY_ORDER: over the order_id and the original data of the payment it finds. */
export function requireOrderHash(
  merchant: SandboxMerchant,
  hash: string,
  orderId: string,
  payment: Payment,
): void {
  requireHash(
    hash,
    s2sCardSignatures.byOrder(payerEmailOf(payment), merchant.password, orderId, cardRefOf(payment)),
  )
}

/** CARD2CARD (sandbox): over the password and the sender card. */
export function requireCard2CardHash(merchant: SandboxMerchant, hash: string, senderCard: string): void {
  requireHash(hash, s2sCardSignatures.card2card(merchant.password, senderCard))
}
