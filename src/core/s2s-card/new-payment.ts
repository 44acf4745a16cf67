import type { EngineContext, SandboxMerchant, SandboxMid } from '../engine/context.js'
import { newPayment } from '../payments/new-payment.js'
import { fail } from '../engine/errors.js'
import type { Operation, Payment, StoredCard } from '../engine/model.js'
import { type RoutingRequest, selectMid } from '../payments/routing.js'
import { DEFAULT_DESCRIPTOR } from './response.js'

/** The routing refusals of S2S CARD, in the order selectMid checks them (2.5, 6.7.0, 2.1.1). */
const ROUTING_ROWS = {
  'moto-not-enabled': 'S2S_CARD_MOTO_NOT_ENABLED',
  'no-mid': 'ROUTING_NO_MID',
  'zero-amount-unsupported': 'S2S_CARD_SALE_ZERO_AMOUNT',
} as const

export function routeS2s(merchant: SandboxMerchant, request: Omit<RoutingRequest, 'methods'>): SandboxMid {
  const routed = selectMid(merchant, { ...request, methods: ['card'] })
  if (!routed.ok) throw fail(ROUTING_ROWS[routed.reason])
  return routed.mid
}

/** The order and delivery fields every S2S CARD payment request carries. */
export interface S2sPaymentRequest {
  order_id: string
  order_amount: string
  order_currency: string
  order_description: string
  payer_ip?: string
  term_url_3ds?: string
  callback_url?: string
  custom_data?: Record<string, unknown>
  parameters?: Record<string, unknown>
}

export interface NewPayment {
  action: string
  operation: Operation
  /** Funds only held (AUTH, SALE with auth=Y): PENDING until CAPTURE or CREDITVOID. */
  held: boolean
  card: StoredCard
  payer: Record<string, string>
}

/** (sandbox) `parameters[descriptor]` names the statement text when it fits card set 3's 20 characters. */
function descriptorOf(parameters: Record<string, unknown> | undefined): string {
  const given = parameters?.descriptor
  return typeof given === 'string' && given.length > 0 && given.length <= 20 ? given : DEFAULT_DESCRIPTOR
}

/**
 * An S2S CARD payment before the acquirer answers (status `prepare`, not stored yet). Everything
 * its follow-ups and callbacks need is on it: `action`, `callback_url`, the payer (whose e-mail
 * signs them) and the masked card.
 */
export function newS2sPayment(
  ctx: EngineContext,
  merchant: SandboxMerchant,
  mid: SandboxMid,
  request: S2sPaymentRequest,
  spec: NewPayment,
): Payment {
  const payment = newPayment(ctx, {
    api: 's2s-card',
    merchant_key: merchant.key,
    mid_id: mid.id,
    operation: spec.operation,
    method: 'card',
    order: {
      number: request.order_id,
      amount: request.order_amount,
      currency: request.order_currency,
      description: request.order_description,
    },
    auth: spec.held,
    card: spec.card,
    payer: spec.payer,
    action: spec.action,
    descriptor: descriptorOf(request.parameters),
  })
  if (request.payer_ip) payment.customer_ip = request.payer_ip
  if (request.term_url_3ds) payment.return_url = request.term_url_3ds
  if (request.callback_url) payment.callback_url = request.callback_url
  if (request.custom_data) payment.custom_data = request.custom_data
  return payment
}
