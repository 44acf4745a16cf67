import { checkedAmount } from '../payments/ledger.js'
import type {
  S2SCardCaptureRequest,
  S2SCardCreditvoidRequest,
  S2SCardVoidRequest,
} from '../../generated/types.js'
import type { Payment } from '../engine/model.js'
import { declareAction } from '../engine/pipeline.js'
import { capturePayment, refundPayment, voidPayment } from '../payments/follow-ups.js'
import { transactionPipeline } from './auth.js'
import { baseAnswer } from './response.js'

/**
 * CAPTURE, VOID and CREDITVOID of an S2S CARD payment, by its `trans_id`, signed over the
 * original payment's payer_email and card (docs/rules.md#signatures). The payment is found before the
 * hash is checked because the hash is built from it; an unknown one answers its entity's row.
 */

const amountAndParameters = (request: { amount?: string; parameters?: Record<string, unknown> }) => ({
  ...(request.amount !== undefined ? { amount: request.amount } : {}),
  ...(request.parameters ? { parameters: request.parameters } : {}),
})

/**
 * CAPTURE (States and transitions: PENDING to settled). As Checkout capture: ONE capture of up to
 * the authorized amount; a partial capture settles that amount and releases the rest, so a second
 * capture is refused ("Capture is not allowed."). Test month 03: DECLINED, the hold stays PENDING.
 */
export const capture = declareAction<S2SCardCaptureRequest, Payment>(
  transactionPipeline('s2s-card/capture-request', 'S2S_CARD_CAPTURE_TRANSACTION_NOT_FOUND'),
  ({ ctx, input: request, loaded: payment }) => {
    checkedAmount(request.amount, payment.order.currency, 'amount', 'S2S_CARD_OPERATION_ZERO_AMOUNT')
    const tx = capturePayment(ctx, payment, { api: 's2s-card', ...amountAndParameters(request) })
    const answer = baseAnswer('CAPTURE', payment, tx)
    if (tx.status === 'fail' && tx.decline_reason) answer.decline_reason = tx.decline_reason
    return answer
  },
)

/** VOID: a SETTLED payment on its financial day only; "Void is not allowed." otherwise. */
export const voidAction = declareAction<S2SCardVoidRequest, Payment>(
  transactionPipeline('s2s-card/void-request', 'S2S_CARD_VOID_CREDITVOID_PAYMENT_NOT_FOUND'),
  ({ ctx, input: request, loaded: payment }) => {
    const tx = voidPayment(ctx, payment, {
      api: 's2s-card',
      ...(request.parameters ? { parameters: request.parameters } : {}),
    })
    return baseAnswer('VOID', payment, tx)
  },
)

/**
 * CREDITVOID: full or partial refund of a SETTLED payment (REFUND), full release of a held
 * authorization (REVERSAL), reversal of a debit. Answered ACCEPTED with `creditvoid_id`, the new
 * transaction's id (`trans_id` stays the payment's); the callback reports the resulting status.
 */
export const creditvoid = declareAction<S2SCardCreditvoidRequest, Payment>(
  transactionPipeline('s2s-card/creditvoid-request', 'S2S_CARD_VOID_CREDITVOID_PAYMENT_NOT_FOUND'),
  ({ ctx, input: request, loaded: payment }) => {
    checkedAmount(request.amount, payment.order.currency, 'amount', 'S2S_CARD_OPERATION_ZERO_AMOUNT')
    const tx = refundPayment(ctx, payment, { api: 's2s-card', ...amountAndParameters(request) })
    return {
      action: 'CREDITVOID',
      result: 'ACCEPTED',
      order_id: payment.order_id,
      trans_id: payment.id,
      creditvoid_id: tx.id,
      amount: tx.amount,
      currency: payment.order.currency,
    }
  },
)
