import { s2sStatus } from '../engine/format.js'
import { reportedStatus } from '../payments/reported-status.js'
import type { S2SApmGetTransStatusRequest } from '../../generated/types.js'
import type { ApmPayment } from '../apm/types.js'
import { declareAction } from '../engine/pipeline.js'
import { transactionPipeline } from './common.js'
import { paymentAnswer, sentBrand } from './response.js'

/**
 * GET_TRANS_STATUS by `trans_id`: the payment's status now, dated by its last change. An unknown
 * `trans_id` is a transaction entity (Errors: 101000 "Transaction does not exist.", the per-entity
 * pattern, assumed for S2S APM). Reads only.
 */
export const statusAction = declareAction<S2SApmGetTransStatusRequest, ApmPayment>(
  transactionPipeline('s2s-apm/get-trans-status-request', 'S2S_APM_STATUS_TRANSACTION_NOT_FOUND'),
  ({ loaded: payment, merchant }) => ({
    ...paymentAnswer('GET_TRANS_STATUS', payment, undefined, {
      result: 'SUCCESS',
      date: payment.updated_at,
      amount: payment.order.amount,
    }),
    // docs/rules.md#partial-refunds: `SETTLED` after a partial refund when the merchant chose it.
    status: s2sStatus(reportedStatus(payment, merchant)),
    brand: sentBrand(payment),
    ...(payment.custom_data ? { custom_data: payment.custom_data } : {}),
  }),
)
