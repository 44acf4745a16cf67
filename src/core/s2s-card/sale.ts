import type { EngineContext, SandboxMerchant } from '../engine/context.js'
import { S2S_CARD_FORMULAS } from '../signatures/formulas.js'
import { fail } from '../engine/errors.js'
import { isZeroAmount } from '../engine/format.js'
import type { Payment } from '../engine/model.js'
import { declareAction } from '../engine/pipeline.js'
import { isMotoType, toStoredCard } from '../payments/card.js'
import { FieldProblems } from '../payments/field-errors.js'
import { midOf } from '../payments/outcome.js'
import { startCardPayment } from '../payments/payer.js'
import { saveCard } from '../payments/tokens.js'
import {
  type CardPaymentRequest,
  checkRequiredPayerFields,
  externalThreeDs,
  payerOf,
  type RequestCard,
  readCard,
} from './card-request.js'
import { newS2sPayment, routeS2s } from './new-payment.js'
import { paymentAnswer } from './response.js'

type Action = 'SALE' | 'AUTH' | 'DEBIT'

const SCHEMAS: Record<Action, string> = {
  SALE: 's2s-card/sale-request',
  AUTH: 's2s-card/auth-request',
  DEBIT: 's2s-card/debit-request',
}

/**
 * SALE, AUTH and DEBIT: a card payment, in this order: the form (schema), the merchant and the
 * hash, the card and the payer fields the merchant's mapping requires, the amount and routing;
 * only then is anything written, so a refused request changes nothing.
 *
 * - AUTH, and SALE with auth=Y, hold the funds (PENDING until CAPTURE or CREDITVOID).
 * - MOTO (2.5, SALE and AUTH): no security code needed, no MPI, MOTO-enabled MIDs only (204025).
 * - `mpi_data` (2.4, SALE only, "ignored when auth=Y"): the merchant's MPI already ran, so no 3DS
 *   step; the test card's own outcome applies and trans_status N, U or R does not decline.
 * - DEBIT always saves the card: "Callbacks for `debit` carry `card_token` in every callback".
 */
const cardPayment = (action: Action) =>
  declareAction<CardPaymentRequest>(
    {
      schema: SCHEMAS[action],
      pathStyle: 'bracket',
      credential: 'client_key',
      // 2.2.3 and docs/rules.md#signatures Formula 8: a SALE with `digital_wallet` + `payment_token` carries no card.
      // Formula 1, or Formula 8 for a SALE with `digital_wallet` + `payment_token` (2.2.3).
      formula: S2S_CARD_FORMULAS.payment,
    },
    ({ ctx, input: request, merchant }) => {
      const wallet = action === 'SALE' ? walletOf(request) : undefined
      const problems = new FieldProblems()
      const entered = wallet
        ? { card: toStoredCard(WALLET_DPAN) }
        : readCard(ctx, merchant, request, problems)
      checkRequiredPayerFields(merchant, request, problems)
      problems.throwIfAny()
      // readCard answers undefined only together with a problem, thrown just above.
      const card = entered as RequestCard

      const held = action === 'AUTH' || (action === 'SALE' && request.auth === 'Y')
      const moto = action !== 'DEBIT' && isMotoType(request.moto_type)
      const recurringInit = request.recurring_init === 'Y'
      const zero = isZeroAmount(request.order_amount)
      // 2.1.1: zero only "on an authorization-only request or on the request that initializes a recurring chain".
      if (zero && !held && !recurringInit)
        throw fail(action === 'DEBIT' ? 'S2S_CARD_OPERATION_ZERO_AMOUNT' : 'S2S_CARD_SALE_ZERO_AMOUNT')
      const mid = routeS2s(merchant, { auth: held, moto, zeroAmount: zero, currency: request.order_currency })

      const payment = newS2sPayment(ctx, merchant, mid, request, {
        action,
        operation: action === 'DEBIT' ? 'debit' : 'purchase',
        held,
        card: card.card,
        payer: payerOf(request),
      })
      applyRequestOptions(ctx, merchant, payment, request, card, action)
      // Read back by the callbacks and status answers (`digital_wallet`, `pan_type` dpan).
      if (wallet) Object.assign(payment, { digital_wallet: wallet })
      const mpi = action === 'SALE' && !held ? request.mpi_data : undefined
      if (mpi) payment.three_ds = externalThreeDs(mpi)
      startCardPayment(ctx, payment, { skipThreeDs: moto || mpi !== undefined })
      return paymentAnswer(ctx, action, payment)
    },
  )

/** Token, recurring, MOTO and card-on-file options of the request, recorded on the new payment. */
function applyRequestOptions(
  ctx: EngineContext,
  merchant: SandboxMerchant,
  payment: Payment,
  request: CardPaymentRequest,
  entered: RequestCard,
  action: Action,
): void {
  if (entered.savedCard) {
    payment.card_token = entered.savedCard.id
    payment.token_used = true
  } else if (action === 'DEBIT') {
    payment.card_token = saveCard(ctx, merchant.key, entered.card, {
      cardOnFile: midOf(ctx, payment)?.card_on_file === true,
    }).id
  }
  if (request.req_token === 'Y') payment.req_token = true
  if (request.recurring_init === 'Y') payment.recurring = { init: true }
  if (request.schedule_id) payment.schedule_id = request.schedule_id
  if (action !== 'DEBIT' && request.moto_type) payment.moto_type = request.moto_type
  // 2.6 card-on-file: who started the payment; `sequence` and `source` follow from the payment itself.
  if (request.payer_present) payment.initiator = request.payer_present === 'Y' ? 'cardholder' : 'merchant'
}

/** The wallet of a SALE paid with a device-wallet `payment_token` (the schema requires both together). */
function walletOf(request: CardPaymentRequest): string | undefined {
  const { digital_wallet: wallet, payment_token: token } = request as {
    digital_wallet?: string
    payment_token?: string
  }
  return token !== undefined && wallet !== undefined ? wallet : undefined
}

/**
 * (sandbox) What a wallet's payment token stands for once decrypted: the test card as a DPAN with
 * a success month (docs/rules.md#test-data), so a wallet SALE succeeds without 3DS.
 */
const WALLET_DPAN = { number: '4111111111111111', expMonth: '01', expYear: '2039' }

export const sale = cardPayment('SALE')
export const auth = cardPayment('AUTH')
export const debit = cardPayment('DEBIT')
