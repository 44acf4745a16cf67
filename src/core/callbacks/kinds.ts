import type { Payment, TransactionStatus, TransactionType } from '../engine/model.js'
import { isSecondary } from './facts.js'

/** What a callback reports, per API: the Checkout `type`, the S2S `action` and `result`. */

export type CheckoutType =
  | 'sale'
  | '3ds'
  | 'redirect'
  | 'capture'
  | 'refund'
  | 'void'
  | 'chargeback'
  | 'debit'
  | 'credit'
  | 'recurring'

/** The transaction that takes the money for this payment (what a 3DS or redirect step ends in). */
export function chargeKind(payment: Payment): TransactionType {
  if (payment.operation === 'credit') return 'credit'
  if (payment.operation === 'debit') return 'debit'
  if (isSecondary(payment)) return 'recurring'
  return payment.auth ? 'auth' : 'sale'
}

/**
 * Checkout `type` (docs/rules.md#callbacks). "On Checkout a reversal is reported as `type=refund` with
 * `order_status=reversal`; there is no `type=reversal` callback." An authorization is a `sale`
 * whose order_status is `pending`; a charge of a debit or credit operation is named after it.
 */
export function checkoutType(payment: Payment, kind: TransactionType): CheckoutType {
  switch (kind) {
    case 'refund':
    case 'reversal':
      return 'refund'
    case 'sale':
    case 'auth':
      if (payment.operation === 'debit') return 'debit'
      if (payment.operation === 'credit') return 'credit'
      return isSecondary(payment) ? 'recurring' : 'sale'
    default:
      return kind
  }
}

const CARD_ACTIONS = new Set([
  'SALE',
  'AUTH',
  'DEBIT',
  'CARD2CARD',
  'RECURRING_SALE',
  'RECURRING_DEBIT',
  'CAPTURE',
  'VOID',
  'CREDITVOID',
  'CHARGEBACK',
])
const APM_ACTIONS = new Set(['SALE', 'DEBIT2VIRTUAL', 'DEBIT2VIRTUAL_CALC', 'CAPTURE', 'VOID', 'CREDITVOID'])

/** The S2S action that created the payment: as recorded by the S2S API, else inferred from the payment. */
function initialAction(payment: Payment): string {
  const recorded = payment.action?.toUpperCase()
  if (payment.api === 's2s-apm') {
    if (recorded && APM_ACTIONS.has(recorded)) return recorded
    return payment.operation === 'credit' ? 'DEBIT2VIRTUAL' : 'SALE'
  }
  if (recorded && CARD_ACTIONS.has(recorded)) return recorded
  if (payment.operation === 'credit') return 'CARD2CARD'
  if (isSecondary(payment)) return payment.operation === 'debit' ? 'RECURRING_DEBIT' : 'RECURRING_SALE'
  return payment.operation === 'debit' ? 'DEBIT' : 'SALE'
}

/** S2S `action`, or undefined when the API has no callback for the transaction (S2S APM chargeback). */
export function s2sAction(payment: Payment, kind: TransactionType): string | undefined {
  switch (kind) {
    case 'capture':
      return 'CAPTURE'
    case 'void':
      return 'VOID'
    case 'refund':
    case 'reversal':
      return 'CREDITVOID'
    case 'chargeback':
      return payment.api === 's2s-card' ? 'CHARGEBACK' : undefined
    default:
      return initialAction(payment)
  }
}

const RESULTS: Record<TransactionStatus, string> = {
  success: 'SUCCESS',
  fail: 'DECLINED',
  waiting: 'REDIRECT',
  undefined: 'UNDEFINED',
}

/** S2S `result`: a pending 3DS or redirect step is REDIRECT; ACCEPTED and ERROR are synchronous answers only. */
export const s2sResult = (status: TransactionStatus): string => RESULTS[status]
