import { SESSION_TABLE, type SessionStatus } from '../../core/sessions/session-lifecycle.js'
import type { PaymentStatus } from '../../core/engine/model.js'
import { TRANSITIONS, type Trigger } from '../../core/payments/state-machine.js'

/**
 * Retention itself is the engine's (src/core/engine/retention.ts, docs/rules.md#retention): the
 * gateway wraps its store with it. Re-exported here for the adapters' and the tests' use.
 */
export {
  DEFAULT_RETAIN,
  DEFAULT_RETAIN_DEMO,
  type RetainingStore,
  type RetentionOptions,
  withRetention,
} from '../../core/engine/retention.js'

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
 * provider's or the clock's behalf: prepare, 3ds, redirect, pending. Every other status is
 * "finished". (Retention forgets in creation order whatever the status; this names the set.)
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
