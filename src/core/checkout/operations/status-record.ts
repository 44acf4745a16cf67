import { cardExpiration, checkoutPaymentMethod } from '../../callbacks/attributes.js'
import { walletName } from '../../payments/methods.js'
import type {
  CheckoutDateTime,
  CheckoutOrderRecord,
  CheckoutPaymentStatus,
  MotoType,
  SandboxProtocolMapping,
} from '../../../generated/types.js'
import type { EngineContext, SandboxMerchant } from '../../engine/context.js'
import { reportedStatus } from '../../payments/reported-status.js'
import { formatDateTime } from '../../engine/format.js'
import type { Payment } from '../../engine/model.js'
import { orderRecord } from './common.js'

/** `customer` of a status record (_checkout-common CustomerRecord). */
export interface CustomerRecord {
  name?: string
  email?: string
}

/** The fixed part of a status record (schemas/checkout/status-response.schema.json, $defs/Record). */
export interface StatusRecord {
  payment_id: string
  date: CheckoutDateTime
  status: CheckoutPaymentStatus
  reason?: string
  recurring_token?: string
  schedule_id?: string
  order: CheckoutOrderRecord
  customer: CustomerRecord
  moto_type?: MotoType
  [mapped: string]: unknown
}

/**
 * One payment as the status lookup reports it (docs/rules.md#transport), plus what the merchant's
 * Protocol Mapping enables (Endpoints: "`card` (masked number) and `card_expiration_date`
 * (`MM/YYYY`), ARN (omitted when missing), and the other mapped attributes listed under Events").
 * `moto_type` needs no mapping (2.5: returned in the status response).
 */
export function statusRecord(
  ctx: EngineContext,
  payment: Payment,
  mapping: SandboxProtocolMapping = {},
  merchant?: SandboxMerchant,
): StatusRecord {
  const record: StatusRecord = {
    payment_id: payment.id,
    // The date of the payment's current status: the last change made to it.
    date: formatDateTime(payment.updated_at),
    // docs/rules.md#partial-refunds: `settled` after a partial refund when the merchant chose it.
    status: reportedStatus(payment, merchant),
    order: orderRecord(payment.order),
    customer: customerOf(ctx, payment),
  }
  if (payment.status === 'decline' && payment.decline_reason) record.reason = payment.decline_reason
  if (payment.recurring?.init && payment.recurring.token) record.recurring_token = payment.recurring.token
  if (payment.schedule_id) record.schedule_id = payment.schedule_id
  if (payment.moto_type) record.moto_type = payment.moto_type as MotoType
  // docs/rules.md#method-identifiers: status answers carry `digital_wallet` (applepay, googlepay) when a device wallet paid.
  const wallet =
    walletName(payment.method) ?? walletName((payment as { digital_wallet?: string }).digital_wallet)
  if (wallet) (record as StatusRecord & { digital_wallet?: string }).digital_wallet = wallet
  return { ...record, ...mappedFields(payment, mapping) }
}

/**
 * The 2.1.2 customer: as sent with the session (a secondary recurring payment has none: its
 * initial payment's), or the names the payer entered; a value nobody gave is left out.
 */
function customerOf(ctx: EngineContext, payment: Payment): CustomerRecord {
  const parent = payment.recurring?.parent_payment_id
  const sessionId = payment.session_id ?? (parent ? ctx.store.get('payments', parent)?.session_id : undefined)
  const sent = sessionId ? ctx.store.get('sessions', sessionId)?.request.customer : undefined
  const given = (sent && typeof sent === 'object' ? sent : {}) as { name?: unknown; email?: unknown }
  const payer = payment.payer ?? {}
  const entered = [payer.payer_first_name, payer.payer_last_name].filter(Boolean).join(' ')
  const name = typeof given.name === 'string' ? given.name : entered || payment.card?.holder || undefined
  const email = typeof given.email === 'string' ? given.email : payer.payer_email
  return { ...(name ? { name } : {}), ...(email ? { email } : {}) }
}

const BROWSER_KEYS = [
  'color_depth',
  'screen_height',
  'screen_width',
  'java_enabled',
  'javascript_enabled',
  'language',
  'timezone_offset',
  'user_agent',
  'accept_headers',
  'platform',
]

function mappedFields(payment: Payment, mapping: SandboxProtocolMapping): Record<string, unknown> {
  const on = mapping.callback_fields ?? {}
  const out: Record<string, unknown> = {}
  const card = payment.card
  if (on.card && card) out.card = card.masked
  // `MM/YYYY`, as callbacks carry it; a payout card sent without expiry has none.
  const expiration = cardExpiration(card)
  if (on.card_expiration_date && expiration) out.card_expiration_date = expiration
  if (on.card_token && payment.card_token) out.card_token = payment.card_token
  if (on.customer_ip && payment.customer_ip) out.customer_ip = payment.customer_ip
  // docs/rules.md#checkout-payment-method: the method's Checkout name, the same as in callbacks.
  if (on.checkout_payment_method) out.checkout_payment_method = checkoutPaymentMethod(payment)
  // The sandbox's simulated acquirer issues no ARN, so `ARN` is always "omitted when missing".
  if (on.three_ds_attributes && payment.three_ds) Object.assign(out, payment.three_ds.attributes)
  if (on.browser_attributes && payment.browser_info) {
    for (const key of BROWSER_KEYS) {
      const value = payment.browser_info[key]
      if (value !== undefined) out[`browser_${key}`] = value
    }
  }
  for (const [key, enabled] of Object.entries(mapping.payer_attributes ?? {})) {
    const value = payment.payer?.[key]
    if (enabled && value !== undefined) out[key] = value
  }
  for (const parameter of mapping.return_additional_parameters ?? []) {
    if (parameter === 'payment_method') out.payment_method = payment.method
    if (parameter === 'brand' && card) out.brand = card.brand
  }
  return out
}
