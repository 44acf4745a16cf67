import type { S2SApmDebit2VirtualCalcRequest } from '../../generated/types.js'
import { authenticate, requireHash } from '../engine/auth.js'
import type { SandboxMerchant } from '../engine/context.js'
import { currencyExponent, fromMinor, toMinor } from '../engine/format.js'
import { validated } from '../engine/request-validation.js'
import { s2sApmSignatures } from '../signatures/index.js'
import type { S2sApmAction } from './action.js'
import { brandMethod, checkMethodParameters, payoutMid } from './common.js'

/** (sandbox) Commission of a DEBIT2VIRTUAL when the merchant configures none: 3 % of the order amount. */
export const DEFAULT_COMMISSION_PERCENT = 3

/** Percent precision kept: four decimals (2.5 % is 25000 / 10000). */
const SCALE = 10_000n

/**
 * (sandbox) The commission rule. The interface names DEBIT2VIRTUAL_CALC but not how the
 * commission is computed: `commission = order_amount x percent / 100`, rounded half up to the
 * currency's minor unit, with `percent` the merchant's `debit2virtual_commission_percent`
 * (configuration, 0 to 100, default 3); `total_amount = order_amount + commission`. Exact
 * integer arithmetic in minor units, never floating point.
 */
export function commissionOf(
  amount: string,
  currency: string,
  percent: number = DEFAULT_COMMISSION_PERCENT,
): { commission: string; total_amount: string } {
  const exponent = currencyExponent(currency)
  const minor = toMinor(amount, exponent)
  const scaledPercent = BigInt(Math.round(percent * Number(SCALE)))
  const divisor = 100n * SCALE
  const commission = (minor * scaledPercent * 2n + divisor) / (2n * divisor)
  return {
    commission: fromMinor(commission, exponent),
    total_amount: fromMinor(minor + commission, exponent),
  }
}

export const commissionPercent = (merchant: SandboxMerchant): number =>
  merchant.debit2virtual_commission_percent ?? DEFAULT_COMMISSION_PERCENT

/**
 * DEBIT2VIRTUAL_CALC: what a DEBIT2VIRTUAL with the same data would cost, checked as that
 * DEBIT2VIRTUAL would be (signature, method, parameters when sent, routing), without creating
 * anything: no payment, no transaction, no callback.
 */
export const calcAction: S2sApmAction = ({ ctx, body }) => {
  const request = validated<S2SApmDebit2VirtualCalcRequest>(
    's2s-apm/debit2virtual-calc-request',
    body,
    'bracket',
  )
  const merchant = authenticate(ctx, request.client_key)
  requireHash(
    request.hash,
    s2sApmSignatures.payment(
      request.identifier,
      request.order_id,
      request.order_amount,
      request.order_currency,
      merchant.password,
    ),
  )
  const method = brandMethod(request.brand, 'DEBIT2VIRTUAL_CALC')
  if (request.parameters !== undefined) checkMethodParameters(method, request.parameters)
  payoutMid(merchant, request.order_amount, request.order_currency, method.id)
  return {
    action: 'DEBIT2VIRTUAL_CALC',
    result: 'SUCCESS',
    order_id: request.order_id,
    amount: request.order_amount,
    currency: request.order_currency,
    ...commissionOf(request.order_amount, request.order_currency, commissionPercent(merchant)),
  }
}
