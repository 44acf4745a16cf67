import type { S2sCardAction } from './action.js'
import { card2card } from './card2card.js'
import { credit2card } from './credit2card.js'
import { capture, creditvoid, voidAction } from './follow-ups.js'
import { recurringDebit, recurringSale } from './recurring.js'
import { auth, debit, sale } from './sale.js'
import { retry } from './retry.js'
import { getTransDetails, getTransStatus, getTransStatusByOrder } from './status.js'

/**
 * SALE, AUTH, DEBIT, CARD2CARD, CREDIT2CARD, CAPTURE, VOID, CREDITVOID, RECURRING_*, RETRY,
 * GET_TRANS_STATUS*, GET_TRANS_DETAILS. Schema and signature formula of each: auth.ts FORMULAS and
 * the `s2s-card/<action>-request` schema its handler validates against.
 */
export const paymentActions: Record<string, S2sCardAction> = {
  SALE: sale,
  AUTH: auth,
  DEBIT: debit,
  CARD2CARD: card2card,
  CREDIT2CARD: credit2card,
  CAPTURE: capture,
  VOID: voidAction,
  CREDITVOID: creditvoid,
  RECURRING_SALE: recurringSale,
  RECURRING_DEBIT: recurringDebit,
  RETRY: retry,
  GET_TRANS_STATUS: getTransStatus,
  GET_TRANS_STATUS_BY_ORDER: getTransStatusByOrder,
  GET_TRANS_DETAILS: getTransDetails,
}
