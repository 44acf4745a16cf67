import { s2sStatus } from '../core/engine/format.js'
import type { Payment, Session } from '../core/engine/model.js'
import type { ScenarioContext } from './context.js'

/**
 * What the kit's own gateway holds (merchant mode): the payments of an order in the ledger's order
 * (oldest first, as the gateway created them), a payment by id, a session by its token. Words
 * about order in a report ("the first", "the newest", "an earlier payment") come from here, never
 * from the order the kit happened to see callbacks or answers in.
 */

const storeOf = (ctx: ScenarioContext) =>
  ctx.mode === 'merchant' ? ctx.hosted?.gateway?.ctx.store : undefined

export function storedPayment(ctx: ScenarioContext, id: string | undefined): Payment | undefined {
  const payment = id ? storeOf(ctx)?.get('payments', id) : undefined
  return payment?.merchant_key === ctx.credentials.merchant_key ? payment : undefined
}

/** The merchant's payments of an order, oldest first (ties in the order the gateway stored them). */
export const orderPayments = (ctx: ScenarioContext, orderId: string): Payment[] =>
  inLedgerOrder(ctx, storeOf(ctx)?.findBy('payments', 'order_id', orderId) ?? [])

function inLedgerOrder(ctx: ScenarioContext, payments: Payment[]): Payment[] {
  const found = payments
    .filter((p) => p.merchant_key === ctx.credentials.merchant_key)
    .map((p, index) => ({ p, index }))
  found.sort((a, b) => a.p.created_at - b.p.created_at || a.index - b.index)
  return found.map(({ p }) => p)
}

export function sessionByToken(ctx: ScenarioContext, token: string | undefined): Session | undefined {
  return token ? storeOf(ctx)?.findBy('sessions', 'token', token)[0] : undefined
}

/** `the order's first payment`, `its newest`, `an earlier payment`: a payment's place among its order's. */
export function placeOf(payments: Payment[], id: string): string | undefined {
  const at = payments.findIndex((p) => p.id === id)
  if (at < 0) return undefined
  if (payments.length === 1) return "the order's only payment"
  if (at === 0) return "the order's first payment"
  if (at === payments.length - 1) return "the order's newest payment"
  return `the order's payment number ${at + 1} of ${payments.length}`
}

/** A payment's status as its API reports it (`decline` on Checkout, `DECLINED` on S2S). */
export const reportedStatus = (p: Payment): string => (p.api === 'checkout' ? p.status : s2sStatus(p.status))

/** `e443… decline, b4f7… settled`: the payments of an order, in the ledger's order. */
export const listPayments = (payments: Payment[]): string =>
  payments.map((p) => `${p.id} ${reportedStatus(p)}`).join(', ')
