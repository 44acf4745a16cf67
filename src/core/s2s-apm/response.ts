import { formatDateTime, s2sStatus } from '../engine/format.js'
import type { ApmPayment } from '../apm/types.js'
import type { Payment, Transaction } from '../engine/model.js'

/**
 * S2S APM answers (docs/rules.md#transport): `{action, result, status, order_id, trans_id, trans_date,
 * descriptor, amount, currency}` plus `decline_reason` (DECLINED) or `redirect_url`,
 * `redirect_params`, `redirect_method` (REDIRECT). `trans_id` is always the payment's id;
 * `status` is the payment's status after the action, upper case.
 */

export type S2sResult = 'SUCCESS' | 'DECLINED' | 'REDIRECT'

export interface AnswerOptions {
  result?: S2sResult
  /** The date of the answer's transaction; defaults to the transaction's own. */
  date?: number
  amount?: string
}

/** The fields every payment answer carries. */
export function paymentAnswer(
  action: string,
  payment: Payment,
  transaction: Transaction | undefined,
  options: AnswerOptions = {},
): Record<string, unknown> {
  const result = options.result ?? resultOf(transaction)
  const answer: Record<string, unknown> = {
    action,
    result,
    status: s2sStatus(payment.status),
    order_id: payment.order_id,
    trans_id: payment.id,
    trans_date: formatDateTime(options.date ?? transaction?.created_at ?? payment.updated_at),
    // The simulated connector issues no statement descriptor; the field is answered empty.
    descriptor: payment.descriptor ?? '',
    amount: options.amount ?? transaction?.amount ?? payment.order.amount,
    currency: payment.order.currency,
  }
  if (payment.status === 'decline') {
    answer.decline_reason = transaction?.decline_reason ?? payment.decline_reason ?? 'Declined'
  }
  return answer
}

const resultOf = (transaction: Transaction | undefined): S2sResult => {
  if (transaction?.status === 'fail') return 'DECLINED'
  if (transaction?.status === 'waiting') return 'REDIRECT'
  return 'SUCCESS'
}

/** REDIRECT: the payer goes to the method's simulator page with a plain GET (no form fields). */
export function redirectFields(url: string): Record<string, unknown> {
  return { redirect_url: url, redirect_method: 'GET', redirect_params: {} }
}

/**
 * `brand` as the merchant sent it (`applepay`, `intc-sdp`), not the catalogue id the engine keeps
 * (`wallet1`, `interac`): docs/rules.md#transport makes the public identifiers aliases of the stand-ins, so a
 * merchant that sends `applepay` reads `applepay` back in answers, statuses and callbacks.
 */
export const sentBrand = (payment: ApmPayment): string => payment.apm.brand || payment.method
