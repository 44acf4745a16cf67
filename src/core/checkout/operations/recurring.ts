import { checkedAmount } from '../../payments/ledger.js'
import { CHECKOUT_FORMULAS } from '../../signatures/formulas.js'
import { newPayment } from '../../payments/new-payment.js'
import type { CheckoutRecurringRequest, CheckoutRecurringResponse1 } from '../../../generated/types.js'
import type { EngineContext, SandboxMerchant } from '../../engine/context.js'
import { fail } from '../../engine/errors.js'
import { jsonResponse } from '../../engine/http.js'
import type { Payment } from '../../engine/model.js'
import { declareRoute } from '../../engine/pipeline.js'
import { applyCharge } from './charge.js'
import { chargeOutcome } from './charge-outcome.js'
import { now, orderRecord } from './common.js'
import { assertWalletAllows } from '../../payments/wallets.js'
import { recurringTestDecline, SOFT_DECLINE } from '../../payments/recurring-test-amounts.js'

/**
 * The initial payment the pair names: the merchant's own Checkout payment that started a chain,
 * with that token and a stored card. Anything else is "Incorrect transaction", whichever part
 * is wrong, so the pair cannot be probed one half at a time.
 */
function initialPayment(
  ctx: EngineContext,
  merchant: SandboxMerchant,
  request: CheckoutRecurringRequest,
): Payment & { card: NonNullable<Payment['card']> } {
  const initial = ctx.store.get('payments', request.recurring_init_trans_id)
  const fits =
    initial !== undefined &&
    initial.merchant_key === merchant.key &&
    initial.api === 'checkout' &&
    initial.recurring?.init === true &&
    initial.recurring.token !== undefined &&
    initial.recurring.token === request.recurring_token
  if (!fits) throw fail('CHECKOUT_RECURRING_INCORRECT_TRANSACTION')
  // 2.2.3 rule 1: a wallet payment in the virtual flow stores no card, so it starts no chain.
  assertWalletAllows(initial, 'recurring')
  if (initial.card === undefined) throw fail('CHECKOUT_RECURRING_INCORRECT_TRANSACTION')
  return initial as Payment & { card: NonNullable<Payment['card']> }
}

/**
 * POST /api/v1/payment/recurring: a secondary payment of a chain, charged at once on the initial
 * payment's stored card (no card data, no payer, no 3DS). The custom_data of this request is the
 * one stored on the new payment and returned by its callback (2.1). An amount ending in `.51` is
 * declined softly, as on S2S (docs/rules.md#recurring-test-amounts), so retry can be tested.
 */
export const recurring = declareRoute<CheckoutRecurringRequest, ReturnType<typeof initialPayment>>({
  method: 'POST',
  path: '/api/v1/payment/recurring',
  api: 'checkout',
  pipeline: {
    schema: 'checkout/recurring-request',
    credential: 'merchant_key',
    formula: CHECKOUT_FORMULAS.recurring,
    load: (ctx, request, merchant) => initialPayment(ctx, merchant, request),
  },
  handler: ({ input: request, merchant, loaded: initial, ctx }) => {
    const currency = request.order.currency ?? initial.order.currency
    checkedAmount(request.order.amount, currency, 'order.amount', 'CHECKOUT_OPERATION_ZERO_AMOUNT')

    const at = ctx.clock.now()
    const scheduleId = request.schedule_id ?? initial.schedule_id
    const payment = newPayment(ctx, {
      api: 'checkout',
      merchant_key: merchant.key,
      mid_id: initial.mid_id,
      operation: initial.operation === 'debit' ? 'debit' : 'purchase',
      method: initial.method,
      order: {
        number: request.order.number,
        amount: request.order.amount,
        currency,
        description: request.order.description,
      },
      auth: false,
      card: initial.card,
      recurring: { init: false, init_trans_id: initial.id, parent_payment_id: initial.id },
    })
    if (initial.card_token) payment.card_token = initial.card_token
    if (scheduleId) payment.schedule_id = scheduleId
    if (request.custom_data) payment.custom_data = request.custom_data
    if (initial.payer) payment.payer = initial.payer
    // docs/rules.md#recurring-test-amounts: the same test amounts as S2S RECURRING_SALE (`.51`
    // declines softly, and retry charges it again), else the chain card's outcome.
    const soft = recurringTestDecline(request.order.amount)
    if (soft) payment.scenario = SOFT_DECLINE
    const outcome = soft
      ? { outcome: 'declined' as const, reason: soft.reason }
      : chargeOutcome(initial.card, at)
    applyCharge(ctx, payment, 'CHARGE', 'recurring', outcome, true)

    const answer: CheckoutRecurringResponse1 = {
      status: payment.status === 'settled' ? 'settled' : 'declined',
      ...(payment.decline_reason ? { reason: payment.decline_reason } : {}),
      payment_id: payment.id,
      date: now(ctx),
      ...(scheduleId ? { schedule_id: scheduleId } : {}),
      order: orderRecord(payment.order),
    }
    return jsonResponse(200, answer)
  },
})
