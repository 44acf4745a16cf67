import { isApmPayment } from '../apm/types.js'
import { s2sApmSignatures } from '../signatures/index.js'
import { s2sBase } from './builder-s2s-card.js'
import type { BuiltCallback, CallbackInput } from './callback.js'
import { compact, flattenForm } from './form.js'
import { s2sAction } from './kinds.js'
import { alwaysFields, mappedFields } from './mapping.js'

const KEEP_EMPTY = new Set(['ARN', 'RRN'])

/**
 * S2S APM callback (schemas/callbacks/s2s-apm-callback.schema.json). Its signature "covers the
 * whole callback body (so it includes `creditvoid_id`)" (Authentication 6): every field but
 * `hash`, nested values included, so it is computed last, over exactly what is sent.
 */
export function buildS2sApmCallback(input: CallbackInput): BuiltCallback | undefined {
  const { facts, transaction: tx } = input
  const inferred = s2sAction(facts.payment, input.kind)
  if (!inferred) return undefined
  // A CREDIT2VIRTUAL or CREDIT2CRYPTO payout reports its own action (docs/rules.md#callbacks).
  const recorded = facts.payment.action
  const payout = recorded === 'CREDIT2VIRTUAL' || recorded === 'CREDIT2CRYPTO'
  const action = payout && inferred === 'DEBIT2VIRTUAL' ? recorded : inferred
  const mapped = mappedFields(facts, tx, 's2s-apm')
  // `brand` (Return additional parameters) as the merchant sent it (`applepay`), as the answers echo it.
  if (mapped.brand !== undefined && isApmPayment(facts.payment)) mapped.brand = facts.payment.apm.brand
  const body = compact(
    {
      ...s2sBase(input, action),
      ...mapped,
      ...alwaysFields(facts, tx, 's2s-apm'),
    },
    KEEP_EMPTY,
  )
  // docs/rules.md#s2s-card-formulas: payouts md5(upper(rev(trans_id + order_id + status)) + password); every other
  // callback md5(upper(values) + upper(password)); sha256 in the merchant's SHA256 mode.
  body.hash = payout
    ? s2sApmSignatures.credit2virtualCallback(
        String(body.trans_id ?? ''),
        String(body.order_id ?? ''),
        String(body.status ?? ''),
        facts.merchant,
      )
    : s2sApmSignatures.callback(body, facts.merchant)
  return { kind: action, body, fields: flattenForm(body) }
}
