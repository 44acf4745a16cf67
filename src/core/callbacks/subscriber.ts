import type { EngineContext } from '../engine/context.js'
import type { EngineEvent } from '../engine/events.js'
import type { Payment, Transaction, TransactionType } from '../engine/model.js'
import { buildCallback } from './callback.js'
import type { CallbackDelivery, DeliveryQueue } from './delivery.js'
import { callbackUrl, gatherFacts } from './facts.js'
import { chargeKind } from './kinds.js'

/**
 * Which transactions give a callback, and what it says. Operations only emit `transaction`
 * events (docs/engine.md); this table is the one place that turns them into callbacks. The
 * callback is built when the event arrives, so `order_status` / `status` is the payment's status
 * right after the transaction ("`status` in the callback is the payment status after the
 * transaction", Events).
 *
 * | transaction (kind, status)        | Checkout type / order_status / status      | S2S action / result / status          |
 * |-----------------------------------|--------------------------------------------|---------------------------------------|
 * | sale or auth, success             | sale / settled or pending / success        | SALE (as recorded) / SUCCESS / SETTLED, PENDING |
 * | sale or auth, fail                | sale / decline / fail, `reason`            | SALE / DECLINED / DECLINED, `decline_reason` |
 * | 3ds, waiting                      | 3ds / 3ds / waiting (not final)            | SALE / REDIRECT / 3DS                 |
 * | redirect, waiting                 | redirect / redirect / waiting (not final)  | SALE / REDIRECT / REDIRECT            |
 * | 3ds or redirect, success or fail  | reported as the charge it ends in, unless the payment has that charge transaction (then that one reports it) |
 * | debit                             | debit / … , with `card_token` always       | DEBIT                                 |
 * | credit                            | credit / …                                 | CARD2CARD; S2S APM DEBIT2VIRTUAL      |
 * | recurring                         | recurring / …                              | RECURRING_SALE or RECURRING_DEBIT     |
 * | capture                           | capture / settled (or pending on fail)     | CAPTURE                               |
 * | refund                            | refund / refund                            | CREDITVOID + creditvoid_id / REFUND   |
 * | reversal                          | refund / reversal (never type=reversal)    | CREDITVOID + creditvoid_id / REVERSAL |
 * | void                              | void / void                                | VOID                                  |
 * | chargeback                        | chargeback / chargeback                    | S2S CARD CHARGEBACK; S2S APM none     |
 *
 * One transaction in one status gives one callback: the same event twice (a payment committed
 * again) is not sent twice; the same transaction in a new status (3ds waiting, then success) is.
 */
export function subscribeCallbacks(ctx: EngineContext, queue: DeliveryQueue): () => void {
  // Part of the operation (docs/architecture.md): a callback that cannot be built fails the
  // operation's unit of work, so a payment never lands without its callback.
  return ctx.events.subscribe(
    (event: EngineEvent) => {
      if (event.type === 'reset') return queue.reset()
      if (event.type !== 'transaction') return
      onTransaction(ctx, queue, event.payment_id, event.transaction_id)
    },
    { partOfOperation: true },
  )
}

export function onTransaction(
  ctx: EngineContext,
  queue: DeliveryQueue,
  paymentId: string,
  transactionId: string,
): CallbackDelivery | undefined {
  const payment = ctx.store.get('payments', paymentId)
  const tx = ctx.store.get('transactions', transactionId)
  if (!payment || !tx || tx.payment_id !== payment.id) return undefined
  const merchant = ctx.merchant(payment.merchant_key)
  if (!merchant) return undefined
  const kind = reportedKind(ctx, payment, tx)
  if (!kind || alreadyReported(ctx, tx)) return undefined
  const facts = gatherFacts(ctx, payment, merchant)
  const url = callbackUrl(facts)
  if (!url) return undefined
  const built = buildCallback({ facts, transaction: tx, kind })
  if (!built) return undefined
  return queue.enqueue({
    merchant_key: payment.merchant_key,
    payment_id: payment.id,
    order_id: payment.order_id,
    api: payment.api,
    kind: built.kind,
    url,
    fields: built.fields,
    transaction_id: tx.id,
    transaction_status: tx.status,
  })
}

const CHARGES = new Set<TransactionType>(['sale', 'auth', 'debit', 'credit', 'recurring'])

/** What the transaction is reported as, or undefined when another transaction reports it. */
function reportedKind(ctx: EngineContext, payment: Payment, tx: Transaction): TransactionType | undefined {
  if (tx.type !== '3ds' && tx.type !== 'redirect') return tx.type
  if (tx.status === 'waiting') return tx.type
  const charged = ctx.store
    .findBy('transactions', 'payment_id', payment.id)
    .some((other) => other.id !== tx.id && CHARGES.has(other.type))
  return charged ? undefined : chargeKind(payment)
}

function alreadyReported(ctx: EngineContext, tx: Transaction): boolean {
  return (ctx.store.findBy('deliveries', 'payment_id', tx.payment_id) as CallbackDelivery[]).some(
    (d) => !d.replay_of && d.transaction_id === tx.id && d.transaction_status === tx.status,
  )
}
