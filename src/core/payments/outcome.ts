import { recordPaymentSucceeded } from '../sessions/session-lifecycle.js'
import type { EngineContext } from '../engine/context.js'
import type { Payment, Transaction } from '../engine/model.js'
import type { CardOutcome } from './connector.js'
import { chargeType, markSettled, newTransaction } from './ledger.js'
import { allowed, type Trigger, transition } from './state-machine.js'
import { issueRecurringToken, saveCard } from './tokens.js'

/**
 * Applies the acquirer's answer to a payment through the state table (`trigger` says which step
 * it answers): a decline, or an approval that holds the funds (auth, DMS: PENDING until captured)
 * or settles them (SMS). Answers the transaction to record.
 */
export function applyOutcome(
  ctx: EngineContext,
  payment: Payment,
  outcome: CardOutcome,
  trigger: Trigger,
): Transaction {
  const { next } = allowed(
    transition(payment, trigger, { outcome: outcome.kind === 'decline' ? 'declined' : 'approved' }),
  )
  if (outcome.kind === 'decline') {
    payment.status = next
    payment.decline_reason = outcome.reason
    return newTransaction(ctx, payment, {
      type: chargeType(payment),
      status: 'fail',
      decline_reason: outcome.reason,
    })
  }
  if (next === 'settled') markSettled(ctx, payment)
  else payment.status = next
  if (outcome.scenario) payment.scenario = outcome.scenario
  issueRecurringToken(ctx, payment)
  // req_token: only an approved card is worth keeping (2.1); a payment made with a token keeps that one.
  if (payment.req_token && !payment.card_token && payment.card) {
    payment.card_token = saveCard(ctx, payment.merchant_key, payment.card, {
      cardOnFile: midOf(ctx, payment)?.card_on_file === true,
    }).id
  }
  // An approved payment closes its session, through the session table; after a decline it stays open.
  recordPaymentSucceeded(ctx, payment)
  return newTransaction(ctx, payment, { type: chargeType(payment), status: 'success' })
}

export const midOf = (ctx: EngineContext, payment: Payment) =>
  ctx.merchant(payment.merchant_key)?.mids.find((mid) => mid.id === payment.mid_id)
