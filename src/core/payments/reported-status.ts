import type { SandboxMerchant } from '../engine/context.js'
import { currencyExponent, toMinor } from '../engine/format.js'
import type { Payment, PaymentStatus } from '../engine/model.js'

/**
 * The status a payment reports to its merchant (status answers and callbacks of all three APIs),
 * docs/rules.md#partial-refunds. The payment's own status follows the interface's state table
 * (SETTLED → REFUND for a full or partial refund, "States and transitions") and decides what may
 * follow. What is reported after a partial refund is the merchant's choice,
 * `partial_refund_status`: `refund` (the interface, default) or `settled` (the platform's
 * documents: `settled` until the whole amount is refunded).
 */
export function reportedStatus(payment: Payment, merchant: SandboxMerchant | undefined): PaymentStatus {
  if (payment.status !== 'refund' || merchant?.partial_refund_status !== 'settled') return payment.status
  return partlyRefunded(payment) ? 'settled' : payment.status
}

/** Refunded less than was captured (a payment whose refunds do not yet cover its captured amount). */
export function partlyRefunded(payment: Payment): boolean {
  const exponent = currencyExponent(payment.order.currency)
  try {
    return toMinor(payment.amount_refunded, exponent) < toMinor(payment.amount_captured, exponent)
  } catch {
    return false
  }
}
