import { cardDigits, rev, type Secret, signingKey, upper } from './primitives.js'

/** What identifies a card in S2S CARD signatures: the card number (first 6 + last 4) or the card token. */
export type CardRef = { cardNumber: string } | { cardToken: string }

const cardPart = (card: CardRef) => rev('cardToken' in card ? card.cardToken : cardDigits(card.cardNumber))

/** `md5(upper(...))`, the password placed by `parts`; sha256 in SHA256 mode. */
const sign = (secret: Secret, parts: (password: string) => string) => {
  const key = signingKey(secret)
  return key.digest(upper(parts(key.password)))
}

/**
 * S2S CARD signatures, numbered as the platform numbers them (docs/rules.md#signatures). An optional field
 * the merchant did not send drops out: pass '' (for example no `payer_email` on DEBIT).
 */
export const s2sCardSignatures = {
  /** Formula 1: SALE, AUTH, DEBIT, RECURRING_SALE, RECURRING_DEBIT, RETRY, CARD2CARD (payer's card). */
  payment: (payerEmail: string | undefined, secret: Secret, card: CardRef) =>
    sign(secret, (p) => rev(payerEmail ?? '') + p + cardPart(card)),
  /** Formula 2: CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS, GET_TRANS_DETAILS and callbacks, over the original payment. */
  transaction: (payerEmail: string | undefined, secret: Secret, transId: string, card: CardRef) =>
    sign(secret, (p) => rev(payerEmail ?? '') + p + transId + cardPart(card)),
  /** Formula 3: CREATE_SCHEDULE. */
  createSchedule: (secret: Secret) => sign(secret, (p) => rev(p)),
  /** Formula 4: UPDATE_SCHEDULE, DELETE_SCHEDULE, PAUSE(_SCHEDULE), RUN(_SCHEDULE), SCHEDULE_INFO, DESCHEDULE. */
  schedule: (scheduleId: string, secret: Secret) => sign(secret, (p) => rev(scheduleId + p)),
  /** Formula 5: CREDIT2CARD, over the recipient's card (or its token). */
  credit2card: (secret: Secret, card: CardRef) => sign(secret, (p) => p + cardPart(card)),
  /** Formula 6: CREDIT2CARD callbacks and status lookups. */
  credit2cardTransaction: (secret: Secret, transId: string, card: CardRef) =>
    sign(secret, (p) => p + transId + cardPart(card)),
  /** Formula 7: GET_TRANS_STATUS_BY_ORDER. */
  byOrder: (payerEmail: string | undefined, secret: Secret, orderId: string, card: CardRef) =>
    sign(secret, (p) => rev(payerEmail ?? '') + p + orderId + cardPart(card)),
  /** Formula 8: SALE with `digital_wallet` + `payment_token`. */
  wallet: (payerEmail: string | undefined, secret: Secret) => sign(secret, (p) => rev(payerEmail ?? '') + p),
  /** CARD2CARD: Formula 1 over the payer's card (docs/rules.md#signatures). */
  card2card: (payerEmail: string | undefined, secret: Secret, payerCardNumber: string) =>
    sign(secret, (p) => rev(payerEmail ?? '') + p + cardPart({ cardNumber: payerCardNumber })),
}
