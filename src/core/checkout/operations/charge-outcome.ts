import type { StoredCard } from '../../engine/model.js'
import { authorizeCard, outcomeAfterPayerStep } from '../../payments/connector.js'

/**
 * The outcome of a charge made with no payer present (secondary recurring payment, its retry, a
 * payout to a saved card). The card follows the simulated acquirer's rules for an immediate sale
 * (docs/rules.md#test-data), except that no 3DS or redirect can happen: months 05, 06 and 12 give the
 * outcome their payer step would have given. Any card also declines once it has expired on the
 * sandbox clock, which is how a merchant reaches a declined recurring payment from a real chain:
 * advance the clock past the card's expiry.
 */
export type ChargeOutcome = { outcome: 'approved' } | { outcome: 'declined'; reason: string }

export const CARD_EXPIRED = 'Expired card'

const fullYear = (card: StoredCard) => {
  const year = Number(card.exp_year)
  return year < 100 ? 2000 + year : year
}

/** The first instant after the card's expiry month, UTC (cards are valid through their month). */
const expiresAt = (card: StoredCard): number => Date.UTC(fullYear(card), Number(card.exp_month), 1)

export function chargeOutcome(card: StoredCard, nowMs: number): ChargeOutcome {
  // A payout by card number alone has no expiry (docs/rules.md#card-credit): it never expires.
  const hasExpiry = Boolean(card.exp_month && card.exp_year)
  if (hasExpiry && nowMs >= expiresAt(card)) return { outcome: 'declined', reason: CARD_EXPIRED }
  const step = authorizeCard(card, { held: false, moto: true })
  const final = step.kind === '3ds' || step.kind === 'redirect' ? outcomeAfterPayerStep(card) : step
  return final.kind === 'approve' ? { outcome: 'approved' } : { outcome: 'declined', reason: final.reason }
}
