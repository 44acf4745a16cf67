import type { S2SCardRetryRequest } from '../../generated/types.js'
import { S2S_CARD_FORMULAS } from '../signatures/formulas.js'
import { applyCharge } from '../checkout/operations/charge.js'
import { chargeOutcome } from '../checkout/operations/charge-outcome.js'
import { fail } from '../engine/errors.js'
import type { Payment } from '../engine/model.js'
import { declareAction } from '../engine/pipeline.js'
import { originalOf } from './auth.js'
import { SOFT_DECLINE } from '../schedules/charge-recurring.js'
import { loadPayment } from './lookup.js'

/**
 * RETRY (docs/rules.md#beyond-the-interface): charges a softly declined recurring payment again on the chain's card
 * (the sandbox's soft decline: a recurring payment whose amount ends in `.51`, docs/rules.md#test-data).
 * Signed with Formula 1 over the chain's payer e-mail and card (docs/rules.md#signatures); answered
 * ACCEPTED (docs/rules.md#transport) and the outcome comes as the payment's callback (action
 * RECURRING_SALE, the platform's callback pages). Anything else: "Retry is not allowed.".
 */
export const retry = declareAction<S2SCardRetryRequest, Payment>(
  {
    schema: 's2s-card/retry-request',
    pathStyle: 'bracket',
    credential: 'client_key',
    load: (ctx, request, merchant) =>
      loadPayment(ctx, merchant, request.trans_id, 'S2S_CARD_RETRY_PAYMENT_NOT_FOUND'),
    formula: S2S_CARD_FORMULAS.originalPayment,
    original: originalOf,
    originalBy: 'trans_id',
    signatureAfterLoad: true,
  },
  ({ ctx, loaded: payment }) => {
    if (!payment.card || payment.status !== 'decline' || payment.scenario !== SOFT_DECLINE)
      throw fail('S2S_CARD_RETRY_NOT_ALLOWED')
    delete payment.scenario
    const kind = payment.operation === 'debit' ? 'debit' : 'recurring'
    applyCharge(ctx, payment, 'RETRY', kind, chargeOutcome(payment.card, ctx.clock.now()), false)
    return { action: 'RETRY', result: 'ACCEPTED', order_id: payment.order_id, trans_id: payment.id }
  },
)
