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
  const action = s2sAction(facts.payment, input.kind)
  if (!action) return undefined
  const body = compact(
    {
      ...s2sBase(input, action),
      ...mappedFields(facts, tx, 's2s-apm'),
      ...alwaysFields(facts, tx, 's2s-apm'),
    },
    KEEP_EMPTY,
  )
  body.hash = s2sApmSignatures.callback(body, facts.merchant.password)
  return { kind: action, body, fields: flattenForm(body) }
}
