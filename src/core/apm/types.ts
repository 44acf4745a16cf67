import type { ApmDetails, Payment } from '../engine/model.js'

/** What the payer (or a scenario, or the control API) may choose on an APM simulator page (docs/rules.md#test-data). */
export type ApmOutcome = 'approve' | 'decline' | 'pending' | 'expire'

export const APM_OUTCOMES: readonly ApmOutcome[] = ['approve', 'decline', 'pending', 'expire']

export type { ApmDetails } from '../engine/model.js'

/** A payment that goes through the simulated APM connector. */
export type ApmPayment = Payment & { apm: ApmDetails }

export function isApmPayment(payment: Payment | undefined): payment is ApmPayment {
  const apm = (payment as Partial<ApmPayment> | undefined)?.apm
  return typeof apm === 'object' && apm !== null && typeof apm.group === 'string'
}

/** Decline reasons the simulated connector gives (the interface shows none for APMs). */
export const APM_DECLINE_REASONS = {
  /** vcard `fail@gmail.com`, and the simulator page's decline button. */
  declined: 'Declined',
  expired: 'Payment expired',
} as const
