import type { CheckoutVoidRequest, CheckoutVoidResponse1 } from '../../../generated/types.js'
import { authenticate, requireHash } from '../../engine/auth.js'
import { formatDay } from '../../engine/format.js'
import { jsonResponse } from '../../engine/http.js'
import type { OperationHandler } from '../../engine/modules.js'
import { validated } from '../../engine/request-validation.js'
import { commit, formatMinor, newTransaction, refundableMinor } from '../../payments/ledger.js'
import { transition, allowed } from '../../payments/state-machine.js'
import { checkoutSignatures } from '../../signatures/index.js'
import { loadPayment, now, orderRecord } from './common.js'

/**
 * POST /api/v1/payment/void: cancels a SETTLED payment on its financial day. A refused void is
 * the error envelope (the interface's Errors row "Void is not allowed."), not a FAIL answer.
 */
export const voidPayment: OperationHandler = ({ body, ctx }) => {
  const request = validated<CheckoutVoidRequest>('checkout/void-request', body)
  const merchant = authenticate(ctx, request.merchant_key)
  requireHash(request.hash, checkoutSignatures.paymentOperation(request.payment_id, merchant.password))
  const payment = loadPayment(ctx, merchant, request.payment_id, 'CHECKOUT_PAYMENT_NOT_FOUND')
  const move = allowed(transition(payment, 'VOID', { api: 'checkout', today: formatDay(ctx.clock.now()) }))

  const previous = payment.status
  const transaction = newTransaction(ctx, payment, {
    type: 'void',
    status: 'success',
    amount: formatMinor(payment, refundableMinor(payment)),
    ...(request.parameters ? { parameters: request.parameters } : {}),
  })
  payment.status = move.next
  commit(ctx, payment, previous, transaction)

  const answer: CheckoutVoidResponse1 = {
    status: 'SUCCESS',
    payment_status: payment.status,
    payment_id: payment.id,
    date: now(ctx),
    order: orderRecord(payment.order),
  }
  return jsonResponse(200, answer)
}
