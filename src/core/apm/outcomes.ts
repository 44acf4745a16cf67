import type { EngineContext } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import type { Transaction, TransactionStatus } from '../engine/model.js'
import { commit, newTransaction } from '../payments/ledger.js'
import { allowed, type Outcome, type Trigger, transition } from '../payments/state-machine.js'
import { apmChargeType, applyFinal } from './connector.js'
import { completeWalletApproval } from '../payments/wallets.js'
import { APM_DECLINE_REASONS, type ApmOutcome, type ApmPayment, isApmPayment } from './types.js'

/**
 * The outcomes of an APM simulator page as engine operations: the page, the scenario runner and
 * the control API all call these. Each moves the payment through the state table only:
 *
 * | operation     | from                       | trigger          | to                        |
 * |---------------|----------------------------|------------------|---------------------------|
 * | approveApm    | redirect                   | REDIRECT_RESULT  | settled (pending if held) |
 * | approveApm    | pending, not held          | REDIRECT_RESULT  | settled                   |
 * | declineApm    | redirect, pending not held | REDIRECT_RESULT  | decline                   |
 * | leavePending  | redirect, not held         | REDIRECT_RESULT  | pending (waiting)         |
 * | expireApm     | redirect, pending not held | EXPIRE           | decline                   |
 *
 * Anything else is refused by the table's own row. Leaving the page closes its `redirect`
 * transaction; the money moves in a charge transaction (sale, auth or credit). A pending payment's
 * charge waits in status `undefined` (callback result UNDEFINED) and is finished later, so the
 * merchant gets one callback per state of that one transaction.
 */

const TRIGGER: Record<ApmOutcome, Trigger> = {
  approve: 'REDIRECT_RESULT',
  decline: 'REDIRECT_RESULT',
  pending: 'REDIRECT_RESULT',
  expire: 'EXPIRE',
}

const TABLE_OUTCOME: Record<ApmOutcome, Outcome | undefined> = {
  approve: 'approved',
  decline: 'declined',
  pending: 'waiting',
  expire: undefined,
}

const CHARGE_STATUS: Record<ApmOutcome, TransactionStatus> = {
  approve: 'success',
  decline: 'fail',
  pending: 'undefined',
  expire: 'fail',
}

/** The merchant-independent lookup of the sandbox's own operations (control API, simulator page). */
export function loadApmPayment(ctx: EngineContext, paymentId: string): ApmPayment {
  const payment = ctx.store.get('payments', paymentId)
  if (!payment) throw fail('SANDBOX_PAYMENT_NOT_FOUND')
  // A card payment has no simulator page: its payer steps are the 3DS and redirect pages.
  if (!isApmPayment(payment)) throw fail('PAYER_ACTION_NOT_ALLOWED')
  return payment
}

export const approveApm = (ctx: EngineContext, paymentId: string): ApmPayment =>
  applyApmOutcome(ctx, paymentId, 'approve')

export const declineApm = (ctx: EngineContext, paymentId: string, reason?: string): ApmPayment =>
  applyApmOutcome(ctx, paymentId, 'decline', reason)

export const leavePending = (ctx: EngineContext, paymentId: string): ApmPayment =>
  applyApmOutcome(ctx, paymentId, 'pending')

export const expireApm = (ctx: EngineContext, paymentId: string): ApmPayment =>
  applyApmOutcome(ctx, paymentId, 'expire')

/** Whether the state table allows the outcome now (the simulator page shows only those buttons). */
export function outcomeAllowed(payment: ApmPayment, outcome: ApmOutcome): boolean {
  return transition(payment, TRIGGER[outcome], { api: payment.api, outcome: TABLE_OUTCOME[outcome] }).ok
}

export function applyApmOutcome(
  ctx: EngineContext,
  paymentId: string,
  outcome: ApmOutcome,
  reason?: string,
): ApmPayment {
  const payment = loadApmPayment(ctx, paymentId)
  const { next } = allowed(
    transition(payment, TRIGGER[outcome], { api: payment.api, outcome: TABLE_OUTCOME[outcome] }),
  )
  const previous = payment.status
  const chargeStatus = CHARGE_STATUS[outcome]
  const declineReason =
    outcome === 'decline'
      ? reason || APM_DECLINE_REASONS.declined
      : outcome === 'expire'
        ? APM_DECLINE_REASONS.expired
        : undefined

  const transactions = ctx.store.findBy('transactions', 'payment_id', payment.id)
  const leftPage = outcome === 'approve' || outcome === 'pending'
  const closed: Transaction[] = transactions
    .filter((tx) => tx.type === 'redirect' && tx.status === 'waiting')
    .map((tx) => ({ ...tx, status: leftPage ? 'success' : 'fail' }))
  const waiting = transactions.find((tx) => tx.type === apmChargeType(payment) && tx.status === 'undefined')
  const charge: Transaction = waiting
    ? { ...waiting, status: chargeStatus }
    : newTransaction(ctx, payment, { type: apmChargeType(payment), status: chargeStatus })
  if (declineReason) charge.decline_reason = declineReason

  if (outcome === 'pending') payment.status = next
  else
    applyFinal(
      ctx,
      payment,
      next,
      declineReason ? { kind: 'decline', reason: declineReason } : { kind: 'approve' },
    )
  // 2.2.3: an approved card-flow wallet payment that initializes a chain gets its recurring token,
  // whoever approves it (the simulator page, the control API, the kit, the console).
  if (outcome === 'approve') completeWalletApproval(ctx, payment)
  commit(ctx, payment, previous, [...closed, charge])
  return payment
}
