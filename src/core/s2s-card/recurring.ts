import type { S2SCardRecurringDebitRequest, S2SCardRecurringSaleRequest } from '../../generated/types.js'
import { S2S_CARD_FORMULAS } from '../signatures/formulas.js'
import type { EngineContext, SandboxMerchant } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import { declareAction } from '../engine/pipeline.js'
import { originalOf } from './auth.js'
import { chargeRecurring, type InitialPayment, isRecurringInitial } from '../schedules/charge-recurring.js'
import { paymentAnswer } from './response.js'

export { chargeRecurring, type RecurringCharge } from '../schedules/charge-recurring.js'

type RecurringRequest = S2SCardRecurringSaleRequest | S2SCardRecurringDebitRequest

const INCORRECT = {
  RECURRING_SALE: 'S2S_CARD_RECURRING_SALE_INCORRECT_TRANSACTION',
  RECURRING_DEBIT: 'S2S_CARD_RECURRING_DEBIT_INCORRECT_TRANSACTION',
} as const

/**
 * The initial payment the pair names (docs/rules.md#s2s-card-actions: `recurring_first_trans_id`, alias
 * `recurring_init_trans_id`): the merchant's own S2S CARD payment that started a chain of the
 * action's kind (a sale chain for RECURRING_SALE, a debit chain for RECURRING_DEBIT), with that
 * token. Anything else is "Incorrect transaction", whichever half is wrong, so the pair cannot be
 * probed one half at a time.
 */
function initialOf(ctx: EngineContext, merchant: SandboxMerchant, request: RecurringRequest): InitialPayment {
  const id = request.recurring_first_trans_id ?? request.recurring_init_trans_id ?? ''
  const initial = ctx.store.get('payments', id)
  const debitChain = request.action === 'RECURRING_DEBIT'
  const fits =
    isRecurringInitial(initial) &&
    initial.merchant_key === merchant.key &&
    initial.api === 's2s-card' &&
    initial.recurring.token === request.recurring_token &&
    (initial.operation === 'debit') === debitChain
  if (!fits) throw fail(INCORRECT[request.action])
  return initial
}

/**
 * RECURRING_SALE and RECURRING_DEBIT (2.3): a secondary payment without card data, signed like a
 * SALE over the initial payment's payer_email and card. Its `custom_data` is this request's and
 * comes back in this payment's callback (2.1).
 */
const recurringAction = (action: 'RECURRING_SALE' | 'RECURRING_DEBIT') =>
  declareAction<RecurringRequest, ReturnType<typeof initialOf>>(
    {
      schema: `s2s-card/${action === 'RECURRING_SALE' ? 'recurring-sale-request' : 'recurring-debit-request'}`,
      pathStyle: 'bracket',
      credential: 'client_key',
      load: (ctx, request, merchant) => initialOf(ctx, merchant, request),
      formula: S2S_CARD_FORMULAS.originalPayment,
      original: originalOf,
      originalBy: 'recurring',
      signatureAfterLoad: true,
    },
    ({ ctx, input: request, loaded: initial }) => {
      const payment = chargeRecurring(ctx, initial, {
        amount: request.order_amount,
        order_id: request.order_id,
        order_description: request.order_description,
        ...(request.custom_data ? { custom_data: request.custom_data } : {}),
        ...(request.schedule_id ? { schedule_id: request.schedule_id } : {}),
        ...(request.callback_url ? { callback_url: request.callback_url } : {}),
        ...('auth' in request && request.auth === 'Y' ? { auth: true } : {}),
      })
      return paymentAnswer(ctx, action, payment)
    },
  )

export const recurringSale = recurringAction('RECURRING_SALE')
export const recurringDebit = recurringAction('RECURRING_DEBIT')
