import type { EngineContext } from '../engine/context.js'
import { fail, invalid } from '../engine/errors.js'
import { currencyExponent, formatDay, fromMinor, isZeroAmount, toMinor } from '../engine/format.js'
import { SCHEMA_BASE, validate } from '../validation/index.js'
import type {
  Payment,
  PaymentStatus,
  Transaction,
  TransactionStatus,
  TransactionType,
} from '../engine/model.js'

/**
 * What a payment's money looks like, and how a change to a payment is written down: every
 * operation that moves a payment goes through `commit`, so the store and the event stream never
 * disagree. The session flow, the follow-up operations and the S2S APIs all use it.
 */

const exponentOf = (payment: Payment): number => currencyExponent(payment.order.currency)

/** An amount of the payment's currency in minor units. */
export const minorOf = (payment: Payment, amount: string): bigint => toMinor(amount, exponentOf(payment))

export const formatMinor = (payment: Payment, minor: bigint): string => fromMinor(minor, exponentOf(payment))

/** The authorized (or ordered) amount. */
export const authorizedMinor = (payment: Payment): bigint => minorOf(payment, payment.order.amount)

/** What can still be refunded or reversed: captured minus already refunded. */
export const refundableMinor = (payment: Payment): bigint =>
  minorOf(payment, payment.amount_captured || '0') - minorOf(payment, payment.amount_refunded || '0')

/** `0.00` in the order's currency: the starting value of amount_captured and amount_refunded. */
export const zeroAmount = (currency: string): string => fromMinor(0n, currencyExponent(currency))

/** The transaction that takes (or holds) the money: auth when held, debit for a debit, else a sale. */
export function chargeType(payment: Payment): TransactionType {
  if (payment.auth) return 'auth'
  return payment.operation === 'debit' ? 'debit' : 'sale'
}

/** Funds taken: the whole order amount is captured on this financial day (void is allowed on it only). */
export function markSettled(ctx: EngineContext, payment: Payment): void {
  payment.status = 'settled'
  payment.amount_captured = payment.order.amount
  payment.financial_day = formatDay(ctx.clock.now())
}

/** The payment's transactions of one type, oldest first. */
export const transactionsOf = (ctx: EngineContext, paymentId: string, type: TransactionType): Transaction[] =>
  ctx.store.findBy('transactions', 'payment_id', paymentId).filter((tx) => tx.type === type)

export interface TransactionFields {
  type: TransactionType
  status: TransactionStatus
  /** Defaults to the order amount. */
  amount?: string
  decline_reason?: string
  parameters?: Record<string, unknown>
}

/** A new transaction of the payment (not yet stored: `commit` stores it). */
export function newTransaction(ctx: EngineContext, payment: Payment, fields: TransactionFields): Transaction {
  const transaction: Transaction = {
    id: ctx.ids.uuid(),
    payment_id: payment.id,
    type: fields.type,
    status: fields.status,
    amount: fields.amount ?? payment.order.amount,
    created_at: ctx.clock.now(),
  }
  if (fields.decline_reason !== undefined) transaction.decline_reason = fields.decline_reason
  if (fields.parameters !== undefined) transaction.parameters = fields.parameters
  return transaction
}

/**
 * Stores the payment and its transactions, then announces them. Both records are written before
 * any event leaves, so a listener (the callbacks module) that reads the store sees the payment
 * status after the transaction, which is what the interface's callback `status` means.
 * `previous` is the status before the change (undefined for a new payment).
 */
export function commit(
  ctx: EngineContext,
  payment: Payment,
  previous: PaymentStatus | undefined,
  transactions: Transaction | Transaction[] = [],
): void {
  const list = Array.isArray(transactions) ? transactions : [transactions]
  const at = ctx.clock.now()
  payment.updated_at = at
  ctx.store.put('payments', payment)
  for (const transaction of list) ctx.store.put('transactions', transaction)
  for (const transaction of list) {
    ctx.events.emit({
      type: 'transaction',
      payment_id: payment.id,
      transaction_id: transaction.id,
      kind: transaction.type,
      status: transaction.status,
      at,
    })
  }
  if (previous !== payment.status) {
    ctx.events.emit({
      type: 'payment',
      payment_id: payment.id,
      merchant_key: payment.merchant_key,
      status: payment.status,
      at,
    })
  }
}

const AMOUNT_MATCHES_CURRENCY = `${SCHEMA_BASE}common.schema.json#/$defs/AmountMatchesCurrency`

/**
 * An amount sent without its currency (capture, refund, CREDITVOID, a secondary recurring payment)
 * must carry exactly the decimals of the currency it is charged in, with the schema's own
 * messages at the field the merchant sent, and be above zero (2.1.1: zero only on an
 * authorization or a recurring initialization; `zeroRow` is the API's row for that). Answers minor
 * units, or undefined when no amount was sent.
 */
export function checkedAmount(
  amount: string | undefined,
  currency: string,
  field: string,
  zeroRow: string,
): bigint | undefined {
  if (amount === undefined) return undefined
  const result = validate(AMOUNT_MATCHES_CURRENCY, { amount, currency })
  if (!result.valid) throw invalid(result.errors.map((e) => ({ ...e, path: field })))
  if (isZeroAmount(amount)) throw fail(zeroRow)
  return toMinor(amount, currencyExponent(currency))
}
