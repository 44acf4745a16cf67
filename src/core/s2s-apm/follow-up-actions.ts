import type {
  S2SApmCaptureRequest,
  S2SApmCreditvoidRequest,
  S2SApmVoidRequest,
} from '../../generated/types.js'
import { declareAction } from '../engine/pipeline.js'
import type { ApmPayment } from '../apm/types.js'
import { checkedAmount } from '../payments/ledger.js'
import { capturePayment, refundPayment, voidPayment } from '../payments/follow-ups.js'
import type { S2sApmAction } from './action.js'
import { transactionPipeline } from './common.js'
import { paymentAnswer } from './response.js'

/**
 * CAPTURE, VOID and CREDITVOID, on the payment `trans_id` names. Each loads,
 * checks and writes with no `await` between, so concurrent requests cannot overdraw a payment.
 * Not-found rows follow the interface's per-entity rule, assumed for S2S APM (Errors: "S2S APM
 * equivalents of the table are not established; the per-entity pattern is assumed but
 * unconfirmed"): CAPTURE names a transaction (101000), VOID and CREDITVOID a payment (100000
 * "Payment not found.").
 */

/**
 * States: "PENDING | CAPTURE ... with the authorization `trans_id` | ... | settled (funds taken)".
 * S2S APM 3.6.2 (S2S APM CAPTURE): "Only one partial capture is allowed. If omitted, the full
 * authorized amount is captured." A partial capture settles that amount; a second capture is
 * refused (208003, the payment is no longer pending); above the authorization 208004. A wallet
 * brand's authorization is captured only in the card flow (2.2.3 rules 1 and 2).
 */
const capture = declareAction<S2SApmCaptureRequest, ApmPayment>(
  transactionPipeline('s2s-apm/capture-request', 'S2S_APM_CAPTURE_TRANSACTION_NOT_FOUND'),
  ({ ctx, input: request, loaded: payment }) => {
    checkedAmount(request.amount, payment.order.currency, 'amount', 'S2S_APM_OPERATION_ZERO_AMOUNT')
    const transaction = capturePayment(ctx, payment, {
      api: 's2s-apm',
      ...(request.amount === undefined ? {} : { amount: request.amount }),
    })
    return paymentAnswer('CAPTURE', payment, transaction)
  },
)

/** Endpoints: "VOID applies only to SETTLED payments"; States: SETTLED VOID "Same financial day only". */
const voidAction = declareAction<S2SApmVoidRequest, ApmPayment>(
  transactionPipeline('s2s-apm/void-request', 'S2S_APM_VOID_CREDITVOID_PAYMENT_NOT_FOUND'),
  ({ ctx, loaded: payment }) => {
    const transaction = voidPayment(ctx, payment, { api: 's2s-apm' })
    return paymentAnswer('VOID', payment, transaction)
  },
)

/**
 * States: a held authorization is released in full (REVERSAL, "Full amount only"); a SETTLED
 * payment is refunded in full or in part (REFUND), each refund its own transaction, whose id is
 * the `creditvoid_id` of the answer and of the callback ("`trans_id` stays the original payment id").
 */
const creditvoid = declareAction<S2SApmCreditvoidRequest, ApmPayment>(
  transactionPipeline(
    's2s-apm/creditvoid-request',
    'S2S_APM_VOID_CREDITVOID_PAYMENT_NOT_FOUND',
    'creditvoid',
  ),
  ({ ctx, input: request, loaded: payment }) => {
    checkedAmount(request.amount, payment.order.currency, 'amount', 'S2S_APM_OPERATION_ZERO_AMOUNT')
    const transaction = refundPayment(ctx, payment, {
      api: 's2s-apm',
      ...(request.amount === undefined ? {} : { amount: request.amount }),
    })
    return {
      action: 'CREDITVOID',
      result: 'ACCEPTED',
      order_id: payment.order_id,
      trans_id: payment.id,
      creditvoid_id: transaction.id,
    }
  },
)

export const followUpActions: Record<string, S2sApmAction> = {
  CAPTURE: capture,
  VOID: voidAction,
  CREDITVOID: creditvoid,
}
