import { apiSession } from '../engine/auth.js'
import { requireMove } from '../sessions/session-lifecycle.js'
import type { EngineContext } from '../engine/context.js'
import type { Session, StoredCard } from '../engine/model.js'
import { checkedCard } from './card-entry.js'

/**
 * docs/rules.md#hosted-payment-fields: "the card data goes from the fields' frames into the session, never through the
 * merchant". The card field's frame of /sdk/hosted-fields.js gathers the three fields' values from
 * its sibling frames (same origin, the merchant's page is not on that channel) and sends them here
 * when the merchant's page calls `hostedFields.collectIframesData()`. The card is checked as the
 * hosted page checks it and kept masked on the session (`entered_card`); the merchant's payment
 * request (`with_hosted_fields: true`, no card data) then pays with it. The full number and the
 * security code are never stored. Collecting again replaces the card (a payer who corrects it).
 */
export function collectHostedFields(
  ctx: EngineContext,
  token: string,
  body: Record<string, unknown>,
): { session: Session; card: StoredCard } {
  const session = apiSession(ctx, token)
  // Same rule as paying: only a session its payer may still pay (open, or open again after a decline).
  requireMove(ctx, session, 'pay', 'payer')
  const card = checkedCard(ctx, session, {
    card_number: str(body.card_number),
    card_exp_month: str(body.card_exp_month),
    card_exp_year: str(body.card_exp_year),
    card_cvv2: str(body.card_cvv2),
    card_holder: str(body.card_holder),
  })
  const updated: Session = { ...session, entered_card: card }
  ctx.store.put('sessions', updated)
  return { session: updated, card }
}

const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined
