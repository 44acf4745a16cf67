import type { EngineContext } from '../engine/context.js'
import { formatDay } from '../engine/format.js'
import type { Api, Payment, Transaction } from '../engine/model.js'
import { CAPTURE_DECLINED, DECLINE_REASONS } from './connector.js'
import { authorizedMinor, commit, formatMinor, minorOf, newTransaction, refundableMinor } from './ledger.js'
import { allowed, transition } from './state-machine.js'
import { assertWalletAllows } from './wallets.js'

/**
 * Capture, refund (CREDITVOID) and void of a payment, as the state table allows them: the same
 * moves for Checkout and S2S, which differ only in how they are asked and answered. Each checks
 * and writes with no `await` between, so concurrent requests run one after the other and refunds
 * never add up past what was captured. Amounts arrive already checked against the currency.
 */
export interface FollowUp {
  /** Which API asks: a refusal the interface words per API uses that API's row. */
  api: Api
  /** As the merchant sent it; absent means the full amount. */
  amount?: string
  /** 2.7 follow-up `parameters`, kept on the transaction as sent. */
  parameters?: Record<string, unknown>
}

const minorOrUndefined = (payment: Payment, amount: string | undefined) =>
  amount === undefined ? undefined : minorOf(payment, amount)

/**
 * One capture of up to the authorized amount (a partial capture settles that amount and releases
 * the rest). Test card month 03 on a held payment (docs/rules.md#test-data): the acquirer declines the
 * capture and the authorization stays held (PENDING), so it can still be released.
 */
export function capturePayment(ctx: EngineContext, payment: Payment, request: FollowUp): Transaction {
  // 2.2.3 rule 1: a wallet payment in the virtual flow has limited DMS capture.
  assertWalletAllows(payment, 'capture')
  const declined = payment.scenario === CAPTURE_DECLINED
  const move = allowed(
    transition(payment, 'CAPTURE', {
      api: request.api,
      amount: minorOrUndefined(payment, request.amount),
      outcome: declined ? 'declined' : 'approved',
    }),
  )
  const previous = payment.status
  const captured = request.amount ?? payment.order.amount
  const transaction = newTransaction(ctx, payment, {
    type: 'capture',
    status: declined ? 'fail' : 'success',
    amount: captured,
    ...(declined ? { decline_reason: DECLINE_REASONS.capture } : {}),
    ...(request.parameters ? { parameters: request.parameters } : {}),
  })
  payment.status = move.next
  if (!declined) {
    payment.amount_captured = captured
    payment.financial_day = formatDay(ctx.clock.now())
  }
  commit(ctx, payment, previous, transaction)
  return transaction
}

/**
 * A refund of a settled payment (full or partial, each its own transaction: the `creditvoid_id`),
 * the release of a held authorization in full (a reversal), or the reversal of a debit.
 */
export function refundPayment(ctx: EngineContext, payment: Payment, request: FollowUp): Transaction {
  const amount = minorOrUndefined(payment, request.amount)
  const move = allowed(transition(payment, 'REFUND', { api: request.api, amount }))
  const previous = payment.status
  // A held authorization has nothing captured: its release covers the authorized amount.
  const releasesHold = previous === 'pending'
  const minor = amount ?? (releasesHold ? authorizedMinor(payment) : refundableMinor(payment))
  const transaction = newTransaction(ctx, payment, {
    type: move.next === 'reversal' ? 'reversal' : 'refund',
    status: 'success',
    amount: formatMinor(payment, minor),
    ...(request.parameters ? { parameters: request.parameters } : {}),
  })
  if (!releasesHold) {
    payment.amount_refunded = formatMinor(payment, minorOf(payment, payment.amount_refunded || '0') + minor)
  }
  payment.status = move.next
  commit(ctx, payment, previous, transaction)
  return transaction
}

/** Cancels a SETTLED payment on its financial day; any other case is refused by the table. */
export function voidPayment(ctx: EngineContext, payment: Payment, request: FollowUp): Transaction {
  const move = allowed(transition(payment, 'VOID', { api: request.api, today: formatDay(ctx.clock.now()) }))
  const previous = payment.status
  const transaction = newTransaction(ctx, payment, {
    type: 'void',
    status: 'success',
    amount: formatMinor(payment, refundableMinor(payment)),
    ...(request.parameters ? { parameters: request.parameters } : {}),
  })
  payment.status = move.next
  commit(ctx, payment, previous, transaction)
  return transaction
}
