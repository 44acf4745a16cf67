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

/** What Formula 2 (and Formula 6, with no payer e-mail) signs a callback over: the original payment and its trans_id. */
export interface CallbackParts {
  payerEmail: string | undefined
  transId: string
  card: CardRef
}

/** A wrong way of computing a signature, named for what it gets wrong ("without trans_id"). */
export interface SigningMistake<Parts> {
  name: string
  sign: (secret: Secret, parts: Parts) => string
}

/**
 * Mistakes merchants make computing Formula 2 to verify S2S CARD callbacks: none is a formula of
 * the platform's. The conformance kit re-sends a callback the merchant refused, signed right, with
 * each of these hashes in turn, and names the one the merchant acknowledges (docs/conformance.md,
 * Cause first). The likeliest first: Formula 1 (the payment's own formula, no trans_id).
 */
export const s2sCardCallbackMistakes: SigningMistake<CallbackParts>[] = [
  /** Formula 1 (as for the SALE itself): md5(upper(rev(payer_email) + password + rev(card))). */
  {
    name: 'without trans_id',
    sign: (secret, { payerEmail, card }) => s2sCardSignatures.payment(payerEmail, secret, card),
  },
  /** Formula 6 (CREDIT2CARD's) for a payment: md5(upper(password + trans_id + rev(card))). */
  {
    name: 'without payer_email',
    sign: (secret, { transId, card }) => s2sCardSignatures.credit2cardTransaction(secret, transId, card),
  },
  /** md5(upper(rev(payer_email) + password + trans_id + first6 + last4)): the card part not reversed. */
  {
    name: 'with the card digits not reversed',
    sign: (secret, { payerEmail, transId, card }) =>
      sign(
        secret,
        (p) =>
          rev(payerEmail ?? '') +
          p +
          transId +
          ('cardToken' in card ? card.cardToken : cardDigits(card.cardNumber)),
      ),
  },
  /** md5(upper(payer_email + password + trans_id + rev(card))): the e-mail not reversed. */
  {
    name: 'with payer_email not reversed',
    sign: (secret, { payerEmail, transId, card }) =>
      sign(secret, (p) => (payerEmail ?? '') + p + transId + cardPart(card)),
  },
  /** md5(upper(rev(payer_email)) + password + upper(trans_id + rev(card))): the password left as it is. */
  {
    name: 'with the password not upper-cased',
    sign: (secret, { payerEmail, transId, card }) => {
      const key = signingKey(secret)
      return key.digest(upper(rev(payerEmail ?? '')) + key.password + upper(transId + cardPart(card)))
    },
  },
  /** md5(upper(rev(payer_email) + password + trans_id + rev(the whole card number))): not first 6 + last 4. */
  {
    name: 'over the whole card number, not its first 6 and last 4 digits',
    sign: (secret, { payerEmail, transId, card }) =>
      sign(
        secret,
        (p) =>
          rev(payerEmail ?? '') +
          p +
          transId +
          rev('cardToken' in card ? card.cardToken : card.cardNumber.replace(/\D/g, '')),
      ),
  },
]
