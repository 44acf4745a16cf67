import { cardDigits, md5, rev, upper } from './primitives.js'

const sign = (s: string) => md5(upper(s))

/** What identifies the payer's card in S2S CARD signatures: the card number or the card token. */
export type CardRef = { cardNumber: string } | { cardToken: string }

const cardPart = (card: CardRef) => rev('cardToken' in card ? card.cardToken : cardDigits(card.cardNumber))

/** S2S CARD signatures, `md5(upper(...))` (decisions.md §1). */
export const s2sCardSignatures = {
  /** SALE, AUTH, DEBIT, RECURRING_SALE, RECURRING_DEBIT */
  payment: (payerEmail: string, password: string, card: CardRef) =>
    sign(rev(payerEmail) + password + cardPart(card)),
  /** CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS and callbacks, over the original payment's data */
  transaction: (payerEmail: string, password: string, transId: string, card: CardRef) =>
    sign(rev(payerEmail) + password + transId + cardPart(card)),
  byOrder: (payerEmail: string, password: string, orderId: string, card: CardRef) =>
    sign(rev(payerEmail) + password + orderId + cardPart(card)),
  createSchedule: (password: string) => sign(rev(password)),
  /** UPDATE_SCHEDULE, DELETE_SCHEDULE, PAUSE, RUN, SCHEDULE_INFO, DESCHEDULE */
  schedule: (scheduleId: string, password: string) => sign(rev(scheduleId + password)),
  /** (sandbox) CARD2CARD, over the sender card */
  card2card: (password: string, senderCardNumber: string) =>
    sign(password + rev(cardDigits(senderCardNumber))),
}
