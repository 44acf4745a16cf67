import { s2sStatus } from '../engine/format.js'
import { reportedStatus } from '../payments/reported-status.js'
import { S2S_CARD_FORMULAS } from '../signatures/formulas.js'
import type {
  S2SCardGetTransDetailsRequest,
  S2SCardGetTransStatusByOrderRequest,
  S2SCardGetTransStatusRequest,
} from '../../generated/types.js'
import { formatDateTime } from '../engine/format.js'
import type { Transaction, TransactionType } from '../engine/model.js'
import { alwaysFields, mappedCardFields, mappedFields } from '../callbacks/mapping.js'
import { cardExpiration } from '../callbacks/attributes.js'
import { compact } from '../callbacks/form.js'
import { gatherFacts } from '../callbacks/facts.js'
import type { EngineContext, SandboxMerchant } from '../engine/context.js'
import { fail, GatewayError } from '../engine/errors.js'
import type { Payment } from '../engine/model.js'
import { declareAction } from '../engine/pipeline.js'
import { requireOrderHash, transactionPipeline } from './auth.js'
import { paymentsOfOrder } from './lookup.js'
import { baseAnswer, latestTransaction, type S2sAnswer } from './response.js'

/**
 * One payment as the S2S status lookups answer it: result SUCCESS (the lookup worked) with the
 * payment's status and its latest transaction's date; `decline_reason` when declined; the recurring
 * token, schedule, saved card token and `moto_type` (2.5) when it has them; and what the merchant's
 * Protocol Mapping enables, built by the same code as the callbacks. Values nobody has are left
 * out ("ARN ... omitted when missing"); `payer_language` was never stored (2.1.3).
 */
function statusAnswer(
  ctx: EngineContext,
  action: string,
  merchant: SandboxMerchant,
  payment: Payment,
): S2sAnswer {
  const tx = latestTransaction(ctx, payment)
  const answer = {
    ...baseAnswer(action, payment, tx),
    result: 'SUCCESS',
    amount: payment.order.amount,
    // docs/rules.md#partial-refunds: `SETTLED` after a partial refund when the merchant chose it.
    status: s2sStatus(reportedStatus(payment, merchant)),
  }
  const facts = gatherFacts(ctx, payment, merchant)
  const extra = tx
    ? {
        ...mappedFields(facts, tx, 's2s-card'),
        ...mappedCardFields(facts),
        ...alwaysFields(facts, tx, 's2s-card'),
        ...statusCardFields(merchant, payment),
      }
    : {}
  return {
    ...answer,
    ...compact({
      ...extra,
      decline_reason: payment.status === 'decline' ? payment.decline_reason : undefined,
      recurring_token: payment.recurring?.init ? payment.recurring.token : undefined,
      schedule_id: payment.schedule_id,
      card_token: payment.card_token,
    }),
  }
}

/**
 * Endpoints: "Status responses can include, when enabled in Protocol Mapping, `card` (masked
 * number) and `card_expiration_date` (`MM/YYYY`)".
 */
function statusCardFields(merchant: SandboxMerchant, payment: Payment): Record<string, string | undefined> {
  const on = merchant.protocol_mapping?.callback_fields ?? {}
  return {
    ...(on.card ? { card: payment.card?.masked } : {}),
    ...(on.card_expiration_date ? { card_expiration_date: cardExpiration(payment.card) } : {}),
  }
}

/** GET_TRANS_STATUS by `trans_id`; unknown: 101000 "Transaction does not exist.". */
export const getTransStatus = declareAction<S2SCardGetTransStatusRequest, Payment>(
  transactionPipeline('s2s-card/get-trans-status-request', 'S2S_CARD_STATUS_TRANSACTION_NOT_FOUND'),
  ({ ctx, merchant, loaded: payment }) => statusAnswer(ctx, 'GET_TRANS_STATUS', merchant, payment),
)

/**
 * GET_TRANS_STATUS_BY_ORDER: the newest payment of the order; unknown: 101000 "Order does not
 * exist.". The hash names the order with a payment's payer_email and card; an order retried with
 * another card is still the merchant's, so the hash may be built from any of its payments.
 */
export const getTransStatusByOrder = declareAction<S2SCardGetTransStatusByOrderRequest>(
  {
    schema: 's2s-card/get-trans-status-by-order-request',
    pathStyle: 'bracket',
    credential: 'client_key',
    // Formula 7, checked by the operation: it may be built from any payment of the order.
    formula: S2S_CARD_FORMULAS.byOrder,
    originalBy: 'order_id',
    signedInOperation: true,
  },
  ({ ctx, input: request, merchant }) => {
    const payments = paymentsOfOrder(ctx, merchant, request.order_id)
    const [newest] = payments
    if (!newest) throw fail('S2S_CARD_STATUS_BY_ORDER_ORDER_NOT_FOUND')
    const signed = payments.some((p) =>
      acceptsHash(() => requireOrderHash(merchant, request.hash, request.order_id, p)),
    )
    if (!signed) requireOrderHash(merchant, request.hash, request.order_id, newest)
    return statusAnswer(ctx, 'GET_TRANS_STATUS_BY_ORDER', merchant, newest)
  },
)

function acceptsHash(check: () => void): boolean {
  try {
    check()
    return true
  } catch (error) {
    if (error instanceof GatewayError) return false
    throw error
  }
}

/**
 * The transaction types GET_TRANS_DETAILS names (S2S CARD 5.6.2: "sale, 3ds, auth, capture,
 * credit, chargeback, reversal, refund"). (sandbox) A debit and a recurring charge are sales, the
 * redirect step is reported as its 3ds-like step, and a VOID as the reversal it is.
 */
const DETAIL_TYPES: Record<TransactionType, string> = {
  sale: 'sale',
  auth: 'auth',
  '3ds': '3ds',
  redirect: '3ds',
  capture: 'capture',
  refund: 'refund',
  reversal: 'reversal',
  void: 'reversal',
  debit: 'sale',
  credit: 'credit',
  recurring: 'sale',
  chargeback: 'chargeback',
}

const DETAIL_STATUS = { success: 'success', fail: 'fail', waiting: 'waiting', undefined: 'waiting' } as const

const detailOf = (tx: Transaction) => ({
  date: formatDateTime(tx.created_at),
  type: DETAIL_TYPES[tx.type],
  status: DETAIL_STATUS[tx.status],
  amount: tx.amount,
})

/**
 * GET_TRANS_DETAILS (docs/rules.md#beyond-the-interface): the status answer plus the payer's `name`, `mail`, `ip`, the
 * masked `card` and every transaction of the payment, oldest first. Signed with Formula 2 (Formula
 * 6 for a CREDIT2CARD); unknown: 101000 "Transaction does not exist." (a transaction entity).
 */
export const getTransDetails = declareAction<S2SCardGetTransDetailsRequest, Payment>(
  transactionPipeline('s2s-card/get-trans-details-request', 'S2S_CARD_STATUS_TRANSACTION_NOT_FOUND'),
  ({ ctx, merchant, loaded: payment }) => {
    const payer = payment.payer ?? {}
    const name = [payer.payer_first_name, payer.payer_last_name].filter(Boolean).join(' ')
    return {
      ...statusAnswer(ctx, 'GET_TRANS_DETAILS', merchant, payment),
      ...compact({
        name: name || undefined,
        mail: payer.payer_email,
        ip: payment.customer_ip,
        card: payment.card?.masked,
      }),
      amount: payment.order.amount,
      currency: payment.order.currency,
      transactions: ctx.store.findBy('transactions', 'payment_id', payment.id).map(detailOf),
    }
  },
)
