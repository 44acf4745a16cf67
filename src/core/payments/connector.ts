import { maskCard } from '../engine/format.js'
import type { StoredCard } from '../engine/model.js'

/**
 * The simulated card acquirer. Test cards follow the platform's conventions (docs/rules.md#test-data,
 * docs/engine.md): the expiry month picks the outcome. It works on the stored (masked) card, so a
 * 3DS or redirect step finished later decides from the same data the store keeps.
 */

export const DECLINE_REASONS = {
  // docs/rules.md#test-cards: month 02 declines with the platform's words.
  issuer: 'Declined by processing.',
  capture: 'Capture declined',
  brand: 'Brand of card does not support.',
  threeDs: '3-D Secure authentication failed',
} as const

/** `Payment.scenario` of expiry month 03 on a held payment: a later capture is declined. */
export const CAPTURE_DECLINED = 'capture-declined'

const BRAND_UNSUPPORTED = maskCard('1111222233334444')

/**
 * (sandbox) docs/rules.md#test-cards: the recipient card a payout to declines. The platform names
 * a recipient that succeeds (4601541833776519) and none that declines; this is the next
 * Luhn-valid number after it. As a payer's card it follows the month rules like any other.
 */
export const DECLINED_RECIPIENT = '4601541833776527'
const DECLINED_RECIPIENT_MASKED = maskCard(DECLINED_RECIPIENT)

/**
 * Why the simulated acquirer declines crediting this card (a payout, the payee of a transfer),
 * whatever its expiry: the declining test recipient. Undefined for any other card.
 */
export function payoutDecline(card: StoredCard): string | undefined {
  return card.masked === DECLINED_RECIPIENT_MASKED ? DECLINE_REASONS.issuer : undefined
}

export type CardOutcome =
  | { kind: 'approve'; scenario?: string; frictionless?: boolean }
  | { kind: 'decline'; reason: string }

export type FirstStep = CardOutcome | { kind: '3ds' } | { kind: 'redirect' }

export interface AuthorizeOptions {
  /** Funds are only held (auth=true, or a DMS MID): month 03 authorizes and its capture fails later. */
  held: boolean
  /** A MOTO value of 2.5: the MPI (3DS) service is not started, so 05/06 go straight to their outcome. */
  moto: boolean
}

/** The acquirer's first answer to a card payment. */
export function authorizeCard(card: StoredCard, options: AuthorizeOptions): FirstStep {
  if (card.masked === BRAND_UNSUPPORTED) return { kind: 'decline', reason: DECLINE_REASONS.brand }
  switch (card.exp_month) {
    case '02':
      return { kind: 'decline', reason: DECLINE_REASONS.issuer }
    case '03':
      // A sale authorizes and captures in one step, so the capture decline declines the sale itself.
      return options.held
        ? { kind: 'approve', scenario: CAPTURE_DECLINED }
        : { kind: 'decline', reason: DECLINE_REASONS.capture }
    case '05':
    case '06':
      return options.moto ? outcomeAfterPayerStep(card) : { kind: '3ds' }
    case '07':
      // (sandbox) 3DS without a challenge: the issuer authenticates on the collected data alone.
      return options.moto ? { kind: 'approve' } : { kind: 'approve', frictionless: true }
    case '12':
      return { kind: 'redirect' }
    default:
      return { kind: 'approve' }
  }
}

/** The outcome once the payer passed 3DS or came back from the redirect: 06 and 12/2039 decline. */
export function outcomeAfterPayerStep(card: StoredCard): CardOutcome {
  if (card.exp_month === '06') return { kind: 'decline', reason: DECLINE_REASONS.issuer }
  if (card.exp_month === '12' && card.exp_year === '2039') {
    return { kind: 'decline', reason: DECLINE_REASONS.issuer }
  }
  return { kind: 'approve' }
}
