import type { EngineContext, SandboxMerchant } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import type { Delivery, Payment, Session } from '../engine/model.js'
import { requestLogOf } from '../request-log/index.js'
import { MAX_LISTED } from '../request-log/log.js'
import type { RequestRecord } from '../request-log/types.js'

/**
 * Everything the sandbox observed about one order of one merchant: its requests (the request
 * log), its sessions and payments, the callbacks it was sent with every attempt (the store), and
 * the clock moves and fault rules of the control API while it lasted. Read through the indexes
 * (order, payment id, record id), never by listing a collection.
 */
export interface ObservedOrder {
  merchantKey: string
  merchant: SandboxMerchant
  orderId: string
  /** The merchant's, the payer's and the console's requests about the order, oldest first. */
  records: RequestRecord[]
  /** The control API's clock moves while the order lasted (they concern every merchant). */
  sandbox: RequestRecord[]
  sessions: Session[]
  /** Oldest first. */
  payments: Payment[]
  /** Oldest first (then by their position among a payment's callbacks). */
  deliveries: Delivery[]
}

export function gatherOrder(ctx: EngineContext, orderId: string, merchantKey?: string): ObservedOrder {
  const log = requestLogOf(ctx)
  const storedPayments = ctx.store.findBy('payments', 'order_id', orderId)
  const logged = log.query({ order_id: orderId, order: 'asc', limit: MAX_LISTED }).records
  const owners = new Set([
    ...storedPayments.map((p) => p.merchant_key),
    ...logged.flatMap((r) => (r.merchant ? [r.merchant] : [])),
  ])
  if (merchantKey === undefined && owners.size > 1) throw fail('SANDBOX_ORDER_MERCHANT_AMBIGUOUS')
  const key = merchantKey ?? [...owners][0]
  const merchant = key ? ctx.merchant(key) : undefined
  if (!key || !merchant || !owners.has(key)) throw fail('SANDBOX_ORDER_NOT_FOUND')
  const records = logged.filter((r) => r.merchant === key)
  const payments = storedPayments.filter((p) => p.merchant_key === key).sort(byCreation)
  const sessionIds = new Set([
    ...payments.flatMap((p) => (p.session_id ? [p.session_id] : [])),
    ...records.flatMap((r) => (r.session_id ? [r.session_id] : [])),
  ])
  const sessions = [...sessionIds]
    .map((id) => ctx.store.get('sessions', id))
    .filter((s): s is Session => s !== undefined && s.merchant_key === key)
    .sort(byCreation)
  const deliveries = ctx.store
    .findBy('deliveries', 'order_id', orderId)
    .filter((d) => d.merchant_key === key && !d.replay_of)
    .sort((a, b) => a.created_at - b.created_at || a.seq - b.seq)
  const first = Math.min(...records.map((r) => r.seq), Number.POSITIVE_INFINITY)
  const last = Math.max(...records.map((r) => r.seq), Number.NEGATIVE_INFINITY)
  const sandbox = log
    .query({ unattributed: true, order: 'asc', limit: MAX_LISTED })
    .records.filter(
      (r) =>
        r.seq > first - 1 &&
        r.seq < last &&
        r.response.status >= 200 &&
        r.response.status < 300 &&
        r.method === 'POST' &&
        r.path === '/sandbox/clock/advance',
    )
  return { merchantKey: key, merchant, orderId, records, sandbox, sessions, payments, deliveries }
}

const byCreation = (a: { created_at: number }, b: { created_at: number }) => a.created_at - b.created_at
