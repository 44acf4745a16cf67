import { recurringTestDecline, SOFT_DECLINE } from '../payments/recurring-test-amounts.js'
import { chargeOutcome } from '../checkout/operations/charge-outcome.js'
import { newPayment } from '../payments/new-payment.js'
import type { EngineContext } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import type { Payment, StoredCard } from '../engine/model.js'
import { CAPTURE_DECLINED, type CardOutcome, DECLINE_REASONS } from '../payments/connector.js'
import { commit, checkedAmount } from '../payments/ledger.js'
import { applyOutcome } from '../payments/outcome.js'

import { assertWalletAllows } from '../payments/wallets.js'

export interface RecurringCharge {
  /** Amount of this secondary payment, in the initial payment's currency. */
  amount: string
  /** This request's custom_data: the secondary payment's callback returns it (2.1), not the initial's. */
  custom_data?: Record<string, unknown>
  schedule_id?: string
  /** Default: the initial payment's order number and description (a scheduled charge has no request). */
  order_id?: string
  order_description?: string
  /** Default: the initial payment's callback_url, so a chain reports where it started. */
  callback_url?: string
  /** RECURRING_SALE with auth=Y: the funds are only held (PENDING until CAPTURE or CREDITVOID). */
  auth?: boolean
}

export type InitialPayment = Payment & { card: StoredCard; recurring: { token: string } }

/** An approved initial payment of a chain (2.3: it holds a recurring_token) with a stored card to charge. */
export function isRecurringInitial(payment: Payment | undefined): payment is InitialPayment {
  return (
    payment?.recurring?.init === true && payment.recurring.token !== undefined && payment.card !== undefined
  )
}

/** The error row of an unusable pair: "Incorrect transaction", per action (Errors). */
export const incorrectTransaction = (initial: Pick<Payment, 'operation'>) =>
  initial.operation === 'debit'
    ? 'S2S_CARD_RECURRING_DEBIT_INCORRECT_TRANSACTION'
    : 'S2S_CARD_RECURRING_SALE_INCORRECT_TRANSACTION'

/**
 * A secondary payment of a recurring chain, charged at once on the initial payment's stored card:
 * no card data, no payer, no 3DS (the CHARGE rows of the state table). Used by RECURRING_SALE,
 * RECURRING_DEBIT and the schedule runner alike; it checks no hash and knows no HTTP. The new
 * payment keeps the initial payment's API, MID, card, token and payer (whose e-mail and card
 * sign its follow-ups), and is a debit when the chain started with a debit. Throws the catalogue
 * row for an unusable initial payment or a bad amount; otherwise the payment is stored, its
 * events emitted (callbacks follow), and it is answered settled, held or declined.
 */
export function chargeRecurring(ctx: EngineContext, initial: Payment, charge: RecurringCharge): Payment {
  if (!isRecurringInitial(initial)) throw fail(incorrectTransaction(initial))
  assertWalletAllows(initial, 'recurring')
  const currency = initial.order.currency
  checkedAmount(charge.amount, currency, 'order_amount', 'S2S_CARD_OPERATION_ZERO_AMOUNT')
  const debit = initial.operation === 'debit'
  const held = charge.auth === true && !debit
  const at = ctx.clock.now()
  const payment = newPayment(ctx, {
    api: initial.api,
    merchant_key: initial.merchant_key,
    mid_id: initial.mid_id,
    operation: debit ? 'debit' : 'purchase',
    method: initial.method,
    order: {
      number: charge.order_id ?? initial.order.number,
      amount: charge.amount,
      currency,
      description: charge.order_description ?? initial.order.description,
    },
    auth: held,
    card: initial.card,
    recurring: { init: false, init_trans_id: initial.id, parent_payment_id: initial.id },
  })
  if (initial.api === 's2s-card') payment.action = debit ? 'RECURRING_DEBIT' : 'RECURRING_SALE'
  if (initial.card_token) payment.card_token = initial.card_token
  if (initial.payer) payment.payer = { ...initial.payer }
  if (initial.customer_ip) payment.customer_ip = initial.customer_ip
  if (initial.descriptor) payment.descriptor = initial.descriptor
  const callbackUrl = charge.callback_url ?? initial.callback_url
  if (callbackUrl) payment.callback_url = callbackUrl
  const scheduleId = charge.schedule_id ?? initial.schedule_id
  if (scheduleId) payment.schedule_id = scheduleId
  if (charge.custom_data) payment.custom_data = charge.custom_data
  const soft = softDecline(charge.amount)
  if (soft) payment.scenario = SOFT_DECLINE
  commit(
    ctx,
    payment,
    undefined,
    applyOutcome(ctx, payment, soft ?? secondaryOutcome(initial.card, at, held), 'CHARGE'),
  )
  return payment
}

export { SOFT_DECLINE, SOFT_DECLINE_REASON } from '../payments/recurring-test-amounts.js'

/** docs/rules.md#recurring-test-amounts: the soft decline the amount asks for, the trigger of RETRY. */
function softDecline(amount: string): CardOutcome | undefined {
  const soft = recurringTestDecline(amount)
  return soft ? { kind: 'decline', reason: soft.reason } : undefined
}

/**
 * The stored card's answer with no payer present (docs/rules.md#test-data rules, an expired card
 * declines). A hold with month 03 is approved and its capture declines later, as on any
 * authorization; on an immediate charge month 03 is the capture decline itself.
 */
function secondaryOutcome(card: StoredCard, now: number, held: boolean): CardOutcome {
  const charge = chargeOutcome(card, now)
  if (charge.outcome === 'approved') return { kind: 'approve' }
  if (held && charge.reason === DECLINE_REASONS.capture)
    return { kind: 'approve', scenario: CAPTURE_DECLINED }
  return { kind: 'decline', reason: charge.reason }
}
