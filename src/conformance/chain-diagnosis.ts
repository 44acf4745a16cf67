import type { Payment } from '../core/engine/model.js'
import type { ScenarioContext } from './context.js'
import type { ObservedRequest } from './sandbox-host.js'

/**
 * A renewal of a recurring chain refused by docs/rules.md#recurring-payments ("Incorrect
 * transaction", 2.3; Errors): what the pair it named is, from the kit's own gateway. Every renewal is charged against the chain's initial
 * payment (Checkout `recurring_init_trans_id`, S2S CARD `recurring_first_trans_id`) with the token
 * it answered; a renewal's own id is no initial payment, whichever renewal it is.
 */

const RENEWALS = new Set(['RECURRING_SALE', 'RECURRING_DEBIT'])

/** The id a renewal request names as its chain's initial payment. */
function namedInitial(r: ObservedRequest): { field: string; id: string } | undefined {
  const body = r.body ?? {}
  const checkout = r.path === '/api/v1/payment/recurring'
  if (!checkout && !RENEWALS.has(String(body.action ?? ''))) return undefined
  const field = checkout
    ? 'recurring_init_trans_id'
    : body.recurring_first_trans_id !== undefined
      ? 'recurring_first_trans_id'
      : 'recurring_init_trans_id'
  const id = body[field]
  return typeof id === 'string' ? { field, id } : undefined
}

/**
 * The cause and fix of a renewal the gateway refused by its rule of recurring payments that named a
 * payment of the chain other than its initial one; undefined for any other request.
 */
export function chainDiagnosis(
  r: ObservedRequest,
  ctx: ScenarioContext,
): { fix: string; cause: string } | undefined {
  const named = namedInitial(r)
  const store = ctx.hosted?.gateway.ctx.store
  if (!named || !store) return undefined
  const payment: Payment | undefined = store.get('payments', named.id)
  const initialId = payment?.recurring?.parent_payment_id ?? payment?.recurring?.init_trans_id
  if (!payment || payment.recurring?.init || !initialId || initialId === payment.id) return undefined
  const initial = store.get('payments', initialId)
  const what = `${payment.id}, a renewal of the chain (order ${payment.order.number}, ${payment.status})`
  return {
    cause: `the merchant stored a renewal as the chain's initial transaction: its ${named.field} names ${what}, not the chain's initial payment ${initialId}${initial ? ` (order ${initial.order.number})` : ''}`,
    fix: `send ${named.field} ${initialId}, the initial payment's id, with its recurring_token, for every renewal; keep it with the chain and never replace it with a renewal's id`,
  }
}
