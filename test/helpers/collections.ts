import type { Collections } from '../../src/core/engine/model.js'

/**
 * The collections a payment's life writes (every one but the merchants and the callback URLs'
 * state): what the atomic-operations and payer-door tests compare before and after a failed commit.
 */
export const PAYMENT_COLLECTIONS: (keyof Collections)[] = [
  'sessions',
  'payments',
  'transactions',
  'cards',
  'schedules',
  'chains',
  'deliveries',
  'meta',
]
