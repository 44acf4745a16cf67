import type { CheckoutCaptureRequest, CheckoutCaptureResponse1 } from '../../../generated/types.js'
import { authenticate, requireHash } from '../../engine/auth.js'
import { formatDay } from '../../engine/format.js'
import { jsonResponse } from '../../engine/http.js'
import type { OperationHandler } from '../../engine/modules.js'
import { validated } from '../../engine/request-validation.js'
import { CAPTURE_DECLINED, DECLINE_REASONS } from '../../payments/connector.js'
import { commit, newTransaction } from '../../payments/ledger.js'
import { transition, allowed } from '../../payments/state-machine.js'
import { checkoutSignatures } from '../../signatures/index.js'
import { checkedAmount, loadPayment, now } from './common.js'

/**
 * POST /api/v1/payment/capture: DMS capture of a held authorization. One capture of up to the
 * authorized amount; a partial capture settles that amount and releases the rest. A declined
 * capture leaves the authorization held (PENDING), so the merchant can still release it.
 */
export const capture: OperationHandler = ({ body, ctx }) => {
  const request = validated<CheckoutCaptureRequest>('checkout/capture-request', body)
  const merchant = authenticate(ctx, request.merchant_key)
  requireHash(
    request.hash,
    checkoutSignatures.amountOperation(request.payment_id, request.amount, merchant.password),
  )
  const payment = loadPayment(ctx, merchant, request.payment_id, 'CHECKOUT_PAYMENT_NOT_FOUND')
  const amount = checkedAmount(request.amount, payment.order.currency, 'amount')
  // Test card month 03 on a held payment (decisions.md §4): the acquirer declines its capture.
  const declined = payment.scenario === CAPTURE_DECLINED
  const move = allowed(
    transition(payment, 'CAPTURE', { api: 'checkout', amount, outcome: declined ? 'declined' : 'approved' }),
  )

  const previous = payment.status
  const captured = request.amount ?? payment.order.amount
  const transaction = newTransaction(ctx, payment, {
    type: 'capture',
    status: declined ? 'fail' : 'success',
    amount: captured,
    ...(declined ? { decline_reason: DECLINE_REASONS.capture } : {}),
    ...(request.parameters ? { parameters: request.parameters } : {}),
  })
  payment.status = move.next
  if (!declined) {
    payment.amount_captured = captured
    payment.financial_day = formatDay(ctx.clock.now())
  }
  commit(ctx, payment, previous, transaction)

  const answer: CheckoutCaptureResponse1 = {
    payment_id: payment.id,
    status: payment.status,
    trans_status: declined ? 'FAIL' : 'SUCCESS',
    date: now(ctx),
    ...(declined ? { reason: DECLINE_REASONS.capture } : {}),
  }
  return jsonResponse(200, answer)
}
