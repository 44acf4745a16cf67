import type { EngineContext } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import type { Payment, Session } from '../engine/model.js'

/**
 * The session state table (docs/architecture.md), the companion of the payment state machine.
 * A session is `open` until its payer starts a payment (`paying`), which ends `paid`, or back
 * `open` after a decline so the payer can try another card; the payer may cancel an open session
 * and the clock expires it. Who may move it is part of each row: the page token reaches only the
 * payer's rows; merchant rows need the token from `/api/v1/session/token` (docs/rules.md#sessions).
 *
 * `paying` and the return to `open` follow the session's payment, so they are read from it rather
 * than stored twice; the final states `paid`, `cancelled` and `expired` are stored when they happen
 * (listings and retention read them), and only through this table (`storeMove`): no other module
 * writes a session's status.
 */
export type SessionStatus = 'open' | 'paying' | 'paid' | 'cancelled' | 'expired'
export type SessionTrigger = 'pay' | 'payment-succeeded' | 'payment-declined' | 'update' | 'cancel' | 'expire'
export type SessionActor = 'payer' | 'merchant' | 'engine' | 'clock'

export interface SessionRow {
  from: SessionStatus
  trigger: SessionTrigger
  actor: SessionActor
  to: SessionStatus
  source: string
}

// prettier-ignore
export const SESSION_TABLE: readonly SessionRow[] = [
  {
    from: 'open',
    trigger: 'pay',
    actor: 'payer',
    to: 'paying',
    source: 'interface 2.1: the payer pays on the hosted page or through Hosted Payment Fields',
  },
  {
    from: 'paying',
    trigger: 'payment-succeeded',
    actor: 'engine',
    to: 'paid',
    source: 'interface: States and transitions (the payment leaves 3ds/redirect/prepare)',
  },
  {
    from: 'paying',
    trigger: 'payment-declined',
    actor: 'engine',
    to: 'open',
    source: 'sandbox: the hosted page lets the payer try another card after a decline',
  },
  {
    from: 'open',
    trigger: 'update',
    actor: 'merchant',
    to: 'open',
    source: 'docs/rules.md#session-update: PUT /session/update until any payment exists',
  },
  { from: 'open', trigger: 'cancel', actor: 'payer', to: 'cancelled', source: 'interface 2.1: cancel_url' },
  {
    from: 'open',
    trigger: 'expire',
    actor: 'clock',
    to: 'expired',
    source: 'docs/rules.md#session-expiry: session_expiry minutes on the sandbox clock',
  },
]

const PAYING = new Set(['prepare', '3ds', 'redirect'])

/** Where a session stands now (the clock may have expired it since it was stored). */
export function sessionStatus(
  ctx: EngineContext,
  session: Session,
  payment = paymentOf(ctx, session),
): SessionStatus {
  if (session.status === 'cancelled') return 'cancelled'
  if (payment && PAYING.has(payment.status)) return 'paying'
  if (payment && payment.status !== 'decline') return 'paid'
  if (session.status === 'expired' || ctx.clock.now() >= session.expires_at) return 'expired'
  return 'open'
}

export const paymentOf = (ctx: EngineContext, session: Session): Payment | undefined =>
  session.payment_id ? ctx.store.get('payments', session.payment_id) : undefined

/** The row a trigger takes from the session's current state, or undefined when none does. */
export function sessionRow(
  status: SessionStatus,
  trigger: SessionTrigger,
  actor: SessionActor,
): SessionRow | undefined {
  return SESSION_TABLE.find((r) => r.from === status && r.trigger === trigger && r.actor === actor)
}

/**
 * Refuses a move the table does not allow, with the answer the interface gives for it: an
 * expired session "Session has expired.", a session with a payment "A payment already exists"
 * (paying) or, for the merchant's update, "Session can not be updated." (any payment, declined
 * included: docs/rules.md#sessions).
 */
export function requireMove(
  ctx: EngineContext,
  session: Session,
  trigger: SessionTrigger,
  actor: SessionActor,
): void {
  const status = sessionStatus(ctx, session)
  if (trigger === 'update' && session.payment_id) throw fail('SESSION_UPDATE_NOT_ALLOWED')
  if (sessionRow(status, trigger, actor)) return
  if (status === 'expired') throw fail('SESSION_EXPIRED')
  if (status === 'cancelled') throw fail('SESSION_CANCELLED')
  if (trigger === 'update') throw fail('SESSION_UPDATE_NOT_ALLOWED')
  if (status === 'paying' || status === 'paid') throw fail('CHECKOUT_SESSION_PAYMENT_EXISTS')
  throw fail('PAYER_ACTION_NOT_ALLOWED')
}

/** The states a session record stores: the final ones (the others are read from its payment). */
export const STORED_SESSION_STATES: ReadonlySet<SessionStatus> = new Set(['paid', 'cancelled', 'expired'])

/**
 * The one writer of a session's stored status: the row `from` + `trigger` + `actor` of the table,
 * whose `to` is stored when it is a stored state. A move the table lacks is the engine's defect.
 */
function storeMove(
  ctx: EngineContext,
  session: Session,
  from: SessionStatus,
  trigger: SessionTrigger,
  actor: SessionActor,
): Session {
  const row = sessionRow(from, trigger, actor)
  if (!row) throw new Error(`session table: no row ${from} --${trigger} (${actor})-->`)
  if (!STORED_SESSION_STATES.has(row.to)) return session
  const moved: Session = { ...session, status: row.to as Session['status'] }
  ctx.store.put('sessions', moved)
  return moved
}

/** The payer gives up on the hosted page (row open → cancelled). */
export function cancelSession(ctx: EngineContext, session: Session): Session {
  requireMove(ctx, session, 'cancel', 'payer')
  return storeMove(ctx, session, 'open', 'cancel', 'payer')
}

/**
 * The session's payment was approved (row paying → paid): the session is closed, stored `paid`.
 * After a decline nothing is stored: the session reads `open` again from its payment.
 */
export function recordPaymentSucceeded(ctx: EngineContext, payment: Payment): void {
  if (!payment.session_id) return
  const session = ctx.store.get('sessions', payment.session_id)
  if (session && session.status === 'open') storeMove(ctx, session, 'paying', 'payment-succeeded', 'engine')
}

/**
 * Records an expiry the clock has reached, so the control API and the console list the session
 * as expired too. A session that is not open (paid, cancelled) keeps its state.
 */
export function recordExpiry(ctx: EngineContext, session: Session): void {
  if (session.status === 'open' && sessionStatus(ctx, session) === 'expired')
    storeMove(ctx, session, 'open', 'expire', 'clock')
}
