import type { EngineContext } from '../engine/context.js'
import type { Payment, SavedCard, StoredCard } from '../engine/model.js'

/**
 * Saves a card as a `card_token` (2.1 req_token). With card-on-file on the MID it is also a
 * stored credential (2.6): the flag is kept so callbacks and later payments can say so.
 */
export function saveCard(
  ctx: EngineContext,
  merchantKey: string,
  card: StoredCard,
  options: { cardOnFile: boolean; payeeFirstName?: string; payeeLastName?: string },
): SavedCard {
  const saved: SavedCard = {
    // docs/rules.md#identifiers: `card_token` is 64 hexadecimal characters (the platform's "String 64 characters").
    id: ctx.ids.token(32),
    merchant_key: merchantKey,
    card,
    card_on_file: options.cardOnFile,
    created_at: ctx.clock.now(),
    ...(options.payeeFirstName ? { payee_first_name: options.payeeFirstName } : {}),
    ...(options.payeeLastName ? { payee_last_name: options.payeeLastName } : {}),
  }
  ctx.store.put('cards', saved)
  return saved
}

/** A merchant's saved card; another merchant's token answers exactly as an unknown one. */
export function findSavedCard(
  ctx: EngineContext,
  merchantKey: string,
  token: unknown,
): SavedCard | undefined {
  if (typeof token !== 'string' || !token) return undefined
  const card = ctx.store.get('cards', token)
  return card && card.merchant_key === merchantKey ? card : undefined
}

/**
 * 2.3: an approved initial payment of a recurring chain gets its `recurring_token`; its own id is
 * the `recurring_init_trans_id` that secondary payments quote.
 */
export function issueRecurringToken(ctx: EngineContext, payment: Payment): void {
  if (!payment.recurring?.init || payment.recurring.token) return
  // docs/rules.md#identifiers: `recurring_token` is a UUID, as `trans_id` and `payment_id`.
  payment.recurring = { ...payment.recurring, token: ctx.ids.uuid(), init_trans_id: payment.id }
}
