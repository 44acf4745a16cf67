import type { S2sCardAction } from './action.js'
import { card2card } from './card2card.js'
import { capture, creditvoid, voidAction } from './follow-ups.js'
import { recurringDebit, recurringSale } from './recurring.js'
import { auth, debit, sale } from './sale.js'
import { getTransStatus, getTransStatusByOrder } from './status.js'

/** SALE, AUTH, DEBIT, CARD2CARD, CAPTURE, VOID, CREDITVOID, RECURRING_*, GET_TRANS_STATUS*. */
export const paymentActions: Record<string, S2sCardAction> = {
  SALE: sale,
  AUTH: auth,
  DEBIT: debit,
  CARD2CARD: card2card,
  CAPTURE: capture,
  VOID: voidAction,
  CREDITVOID: creditvoid,
  RECURRING_SALE: recurringSale,
  RECURRING_DEBIT: recurringDebit,
  GET_TRANS_STATUS: getTransStatus,
  GET_TRANS_STATUS_BY_ORDER: getTransStatusByOrder,
}
