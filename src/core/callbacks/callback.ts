import type { Transaction, TransactionType } from '../engine/model.js'
import { buildCheckoutCallback } from './builder-checkout.js'
import { buildS2sApmCallback } from './builder-s2s-apm.js'
import { buildS2sCardCallback } from './builder-s2s-card.js'
import type { PaymentFacts } from './facts.js'
import type { FormBody } from './form.js'

export interface CallbackInput {
  facts: PaymentFacts
  transaction: Transaction
  /** What the transaction is reported as (a finished 3DS step is reported as the charge it ends in). */
  kind: TransactionType
}

export interface BuiltCallback {
  /** Checkout `type` or S2S `action`. */
  kind: string
  /** As the merchant's form parser reads it (nested values as objects); what the schemas validate. */
  body: FormBody
  /** As POSTed: flat keys, bracket notation. */
  fields: Record<string, string>
}

/** The signed callback of one transaction, in its payment's API; undefined when that API has none for it. */
export function buildCallback(input: CallbackInput): BuiltCallback | undefined {
  switch (input.facts.payment.api) {
    case 'checkout':
      return buildCheckoutCallback(input)
    case 's2s-card':
      return buildS2sCardCallback(input)
    case 's2s-apm':
      return buildS2sApmCallback(input)
  }
}
