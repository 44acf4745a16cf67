import type { CheckoutStatusRequest2 } from '../../../generated/types.js'
import { CHECKOUT_FORMULAS } from '../../signatures/formulas.js'
import type { EngineContext, SandboxMerchant } from '../../engine/context.js'
import { fail, invalid } from '../../engine/errors.js'
import { jsonResponse } from '../../engine/http.js'
import type { Payment } from '../../engine/model.js'
import { declareRoute } from '../../engine/pipeline.js'
import { validate } from '../../validation/index.js'
import { releaseOf } from '../../validation/releases.js'
import { loadPayment } from './common.js'
import { statusRecord } from './status-record.js'

/**
 * `size` outside 1..100 answers the interface's own row, "size should be within 1..100", as the
 * top-level message rather than a `size: ...` item, whatever else is wrong with the request.
 */
function validatedStatus(body: Record<string, unknown>): CheckoutStatusRequest2 {
  const result = validate<CheckoutStatusRequest2>('checkout/status-request', body)
  if (result.valid) return result.data
  const sizeOutOfRange = result.errors.some(
    (e) => e.path === 'size' && ['type', 'minimum', 'maximum'].includes(e.keyword),
  )
  if (sizeOutOfRange) throw fail('CHECKOUT_STATUS_SIZE_OUT_OF_RANGE')
  throw invalid(result.errors)
}

/** The merchant's Checkout payments of an order, newest first (insertion order breaks ties). */
function paymentsOfOrder(ctx: EngineContext, merchant: SandboxMerchant, orderId: string): Payment[] {
  const found = ctx.store
    .findBy('payments', 'order_id', orderId)
    .filter((p) => p.merchant_key === merchant.key && p.api === 'checkout')
    .map((p, index) => ({ p, index }))
  found.sort((a, b) => b.p.created_at - a.p.created_at || b.index - a.index)
  return found.map(({ p }) => p)
}

/**
 * POST /api/v1/payment/status (GET_TRANS_STATUS): by payment_id, or by order_id where `size`
 * chooses the shape: omitted gives the newest payment as one object, 1 to 100 an array of up to
 * that many, newest first.
 */
export const status = declareRoute<CheckoutStatusRequest2>({
  method: 'POST',
  path: '/api/v1/payment/status',
  api: 'checkout',
  pipeline: {
    schema: 'checkout/status-request',
    validate: validatedStatus,
    credential: 'merchant_key',
    formula: CHECKOUT_FORMULAS.status,
  },
  handler: ({ input: request, merchant, ctx }) => {
    const mapping = merchant.protocol_mapping
    // docs/rules.md#releases: before 6.7.0 an unknown identifier answered 100000 "This value is not correct.",
    // and `size` did not exist.
    const legacy = releaseOf(merchant) === '6.6.5'
    if (request.payment_id !== undefined) {
      const payment = loadPayment(
        ctx,
        merchant,
        request.payment_id,
        legacy ? 'LEGACY_STATUS_INVALID_IDENTIFIER' : 'CHECKOUT_STATUS_PAYMENT_NOT_FOUND',
      )
      return jsonResponse(200, statusRecord(ctx, payment, mapping, merchant))
    }
    const payments = paymentsOfOrder(ctx, merchant, request.order_id as string)
    const [newest] = payments
    if (!newest) throw fail(legacy ? 'LEGACY_STATUS_INVALID_IDENTIFIER' : 'CHECKOUT_STATUS_ORDER_NOT_FOUND')
    if (request.size === undefined) return jsonResponse(200, statusRecord(ctx, newest, mapping, merchant))
    return jsonResponse(
      200,
      payments.slice(0, request.size).map((p) => statusRecord(ctx, p, mapping, merchant)),
    )
  },
})
