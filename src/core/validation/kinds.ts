import { hasSchemaFile } from '../ports/schema-source.js'
import type { PathStyle } from './validate.js'

/** A kind of payload `paysandbox validate` (and the scenario runner) can check. */
export interface PayloadKind {
  name: string
  description: string
  pathStyle: PathStyle
  /** The schema for this payload, or a sentence saying why none fits. */
  schemaFor(data: unknown): { schema: string } | { problem: string }
}

const fixed = (
  name: string,
  schema: string,
  description: string,
  pathStyle: PathStyle = 'dot',
): PayloadKind => ({
  name,
  description,
  pathStyle,
  schemaFor: () => ({ schema }),
})

/** `GET_TRANS_STATUS_BY_ORDER` -> `get-trans-status-by-order` */
export const actionFileName = (action: string): string => action.toLowerCase().replace(/_/g, '-')

const byAction = (name: string, folder: 's2s-card' | 's2s-apm', description: string): PayloadKind => ({
  name,
  description,
  pathStyle: 'bracket',
  schemaFor(data) {
    const action = (data as { action?: unknown } | null)?.action
    if (typeof action !== 'string' || !/^[A-Z0-9_]+$/.test(action)) {
      return { problem: 'action: This value should not be blank. Name the action, for example "SALE".' }
    }
    const schema = `${folder}/${actionFileName(action)}-request.schema.json`
    if (!hasSchemaFile(schema)) return { problem: `action: "${action}" is not an action of ${folder}.` }
    return { schema }
  },
})

export const PAYLOAD_KINDS: PayloadKind[] = [
  fixed('session', 'checkout/session-request.schema.json', 'Checkout session request (2.1)'),
  fixed(
    'session-token',
    'checkout/session-token-request.schema.json',
    'Hosted Payment Fields session-token request',
  ),
  fixed('session-update', 'checkout/session-update-request.schema.json', 'PUT /api/v1/session/update body'),
  fixed(
    'hpf-purchase',
    'checkout/hpf-purchase-card-request.schema.json',
    'Hosted Payment Fields purchase card body',
  ),
  fixed('hpf-debit', 'checkout/hpf-debit-card-request.schema.json', 'Hosted Payment Fields debit card body'),
  fixed('credit', 'checkout/credit-request.schema.json', 'Checkout credit (payout) with card_token'),
  fixed('capture', 'checkout/capture-request.schema.json', 'Checkout DMS capture'),
  fixed('void', 'checkout/void-request.schema.json', 'Checkout void'),
  fixed('refund', 'checkout/refund-request.schema.json', 'Checkout refund'),
  fixed('recurring', 'checkout/recurring-request.schema.json', 'Checkout recurring (secondary) payment'),
  fixed('retry', 'checkout/retry-request.schema.json', 'Checkout retry'),
  fixed('status', 'checkout/status-request.schema.json', 'Checkout status lookup'),
  byAction('s2s-card', 's2s-card', 'S2S CARD form given as JSON; the schema is chosen by `action`'),
  byAction('s2s-apm', 's2s-apm', 'S2S APM form given as JSON; the schema is chosen by `action`'),
  fixed('callback-checkout', 'callbacks/checkout-callback.schema.json', 'Checkout callback, flat fields'),
  fixed('callback-s2s-card', 'callbacks/s2s-card-callback.schema.json', 'S2S CARD callback', 'bracket'),
  fixed('callback-s2s-apm', 'callbacks/s2s-apm-callback.schema.json', 'S2S APM callback', 'bracket'),
  fixed('redirect', 'callbacks/redirect-query.schema.json', 'Query parameters of a success/cancel redirect'),
  fixed('config', 'sandbox/config.schema.json', "The sandbox's configuration file"),
  fixed('scenario', 'sandbox/scenario.schema.json', 'A conformance scenario file'),
  fixed(
    'merchant-adapter',
    'sandbox/merchant-adapter.schema.json',
    'How the conformance runner drives a merchant',
  ),
  fixed('protocol-mapping', 'sandbox/protocol-mapping.schema.json', "A merchant's Protocol Mapping block"),
  fixed('error-response', 'errors/error-response.schema.json', 'An error answer of the gateway'),
]

export function findKind(name: string): PayloadKind | undefined {
  const known = PAYLOAD_KINDS.find((k) => k.name === name)
  if (known) return known
  // Any schema under schemas/ by its path, e.g. `methods/awcc` or `s2s-card/sale-request`.
  const schema = name.endsWith('.schema.json') ? name : `${name}.schema.json`
  if (/^[a-z0-9/_-]+\.schema\.json$/.test(schema) && hasSchemaFile(schema)) {
    return fixed(name, schema, `schemas/${schema}`, name.startsWith('s2s-') ? 'bracket' : 'dot')
  }
  return undefined
}
