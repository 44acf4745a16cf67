import qs from 'qs'
import { expect } from 'vitest'
import { buildCallback, gatherFacts } from '../../src/core/callbacks/index.js'
import type { SandboxMerchant } from '../../src/core/engine/context.js'
import type { Payment, Session, Transaction, TransactionType } from '../../src/core/engine/model.js'
import { expectValid } from '../helpers/schema.js'
import { config, harness, START } from './harness.js'

const SCHEMA = 'callbacks/checkout-callback'

/** Builds a Checkout callback, checks the POSTed form reads back as the body, and validates it. */
export function buildCheckout(
  p: Payment,
  tx: Transaction,
  options: { mapping?: SandboxMerchant['protocol_mapping']; session?: Session; kind?: TransactionType } = {},
) {
  const h = harness({ config: config({ mapping: options.mapping ?? {} }) })
  if (options.session) h.store.put('sessions', options.session)
  const merchant = h.ctx.merchant(p.merchant_key) as SandboxMerchant
  const built = buildCallback({
    facts: gatherFacts(h.ctx, p, merchant),
    transaction: tx,
    kind: options.kind ?? tx.type,
  })
  if (!built) throw new Error('no callback built')
  // What the merchant's form parser reads back from the POSTed fields is what the schema checks.
  const roundTrip = qs.parse(new URLSearchParams(built.fields).toString())
  expect(roundTrip).toEqual(built.body)
  expectValid(SCHEMA, built.body)
  return built.body as Record<string, unknown>
}

/** A paid Checkout session holding `request`. */
export const session = (p: Payment, request: Record<string, unknown>): Session => ({
  id: `sess-${p.id}`,
  token: `tok-${p.id}`,
  page_token: `page-${p.id}`,
  merchant_key: p.merchant_key,
  operation: p.operation,
  methods: ['card'],
  request,
  hosted_fields: false,
  created_at: START,
  expires_at: START + 3_600_000,
  status: 'paid',
  payment_id: p.id,
})
