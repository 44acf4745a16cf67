import { formatDay } from '../core/engine/format.js'
import type { ScenarioContext } from './context.js'
import { describeRequest, isRefundRequest, paymentIdOf } from './observations.js'

/**
 * A settled payment cancelled by a refund on its own financial day, where a VOID was expected
 * (States and transitions: "SETTLED | VOID | Same financial day only"). The financial day is the
 * settlement's: for a two-stage payment its capture's, not its authorization's. From the kit's
 * own gateway: the payment's financial day and when it was authorized.
 */
export function refundedOnFinancialDayNote(ctx: ScenarioContext): string | undefined {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return undefined
  const store = ctx.hosted.gateway.ctx.store
  for (const r of ctx.hosted.requests) {
    if (r.consumed || !isRefundRequest(r) || r.answer.status !== 200 || r.at === undefined) continue
    const id = paymentIdOf(r)
    const payment = id ? store.get('payments', id) : undefined
    const sent = formatDay(r.at)
    if (!payment?.financial_day || payment.financial_day !== sent) continue
    const authorized = formatDay(payment.created_at)
    const held = payment.auth && authorized !== payment.financial_day
    return (
      `it refunded the payment instead (its ${describeRequest(r)}) on ${sent}, the payment's financial day` +
      `${held ? `: it settled by its capture that day, after its authorization on ${authorized}; the financial day is the capture's, not the authorization's` : ''}` +
      ': on its financial day a settled payment is cancelled by VOID (States and transitions)'
    )
  }
  return undefined
}
