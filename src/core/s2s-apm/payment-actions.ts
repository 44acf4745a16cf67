import { type ResolvedMethod, startApmPayment } from '../apm/connector.js'
import { newPayment } from '../payments/new-payment.js'
import type { ApmPayment } from '../apm/types.js'
import { decryptedWalletCard, isWallet, walletFlow } from '../payments/wallets.js'
import type { EngineContext, SandboxMerchant, SandboxMid } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import { validated } from '../engine/request-validation.js'
import { zeroAmount } from '../payments/ledger.js'
import { declareAction, type Pipeline } from '../engine/pipeline.js'
import { S2S_APM_FORMULAS } from './formulas.js'
import type { S2sApmAction } from './action.js'
import { brandMethod, checkMethodParameters, payerOf, payoutMid, saleMid } from './common.js'
import { paymentAnswer, redirectFields, sentBrand } from './response.js'

export type NewPaymentAction =
  | 'SALE'
  | 'DEBIT2VIRTUAL'
  | 'DEBIT2VIRTUAL_CALC'
  | 'CREDIT2VIRTUAL'
  | 'CREDIT2CRYPTO'

/** Action -> request schema and signature (docs/rules.md#signatures), to find each at a glance. */
export const PAYMENT_SCHEMAS: Record<NewPaymentAction, string> = {
  SALE: 's2s-apm/sale-request',
  DEBIT2VIRTUAL: 's2s-apm/debit2virtual-request',
  DEBIT2VIRTUAL_CALC: 's2s-apm/debit2virtual-calc-request',
  CREDIT2VIRTUAL: 's2s-apm/credit2virtual-request',
  CREDIT2CRYPTO: 's2s-apm/credit2crypto-request',
}

/** What the five requests share, as their schemas validated it (optional where one of them lacks it). */
export interface AnyPaymentRequest {
  action: NewPaymentAction
  client_key: string
  brand: string
  order_id: string
  order_amount: string
  order_currency: string
  order_description?: string
  identifier?: string
  return_url?: string
  payer_return_url?: string
  auth?: string
  parameters?: Record<string, unknown>
  custom_data?: Record<string, unknown>
  callback_url?: string
  payer_language?: string
  hash: string
  [field: string]: unknown
}

const isPayout = (action: NewPaymentAction) => action === 'CREDIT2VIRTUAL' || action === 'CREDIT2CRYPTO'

/** `payer_return_url` (docs/rules.md#beyond-the-interface), or the sandbox's earlier name `return_url`, read as an alias. */
function withPayerReturnUrl(
  action: NewPaymentAction,
  body: Record<string, unknown>,
): Record<string, unknown> {
  if (action !== 'DEBIT2VIRTUAL' && action !== 'DEBIT2VIRTUAL_CALC') return body
  if (body.payer_return_url !== undefined || body.return_url === undefined) return body
  return { ...body, payer_return_url: body.return_url }
}

/**
 * The declared pipeline of a new payment: its schema (bracket paths, `return_url` read as
 * `payer_return_url`), the merchant by `client_key`, the signature (docs/rules.md#s2s-card-formulas: SALE and the
 * debits md5(upper(rev(identifier + order_id + order_amount + order_currency + password))); the
 * payouts md5(upper(rev(order_id + order_amount + order_currency)) + password); omitted fields
 * drop out), then the brand's method and its parameters (loaded), then the release check.
 */
export function paymentPipeline(action: NewPaymentAction): Pipeline<AnyPaymentRequest, ResolvedMethod> {
  const schema = PAYMENT_SCHEMAS[action]
  return {
    schema,
    pathStyle: 'bracket',
    validate: (body) => validated<AnyPaymentRequest>(schema, withPayerReturnUrl(action, body), 'bracket'),
    credential: 'client_key',
    formula: isPayout(action) ? S2S_APM_FORMULAS.payout : S2S_APM_FORMULAS.payment,
    load: (_ctx, request) => checkedMethod(action, request),
  }
}

/** The brand's method and its parameters: what every new payment checks after its signature. */
function checkedMethod(action: NewPaymentAction, request: AnyPaymentRequest): ResolvedMethod {
  const method = brandMethod(request.brand, action === 'SALE' ? 'SALE' : 'DEBIT2VIRTUAL')
  // A payout-only method cannot take a debit (the catalogue's operations): 204005.
  if (
    (action === 'DEBIT2VIRTUAL' || action === 'DEBIT2VIRTUAL_CALC') &&
    !method.entry.operations.some((o) => o === 'purchase' || o === 'debit')
  )
    throw fail('S2S_APM_PAYOUT_BRAND_NOT_AVAILABLE')
  if (action !== 'DEBIT2VIRTUAL_CALC' || request.parameters !== undefined)
    checkMethodParameters(method, request.parameters)
  return method
}

/**
 * SALE, DEBIT2VIRTUAL, CREDIT2VIRTUAL and CREDIT2CRYPTO: a new payment through the simulated APM
 * connector. SALE pays the merchant (`auth`: only the exact value `Y` holds funds, Endpoints);
 * DEBIT2VIRTUAL is a debit from the payer through the brand, who comes back to `payer_return_url`
 * (docs/rules.md#beyond-the-interface); CREDIT2VIRTUAL and CREDIT2CRYPTO pay out to the payer's account (`identifier`),
 * payouts the merchant cannot refund or void. Order: schema, merchant, signature, method and its
 * parameters, routing; only then is anything written.
 */
function pay(action: Exclude<NewPaymentAction, 'DEBIT2VIRTUAL_CALC'>): S2sApmAction {
  return declareAction(paymentPipeline(action), ({ ctx, input: request, merchant, loaded: method }) =>
    payAnswer(ctx, action, request, merchant, method),
  )
}

function payAnswer(
  ctx: EngineContext,
  action: Exclude<NewPaymentAction, 'DEBIT2VIRTUAL_CALC'>,
  request: AnyPaymentRequest,
  merchant: SandboxMerchant,
  method: ResolvedMethod,
) {
  // Endpoints: "only the exact value `Y` holds funds, any other value is an immediate sale".
  const auth = action === 'SALE' && request.auth === 'Y'
  const mid = isPayout(action)
    ? payoutMid(merchant, request.order_amount ?? '', request.order_currency, method.id)
    : saleMid(merchant, auth, request.order_amount, request.order_currency, method.id)
  const payment = newApmPayment(ctx, merchant, mid, request, { action, auth, method })
  const answer = startedAnswer(ctx, action, payment)
  // S2S APM 3.6.2: CREDIT2CRYPTO answers "INIT / UNDEFINED / DECLINED" at once ("final status will
  // be sent in callback"): an approved payout is answered INIT with status PENDING, its callback SETTLED.
  if (action === 'CREDIT2CRYPTO' && answer.result === 'SUCCESS')
    return { ...answer, result: 'INIT', status: 'PENDING' }
  // (sandbox) A payout has no payer to send anywhere: one whose outcome waits on its simulator page
  // (chosen there or through the control API) is answered UNDEFINED / PENDING, as the platform
  // answers a payout whose final status comes by callback; no redirect fields.
  if (isPayout(action) && answer.result === 'REDIRECT') {
    const { redirect_url: _url, redirect_params: _params, redirect_method: _method, ...rest } = answer
    return { ...rest, result: 'UNDEFINED', status: 'PENDING' }
  }
  return answer
}

/** Runs the payment through the connector and answers it (REDIRECT with the simulator page when it waits). */
export function startedAnswer(
  ctx: EngineContext,
  action: string,
  payment: ApmPayment,
): Record<string, unknown> {
  const started = startApmPayment(ctx, payment)
  const transactions = ctx.store.findBy('transactions', 'payment_id', payment.id)
  return {
    ...paymentAnswer(action, payment, transactions[transactions.length - 1]),
    ...(started.redirect_url ? redirectFields(started.redirect_url) : {}),
    brand: sentBrand(payment),
  }
}

export function newApmPayment(
  ctx: EngineContext,
  merchant: SandboxMerchant,
  mid: SandboxMid,
  request: AnyPaymentRequest,
  options: { action: NewPaymentAction; auth: boolean; method: ResolvedMethod },
): ApmPayment {
  const payer = payerOf(request as Record<string, unknown>)
  const returnUrl = request.payer_return_url ?? request.return_url
  const payment = newPayment<ApmPayment>(ctx, {
    api: 's2s-apm',
    merchant_key: merchant.key,
    mid_id: mid.id,
    operation: isPayout(options.action) ? 'credit' : 'purchase',
    method: options.method.id,
    order: {
      number: request.order_id,
      amount: request.order_amount ?? zeroAmount(request.order_currency),
      currency: request.order_currency,
      description: request.order_description ?? '',
    },
    auth: options.auth,
    action: options.action,
    payer,
    apm: {
      brand: request.brand,
      group: options.method.entry.group,
      ...(request.identifier !== undefined ? { identifier: request.identifier } : {}),
      ...(returnUrl ? { return_url: returnUrl } : {}),
      ...(request.parameters ? { parameters: request.parameters } : {}),
      ...(request.payer_language ? { language: request.payer_language } : {}),
    },
  })
  // 2.2.3 rule 2: a wallet brand (`applepay`, `googlepay`) follows the card flow when the merchant's
  // Wallets tab has the decryption key and the provider supports it: "the token is always decrypted"
  // and the card stored (masked), so "capture in DMS mode" is available. Rule 3: else the virtual flow.
  const wallet = options.method.id
  if (isWallet(wallet) && walletFlow(merchant, wallet).flow === 'card')
    payment.card = decryptedWalletCard(ctx, wallet)
  if (payer.payer_ip) payment.customer_ip = payer.payer_ip
  if (request.callback_url) payment.callback_url = request.callback_url
  if (request.custom_data) payment.custom_data = request.custom_data
  return payment
}

export const paymentActions: Record<string, S2sApmAction> = {
  SALE: pay('SALE'),
  DEBIT2VIRTUAL: pay('DEBIT2VIRTUAL'),
  CREDIT2VIRTUAL: pay('CREDIT2VIRTUAL'),
  CREDIT2CRYPTO: pay('CREDIT2CRYPTO'),
}
