/**
 * (sandbox) docs/rules.md#recurring-test-amounts: the amount of a secondary recurring payment picks
 * a soft decline the merchant can retry. One rule for every API that charges a recurring payment:
 * S2S CARD RECURRING_SALE and RECURRING_DEBIT, a schedule's charge, and Checkout
 * `POST /api/v1/payment/recurring`. The platform documents RETRY "of the softly declined recurring
 * transaction" without saying how a test makes one; the sandbox's trigger is the amount `.51`.
 */

/** `Payment.scenario` of a softly declined recurring payment: RETRY (S2S) and retry (Checkout) charge it again. */
export const SOFT_DECLINE = 'soft-decline'
export const SOFT_DECLINE_REASON = 'Soft decline: retry later.'

/** The soft decline an amount asks for, if any: an amount ending in `.51` (`10.51`, `0.51`). */
export function recurringTestDecline(amount: string): { reason: string } | undefined {
  return amount.endsWith('.51') ? { reason: SOFT_DECLINE_REASON } : undefined
}
