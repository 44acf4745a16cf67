import { releaseOf } from '../validation/releases.js'
import type { CheckoutSessionTokenRequest } from '../../generated/types.js'
import type { SandboxMerchant, SandboxMid } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import { isZeroAmount } from '../engine/format.js'
import type { PaymentMode } from '../engine/model.js'
import { isMotoType } from './card.js'

export interface RoutingRequest {
  /** auth=true: an authorization (held funds); false: a sale. */
  auth: boolean
  /** A MOTO `moto_type` (2.5). */
  moto: boolean
  zeroAmount: boolean
  currency: string
  /** Canonical method ids the payment may use; a MID must serve at least one. Empty or absent: any. */
  methods?: string[]
}

export type RoutingResult =
  | { ok: true; mid: SandboxMid }
  | { ok: false; reason: 'moto-not-enabled' | 'no-mid' | 'zero-amount-unsupported' }

/**
 * A MID's payment mode; unset, SMS/DMS, or SMS for a merchant pinned to release 6.6.5 ("SMS as the
 * default payment mode", docs/rules.md#warnings-and-releases).
 */
export const midMode = (mid: SandboxMid, merchant?: SandboxMerchant): PaymentMode =>
  mid.payment_mode ?? (releaseOf(merchant) === '6.6.5' ? 'SMS' : 'SMS/DMS')

/** 6.7.0: "`auth=false` uses SMS and SMS/DMS MIDs for a sale, `auth=true` uses DMS and SMS/DMS MIDs". */
export function modeServes(mode: PaymentMode, auth: boolean): boolean {
  return mode === 'SMS/DMS' || mode === (auth ? 'DMS' : 'SMS')
}

const servesCurrency = (mid: SandboxMid, currency: string) =>
  !mid.currencies || (mid.currencies as readonly string[]).includes(currency.toUpperCase())

const servesMethods = (mid: SandboxMid, methods: string[] | undefined) =>
  !mid.methods || !methods?.length || methods.some((m) => mid.methods?.includes(m))

/**
 * The first MID of the merchant (in configuration order, so routing is repeatable) that can take
 * the payment. The reasons are checked in this order because each names a different fix: MOTO
 * (204025, 2.5), then payment mode, currency and method, then zero-amount support (2.1.1).
 */
export function selectMid(merchant: SandboxMerchant, request: RoutingRequest): RoutingResult {
  let candidates: SandboxMid[] = merchant.mids
  if (request.moto) {
    candidates = candidates.filter((mid) => mid.moto === true)
    if (!candidates.length) return { ok: false, reason: 'moto-not-enabled' }
  }
  candidates = candidates.filter(
    (mid) =>
      modeServes(midMode(mid, merchant), request.auth) &&
      servesCurrency(mid, request.currency) &&
      servesMethods(mid, request.methods),
  )
  if (!candidates.length) return { ok: false, reason: 'no-mid' }
  if (request.zeroAmount) {
    candidates = candidates.filter((mid) => mid.zero_amount === true)
    if (!candidates.length) return { ok: false, reason: 'zero-amount-unsupported' }
  }
  return { ok: true, mid: candidates[0] as SandboxMid }
}

const ROUTING_ROWS = {
  'moto-not-enabled': 'CHECKOUT_MOTO_NOT_ENABLED',
  'no-mid': 'ROUTING_NO_MID',
  'zero-amount-unsupported': 'CHECKOUT_PURCHASE_ZERO_AMOUNT',
} as const

/**
 * The MID a Checkout session's payments use, for the session's request and the methods it may be
 * paid with (checked at the session's creation, and again when the payer pays).
 * 2.1.1: a zero amount "is accepted only on an authorization-only request or on the request that
 * initializes a recurring chain, and only when the payment provider supports zero-value transactions".
 */
export function routeSession(
  merchant: SandboxMerchant,
  request: CheckoutSessionTokenRequest,
  methods: string[],
): SandboxMid {
  const zeroAmount = isZeroAmount(request.order.amount)
  if (zeroAmount && request.auth !== true && request.recurring_init !== true) {
    throw fail('CHECKOUT_PURCHASE_ZERO_AMOUNT')
  }
  const routed = selectMid(merchant, {
    auth: request.auth === true,
    moto: isMotoType(request.moto_type),
    zeroAmount,
    currency: request.order.currency,
    methods,
  })
  if (!routed.ok) throw fail(ROUTING_ROWS[routed.reason])
  return routed.mid
}
