import type { EngineContext } from '../../engine/context.js'
import { formatDay } from '../../engine/format.js'
import type { Payment, TransactionType } from '../../engine/model.js'
import { commit, newTransaction } from '../../payments/ledger.js'
import { transition, allowed } from '../../payments/state-machine.js'
import type { ChargeOutcome } from './charge-outcome.js'

/**
 * Runs a charge with no payer present through the state table (CHARGE for a new payment, RETRY
 * for a declined one) and stores the payment with its transaction. `isNew`: the payment is not
 * in the store yet, so its creation is announced too.
 */
export function applyCharge(
  ctx: EngineContext,
  payment: Payment,
  trigger: 'CHARGE' | 'RETRY',
  type: TransactionType,
  charge: ChargeOutcome,
  isNew: boolean,
): void {
  const move = allowed(transition(payment, trigger, { api: 'checkout', outcome: charge.outcome }))
  const previous = isNew ? undefined : payment.status
  const transaction = newTransaction(ctx, payment, {
    type,
    status: charge.outcome === 'approved' ? 'success' : 'fail',
    amount: payment.order.amount,
    ...(charge.outcome === 'declined' ? { decline_reason: charge.reason } : {}),
  })
  payment.status = move.next
  if (charge.outcome === 'approved') {
    payment.amount_captured = payment.order.amount
    payment.financial_day = formatDay(ctx.clock.now())
    delete payment.decline_reason
  } else {
    payment.decline_reason = charge.reason
  }
  commit(ctx, payment, previous, transaction)
}
