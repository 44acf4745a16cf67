import { luhnValid } from '../payments/card.js'

/**
 * docs/rules.md#test-cards: the expiry month picks a test card's outcome, whatever the card's brand
 * (01 success, 02 decline, 03 capture declined, 05 3DS then success, 06 3DS then decline, 12
 * redirect then success, 12/2039 redirect then decline; other months behave as 01). An observed
 * card is only kept masked, so the scenario names its outcome, never a number.
 */

export type CardOutcome =
  | 'success'
  | 'decline'
  | 'capture_decline'
  | '3ds_success'
  | '3ds_decline'
  | 'redirect_success'
  | 'redirect_decline'

/** The outcome of a card by its expiry, and a note when the month only behaves as one (07: frictionless 3DS). */
export function outcomeOfExpiry(month: string, year: string): { outcome: CardOutcome; note?: string } {
  switch (month.padStart(2, '0')) {
    case '02':
      return { outcome: 'decline' }
    case '03':
      return { outcome: 'capture_decline' }
    case '05':
      return { outcome: '3ds_success' }
    case '06':
      return { outcome: '3ds_decline' }
    case '12':
      return { outcome: year === '2039' ? 'redirect_decline' : 'redirect_success' }
    case '01':
      return { outcome: 'success' }
    case '07':
      return {
        outcome: 'success',
        note: 'the recorded card (expiry month 07) passed 3DS without a challenge; the test card of month 01 succeeds the same way, without 3DS',
      }
    default:
      return { outcome: 'success', note: `the recorded card's expiry month ${month} behaves as 01` }
  }
}

const PUBLISHED = ['4111111111111111', '4601541833776519', '1111222233334444', '5555555555554444']

/**
 * A Luhn-valid number with the first 6 and last 4 digits of a masked one (`411111******1111`):
 * the published test card with those digits when there is one, else the first such number whose
 * middle digits are zeros but the one that makes the check digit right. What a replay sends for a
 * card its input held only masked; undefined when the mask keeps fewer digits.
 */
export function numberForMasked(masked: string): string | undefined {
  const m = /^(\d{6})(\*{2,9})(\d{4})$/.exec(masked.replace(/[\s-]/g, ''))
  if (!m) return undefined
  const [, first = '', stars = '', last = ''] = m
  const length = first.length + stars.length + last.length
  const published = PUBLISHED.find((n) => n.length === length && n.startsWith(first) && n.endsWith(last))
  if (published) return published
  // The check digit is the last one, which the mask keeps: vary the middle's last digit instead.
  for (let d = 0; d <= 9; d++) {
    const candidate = `${first}${'0'.repeat(stars.length - 1)}${d}${last}`
    if (luhnValid(candidate)) return candidate
  }
  return undefined
}
