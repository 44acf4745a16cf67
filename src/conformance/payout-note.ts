import type { ScenarioContext } from './context.js'
import { describeRequest } from './observations.js'
import { describeCallback } from './steps/select.js'

/**
 * Where a declined payout booked as paid came from (issue 31): the answer to the payout request.
 * A Checkout card credit is answered `{payment_id, result: "accepted"}` whatever its outcome
 * (docs/rules.md#card-credit: "The response only confirms that the payout was accepted. The final
 * outcome arrives in a callback with type=credit"); an S2S CREDIT2CARD answer carries its result.
 * The kit knows the outcome from its own gateway's ledger.
 */

const isPayoutRequest = (path: string, action: unknown) =>
  path === '/api/v1/payment/card/credit' || action === 'CREDIT2CARD'

/**
 * `it booked the payout paid from the gateway's answer to its POST /api/v1/payment/card/credit …,
 * which only says the payout was accepted; the gateway declined it …`, or undefined when the
 * order is no declined payout or the wrong value is not what was paid.
 */
export function declinedPayoutNote(
  ctx: ScenarioContext,
  orderId: string,
  wrong: string[],
): string | undefined {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return undefined
  if (!wrong.some((w) => /^\$\.state: .*found "paid"/.test(w) || w.startsWith('$.amount_paid:')))
    return undefined
  const payout = ctx.hosted.gateway.ctx.store
    .list('payments')
    .find((p) => p.order.number === orderId && p.operation === 'credit')
  if (payout?.status !== 'decline') return undefined
  const request = ctx.hosted.requests.find(
    (r) => isPayoutRequest(r.path, r.body?.action) && (r.body?.order_id ?? '') === orderId,
  )
  if (request?.answer.status !== 200) return undefined
  const callback = ctx.channel.log.find(
    (c) => c.source === 'gateway' && (c.fields.order_number ?? c.fields.order_id) === orderId,
  )
  const answer = request.answer.json as Record<string, unknown> | undefined
  const accepted = answer?.result === 'accepted'
  const said = accepted
    ? 'which only says the payout was accepted'
    : `whose result is ${String(answer?.result ?? 'none')} (HTTP 200 only says the gateway answered)`
  const fix = accepted
    ? 'book a payout by its outcome (its type=credit callback, or the status lookup), not by the answer that accepted it (docs/rules.md#card-credit)'
    : 'book a payout by its result and its callback, not by the HTTP status of the answer (Events)'
  return (
    `it booked the payout paid from the gateway's answer to its ${describeRequest(request)}, ${said}; ` +
    `the gateway declined it (${payout.decline_reason ?? 'declined'})${callback ? `, as its callback ${describeCallback(callback)} reported` : ''}: ${fix}`
  )
}
