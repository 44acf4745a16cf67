import type { S2sCardAction } from './action.js'

/** SALE, AUTH, DEBIT, CARD2CARD, CAPTURE, VOID, CREDITVOID, RECURRING_*, GET_TRANS_STATUS*. */
export const paymentActions: Record<string, S2sCardAction> = {}
