import type { S2SApmGetTransStatusRequest } from '../../generated/types.js'
import { authenticate, requireHash } from '../engine/auth.js'
import { validated } from '../engine/request-validation.js'
import { s2sApmSignatures } from '../signatures/index.js'
import type { S2sApmAction } from './action.js'
import { loadMerchantPayment } from './common.js'
import { paymentAnswer } from './response.js'

/**
 * GET_TRANS_STATUS by `trans_id`: the payment's status now, dated by its last change. An unknown
 * `trans_id` is a transaction entity (Errors: 101000 "Transaction does not exist.", the per-entity
 * pattern, assumed for S2S APM). Reads only.
 */
export const statusAction: S2sApmAction = ({ ctx, body }) => {
  const request = validated<S2SApmGetTransStatusRequest>('s2s-apm/get-trans-status-request', body, 'bracket')
  const merchant = authenticate(ctx, request.client_key)
  requireHash(request.hash, s2sApmSignatures.transaction(request.trans_id, merchant))
  const payment = loadMerchantPayment(ctx, merchant, request.trans_id, 'S2S_APM_STATUS_TRANSACTION_NOT_FOUND')
  return {
    ...paymentAnswer('GET_TRANS_STATUS', payment, undefined, {
      result: 'SUCCESS',
      date: payment.updated_at,
      amount: payment.order.amount,
    }),
    brand: payment.method,
    ...(payment.custom_data ? { custom_data: payment.custom_data } : {}),
  }
}
