import { declareControlRoute } from '../engine/pipeline.js'
import type { SandboxPaymentExport } from '../../generated/types.js'
import type { EngineContext } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import { jsonResponse } from '../engine/http.js'
import type { Chain, Delivery, Payment, SavedCard, Schedule, Session, Transaction } from '../engine/model.js'
import type { RouteDefinition } from '../engine/modules.js'
import { runnerOf } from '../schedules/runner.js'

/** What an import did, record by record. */
export interface ImportResult {
  payment_id: string
  transactions: number
  callbacks: number
  /** Callbacks that were still queued or retrying: imported as failed, so none is sent on its own. */
  callbacks_stopped: number
  session?: 'imported' | 'kept'
  card?: 'imported' | 'kept'
  schedule?: 'imported' | 'imported paused' | 'kept'
  chain?: 'imported'
}

const FINAL = new Set<Delivery['state']>(['acknowledged', 'failed'])

/**
 * Restores an export (support-export.ts) with its own ids, so the ids in a ticket, in callbacks
 * and in logs still match. Everything is checked before anything is written, with no `await`
 * between: a clash or an inconsistent file changes nothing. A session, saved card or schedule that
 * this sandbox already holds (shared with an earlier import) is kept as it is.
 */
/** Restores a document the route's declared pipeline validated against sandbox/payment-export. */
export function importPayment(ctx: EngineContext, doc: SandboxPaymentExport): ImportResult {
  // The schema checked the fields the engine relies on; the rest of each record is kept as sent.
  const payment = doc.payment as unknown as Payment
  const transactions = doc.transactions as unknown as Transaction[]
  const deliveries = doc.callbacks as unknown as Delivery[]
  const session = doc.session as unknown as Session | undefined
  const card = doc.card as unknown as SavedCard | undefined
  const schedule = doc.schedule as unknown as Schedule | undefined
  const chain = doc.chain as unknown as Chain | undefined

  if (!ctx.merchant(payment.merchant_key)) throw fail('SANDBOX_MERCHANT_UNKNOWN')
  checkBelongs(payment, transactions, deliveries, session, card, schedule, chain)
  const { store } = ctx
  const clash =
    store.get('payments', payment.id) !== undefined ||
    transactions.some((t) => store.get('transactions', t.id) !== undefined) ||
    deliveries.some((d) => store.get('deliveries', d.id) !== undefined) ||
    (chain !== undefined && store.get('chains', chain.id) !== undefined)
  if (clash) throw fail('SANDBOX_IMPORT_CLASH')

  const result: ImportResult = {
    payment_id: payment.id,
    transactions: transactions.length,
    callbacks: deliveries.length,
    callbacks_stopped: 0,
  }
  if (session) result.session = putIfAbsent(ctx, 'sessions', session)
  if (card) result.card = putIfAbsent(ctx, 'cards', card)
  if (schedule) {
    // A running schedule arrives paused: nothing is charged or sent until the operator runs it.
    const paused = schedule.state === 'running'
    const kept = putIfAbsent(ctx, 'schedules', paused ? { ...schedule, state: 'paused' } : schedule)
    result.schedule = kept === 'kept' ? 'kept' : paused ? 'imported paused' : 'imported'
  }
  store.put('payments', payment)
  for (const transaction of transactions) store.put('transactions', transaction)
  for (const delivery of deliveries) {
    if (FINAL.has(delivery.state)) {
      store.put('deliveries', delivery)
      continue
    }
    const stopped: Delivery = { ...delivery, state: 'failed' }
    delete stopped.next_attempt_at
    store.put('deliveries', stopped)
    result.callbacks_stopped++
  }
  if (chain) {
    store.put('chains', chain)
    runnerOf(ctx)?.arm(chain)
    result.chain = 'imported'
  }
  return result
}

function putIfAbsent<K extends 'sessions' | 'cards' | 'schedules'>(
  ctx: EngineContext,
  collection: K,
  record: K extends 'sessions' ? Session : K extends 'cards' ? SavedCard : Schedule,
): 'imported' | 'kept' {
  if (ctx.store.get(collection, record.id) !== undefined) return 'kept'
  ctx.store.put(collection, record as never)
  return 'imported'
}

/** Every record names the payment (or its merchant) it came with, and no id repeats. */
function checkBelongs(
  payment: Payment,
  transactions: Transaction[],
  deliveries: Delivery[],
  session: Session | undefined,
  card: SavedCard | undefined,
  schedule: Schedule | undefined,
  chain: Chain | undefined,
): void {
  const merchant = payment.merchant_key
  const ok =
    transactions.every((t) => t.payment_id === payment.id) &&
    deliveries.every((d) => d.payment_id === payment.id && d.merchant_key === merchant) &&
    unique(transactions) &&
    unique(deliveries) &&
    (!session || (session.merchant_key === merchant && session.id === payment.session_id)) &&
    (!card || (card.merchant_key === merchant && card.id === payment.card_token)) &&
    (!schedule ||
      (schedule.merchant_key === merchant && schedule.id === (chain?.schedule_id ?? payment.schedule_id))) &&
    (!chain ||
      (chain.id === payment.id && chain.merchant_key === merchant && chain.schedule_id === schedule?.id))
  if (!ok) throw fail('SANDBOX_IMPORT_INCONSISTENT')
}

const unique = (records: { id: string }[]) => new Set(records.map((r) => r.id)).size === records.length

export function importRoutes(ctx: EngineContext): RouteDefinition[] {
  return [
    declareControlRoute<SandboxPaymentExport>({
      method: 'POST',
      path: '/sandbox/import',
      summary:
        'Restore one payment exported with GET /sandbox/payments/{id}/export, with its own ids (a clash is refused, nothing is written)',
      pipeline: { schema: 'sandbox/payment-export' },
      response: 'control/import-response',
      status: 201,
      handler: ({ input }) => jsonResponse(201, importPayment(ctx, input)),
    }),
  ]
}
