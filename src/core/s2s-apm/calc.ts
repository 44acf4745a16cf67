import type { S2SApmDebit2VirtualCompleteRequest } from '../../generated/types.js'
import type { SandboxMerchant } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import { currencyExponent, formatDateTime, fromMinor, toMinor } from '../engine/format.js'
import { declareAction } from '../engine/pipeline.js'
import type { ApmPayment } from '../apm/types.js'
import type { S2sApmAction } from './action.js'
import { saleMid, transactionPipeline } from './common.js'
import { newApmPayment, paymentPipeline, startedAnswer } from './payment-actions.js'

/** (sandbox) Commission of a DEBIT2VIRTUAL when the merchant configures none: 3 % of the order amount. */
export const DEFAULT_COMMISSION_PERCENT = 3

/** Percent precision kept: four decimals (2.5 % is 25000 / 10000). */
const SCALE = 10_000n

/**
 * (sandbox) The commission rule. The interface names DEBIT2VIRTUAL_CALC but not how the
 * commission is computed: `commission = order_amount x percent / 100`, rounded half up to the
 * currency's minor unit, with `percent` the merchant's `debit2virtual_commission_percent`
 * (configuration, 0 to 100, default 3); `total_amount = order_amount + commission`. Exact
 * integer arithmetic in minor units, never floating point.
 */
export function commissionOf(
  amount: string,
  currency: string,
  percent: number = DEFAULT_COMMISSION_PERCENT,
): { commission: string; total_amount: string } {
  const exponent = currencyExponent(currency)
  const minor = toMinor(amount, exponent)
  const scaledPercent = BigInt(Math.round(percent * Number(SCALE)))
  const divisor = 100n * SCALE
  const commission = (minor * scaledPercent * 2n + divisor) / (2n * divisor)
  return {
    commission: fromMinor(commission, exponent),
    total_amount: fromMinor(minor + commission, exponent),
  }
}

export const commissionPercent = (merchant: SandboxMerchant): number =>
  merchant.debit2virtual_commission_percent ?? DEFAULT_COMMISSION_PERCENT

/**
 * DEBIT2VIRTUAL_CALC (docs/rules.md#beyond-the-interface): the first step of a two-step debit. Checked as the
 * DEBIT2VIRTUAL it prepares (signature, method, parameters when sent, routing), it stores the
 * payment in PREPARE (no transaction, no callback yet) and answers `commission`, `total_amount`
 * and the `trans_id` DEBIT2VIRTUAL_COMPLETE finishes.
 */
export const calcAction: S2sApmAction = declareAction(
  paymentPipeline('DEBIT2VIRTUAL_CALC'),
  ({ ctx, input: request, merchant, loaded: method }) => {
    const mid = saleMid(merchant, false, request.order_amount, request.order_currency, method.id)
    const payment = newApmPayment(ctx, merchant, mid, request, {
      action: 'DEBIT2VIRTUAL_CALC',
      auth: false,
      method,
    })
    ctx.store.put('payments', payment)
    return {
      action: 'DEBIT2VIRTUAL_CALC',
      result: 'SUCCESS',
      status: 'PREPARE',
      order_id: request.order_id,
      trans_id: payment.id,
      trans_date: formatDateTime(payment.created_at),
      amount: request.order_amount,
      currency: request.order_currency,
      ...commissionOf(request.order_amount, request.order_currency, commissionPercent(merchant)),
    }
  },
)

/**
 * DEBIT2VIRTUAL_COMPLETE (docs/rules.md#beyond-the-interface): finishes the debit DEBIT2VIRTUAL_CALC prepared,
 * signed md5(upper(rev(trans_id)) + password) (docs/rules.md#signatures); answered as DEBIT2VIRTUAL
 * (REDIRECT to the brand, or its outcome). A trans_id that names no prepared debit of the merchant
 * is 101000 "Transaction does not exist."; a debit already completed is refused.
 */
export const completeAction: S2sApmAction = declareAction<S2SApmDebit2VirtualCompleteRequest, ApmPayment>(
  {
    ...transactionPipeline<S2SApmDebit2VirtualCompleteRequest>(
      's2s-apm/debit2virtual-complete-request',
      'S2S_APM_COMPLETE_TRANSACTION_NOT_FOUND',
    ),
  },
  ({ ctx, loaded: payment }) => {
    if (payment.action !== 'DEBIT2VIRTUAL_CALC') throw fail('S2S_APM_COMPLETE_TRANSACTION_NOT_FOUND')
    if (payment.status !== 'prepare' || ctx.store.findBy('transactions', 'payment_id', payment.id).length > 0)
      throw fail('S2S_APM_COMPLETE_NOT_ALLOWED')
    return startedAnswer(ctx, 'DEBIT2VIRTUAL_COMPLETE', payment)
  },
)
