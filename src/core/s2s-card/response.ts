import type { EngineContext } from '../engine/context.js'
import { formatDateTime, s2sStatus } from '../engine/format.js'
import type { Payment, Transaction } from '../engine/model.js'
import { payerStepUrl } from '../payments/payer.js'

/**
 * The S2S CARD answer of a payment action (docs/rules.md#transport): `{action, result, status, order_id,
 * trans_id, trans_date, descriptor, amount, currency}` plus `decline_reason`, the redirect trio,
 * `recurring_token`, `card_token`, `schedule_id` and `moto_type` where they apply. `trans_id` is
 * the payment's id, the one every follow-up quotes (as in the callbacks).
 */

export type S2sAnswer = Record<string, unknown>

/** (sandbox) The statement descriptor when the request names none in `parameters[descriptor]`. */
export const DEFAULT_DESCRIPTOR = 'PAYSANDBOX'

const RESULTS = { success: 'SUCCESS', fail: 'DECLINED', waiting: 'REDIRECT', undefined: 'DECLINED' } as const

/** The newest transaction of the payment (the one an action just made). */
export function latestTransaction(ctx: EngineContext, payment: Payment): Transaction | undefined {
  const all = ctx.store.findBy('transactions', 'payment_id', payment.id)
  return all[all.length - 1]
}

/** The fields every S2S payment answer carries, for the transaction `tx` of the payment. */
export function baseAnswer(action: string, payment: Payment, tx: Transaction | undefined): S2sAnswer {
  return {
    action,
    result: tx ? RESULTS[tx.status] : 'SUCCESS',
    status: s2sStatus(payment.status),
    order_id: payment.order_id,
    trans_id: payment.id,
    trans_date: formatDateTime(tx?.created_at ?? payment.updated_at),
    descriptor: payment.descriptor ?? DEFAULT_DESCRIPTOR,
    amount: tx?.amount ?? payment.order.amount,
    currency: payment.order.currency,
  }
}

/** SALE, AUTH, DEBIT, CARD2CARD and RECURRING_* answers, after the payment's latest transaction. */
export function paymentAnswer(ctx: EngineContext, action: string, payment: Payment): S2sAnswer {
  const tx = latestTransaction(ctx, payment)
  const answer = baseAnswer(action, payment, tx)
  if (tx?.status === 'fail') answer.decline_reason = tx.decline_reason ?? payment.decline_reason
  const url = payerStepUrl(ctx, payment)
  if (url) Object.assign(answer, redirectFields(payment, url))
  if (payment.recurring?.init && payment.recurring.token) answer.recurring_token = payment.recurring.token
  if (payment.schedule_id) answer.schedule_id = payment.schedule_id
  if (payment.card_token) answer.card_token = payment.card_token
  // 2.5: "`moto_type` is returned in the SALE response, the callback and the status response".
  if (payment.moto_type) answer.moto_type = payment.moto_type
  return answer
}

/**
 * Where the payer goes (3DS: the sandbox's ACS page; month 12: the redirect simulator). The form
 * fields are those of a 3DS 1 ACS post (sandbox): `PaReq` (an opaque reference to the payment),
 * `MD` (the trans_id) and `TermUrl` (the merchant's term_url_3ds, where the payer comes back).
 */
function redirectFields(payment: Payment, url: string): S2sAnswer {
  const params: Record<string, string> = {}
  if (payment.status === '3ds') params.PaReq = Buffer.from(payment.id).toString('base64')
  params.MD = payment.id
  if (payment.return_url) params.TermUrl = payment.return_url
  return { redirect_url: url, redirect_method: 'POST', redirect_params: params }
}
