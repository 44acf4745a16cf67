import { SESSION_TABLE, type SessionStatus } from '../../core/checkout/session-lifecycle.js'
import type { Collections, Payment, PaymentStatus, Session } from '../../core/engine/model.js'
import { TRANSITIONS, type Trigger } from '../../core/payments/state-machine.js'
import type { Store, StoreOp } from '../../core/ports/store.js'

/** `serve --retain N` / config `limits.retain`: finished payments and sessions a memory store keeps. */
export const DEFAULT_RETAIN = 10_000

/** The triggers that move a payment on its own: the payer, the provider or the clock (not the merchant). */
const PROGRESS_TRIGGERS: ReadonlySet<Trigger> = new Set<Trigger>([
  'PAY',
  'THREE_DS_RESULT',
  'REDIRECT_RESULT',
  'EXPIRE',
  'CHARGE',
])

/**
 * Statuses in which the payment state table can still move a payment on the payer's, the
 * provider's or the clock's behalf (a row of such a trigger that is not a refusal starts there):
 * prepare, 3ds, redirect, pending. Every other status is "finished": only a merchant's follow-up
 * (capture, refund, void, retry) or a chargeback can still change it.
 */
export const UNFINISHED_PAYMENT_STATUSES: ReadonlySet<PaymentStatus> = new Set(
  TRANSITIONS.filter((row) => PROGRESS_TRIGGERS.has(row.trigger) && typeof row.to === 'string').flatMap(
    (row) => row.from,
  ),
)

/** Session statuses the session table moves nowhere from: paid, cancelled, expired. */
export const FINAL_SESSION_STATUSES: ReadonlySet<SessionStatus> = new Set(
  SESSION_TABLE.map((row) => row.to).filter((status) => !SESSION_TABLE.some((row) => row.from === status)),
)

function sessionFinished(session: Session, now: number): boolean {
  const status = session.status === 'open' && now >= session.expires_at ? 'expired' : session.status
  return FINAL_SESSION_STATUSES.has(status)
}

const DELIVERY_PENDING = new Set(['queued', 'delivering', 'retrying'])

export interface RetentionOptions {
  retain: number
  /** Sandbox time (an open session past its expiry is expired even before the clock job stores it). */
  now: () => number
}

export interface Retention {
  /** Forgets the oldest finished units beyond `retain`; returns how many units went. */
  sweep(): number
  /** Sweeps when enough payments and sessions were added since the last sweep (cheap otherwise). */
  maybeSweep(): void
}

type Unit = { at: number; ops: () => StoreOp[] }

/**
 * Issue 11 point 5: a memory store keeps at most `retain` finished payments and sessions, oldest
 * first out, each with its transactions and callbacks (a checkout payment and its session are one
 * unit). Kept whatever their age: unfinished payments, open sessions, payments with a callback
 * still to deliver, and the initial payment of a recurring series (later charges need it).
 * The sweep runs between requests (`maybeSweep` after each answer), when the number of payments
 * and sessions has grown by 1% of `retain` since the last one, so between two sweeps the store may
 * hold up to 1% more finished records than `retain`.
 */
export function createRetention(store: Store<Collections>, options: RetentionOptions): Retention {
  const { retain } = options
  const step = Math.max(1, Math.floor(retain / 100))
  let sweptAt = 0

  function finishedUnits(): Unit[] {
    const units: Unit[] = []
    const now = options.now()
    const sessions = new Map(store.list('sessions').map((s) => [s.id, s]))
    const owned = new Set<string>()
    for (const payment of store.list('payments')) {
      const session = payment.session_id ? sessions.get(payment.session_id) : undefined
      if (session) owned.add(session.id)
      if (!paymentFinished(payment, session, now)) continue
      units.push({ at: payment.created_at, ops: () => paymentOps(payment, session) })
    }
    for (const session of sessions.values()) {
      if (owned.has(session.id) || !sessionFinished(session, now)) continue
      units.push({ at: session.created_at, ops: () => [del('sessions', session.id)] })
    }
    return units.sort((a, b) => a.at - b.at)
  }

  function paymentFinished(payment: Payment, session: Session | undefined, now: number): boolean {
    if (UNFINISHED_PAYMENT_STATUSES.has(payment.status) || payment.recurring?.init) return false
    if (session && session.status === 'open' && payment.status === 'decline' && now < session.expires_at)
      return false // the payer may still try another card
    return !store.findBy('deliveries', 'payment_id', payment.id).some((d) => DELIVERY_PENDING.has(d.state))
  }

  function paymentOps(payment: Payment, session: Session | undefined): StoreOp[] {
    return [
      ...store.findBy('transactions', 'payment_id', payment.id).map((t) => del('transactions', t.id)),
      ...store.findBy('deliveries', 'payment_id', payment.id).map((d) => del('deliveries', d.id)),
      ...(session ? [del('sessions', session.id)] : []),
      del('payments', payment.id),
    ]
  }

  function sweep(): number {
    const units = finishedUnits()
    const excess = units.length - retain
    sweptAt = total()
    if (excess <= 0) return 0
    const ops = units.slice(0, excess).flatMap((unit) => unit.ops())
    // One batch: a reader sees a payment with all its records or none of them.
    store.commit(ops).catch(() => {})
    sweptAt = total()
    return excess
  }

  const total = () => store.count('payments') + store.count('sessions')

  return {
    sweep,
    maybeSweep() {
      const n = total()
      if (n > retain && n >= sweptAt + step) sweep()
    },
  }
}

const del = (collection: keyof Collections, id: string): StoreOp => ({ collection, kind: 'delete', id })
