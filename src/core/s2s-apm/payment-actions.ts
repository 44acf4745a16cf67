import type { S2SApmDebit2VirtualRequest, S2SApmSaleRequest } from '../../generated/types.js'
import { type ResolvedMethod, startApmPayment } from '../apm/connector.js'
import type { ApmPayment } from '../apm/types.js'
import { authenticate, requireHash } from '../engine/auth.js'
import type { EngineContext, SandboxMerchant, SandboxMid } from '../engine/context.js'
import { validated } from '../engine/request-validation.js'
import { zeroAmount } from '../payments/ledger.js'
import { s2sApmSignatures } from '../signatures/index.js'
import type { S2sApmAction } from './action.js'
import { brandMethod, checkMethodParameters, payerOf, payoutMid, saleMid } from './common.js'
import { paymentAnswer, redirectFields } from './response.js'

type PaymentRequest = S2SApmSaleRequest | S2SApmDebit2VirtualRequest

/**
 * SALE and DEBIT2VIRTUAL: a new payment through the simulated APM connector. SALE pays the
 * merchant (`auth`: only the exact value `Y` holds funds, Endpoints); DEBIT2VIRTUAL pays out to
 * the payer's account (`identifier`) in the method, a payout (operation credit) the merchant
 * cannot refund or void. Order: schema, merchant, signature, method and its parameters, routing.
 */
function pay(ctx: EngineContext, body: Record<string, unknown>, action: 'SALE' | 'DEBIT2VIRTUAL') {
  const schema = action === 'SALE' ? 's2s-apm/sale-request' : 's2s-apm/debit2virtual-request'
  const request = validated<PaymentRequest>(schema, body, 'bracket')
  const merchant = authenticate(ctx, request.client_key)
  requireHash(
    request.hash,
    s2sApmSignatures.payment(
      request.identifier,
      request.order_id,
      request.order_amount,
      request.order_currency,
      merchant.password,
    ),
  )
  const method = brandMethod(request.brand, action)
  checkMethodParameters(method, request.parameters)
  // Endpoints: "only the exact value `Y` holds funds, any other value is an immediate sale".
  const auth = action === 'SALE' && (request as S2SApmSaleRequest).auth === 'Y'
  const mid =
    action === 'SALE'
      ? saleMid(merchant, auth, request.order_amount, request.order_currency, method.id)
      : payoutMid(merchant, request.order_amount, request.order_currency, method.id)

  const payment = newPayment(ctx, merchant, mid, request, { action, auth, method })
  const started = startApmPayment(ctx, payment)
  const [transaction] = ctx.store.findBy('transactions', 'payment_id', payment.id)
  return {
    ...paymentAnswer(action, payment, transaction),
    ...(started.redirect_url ? redirectFields(started.redirect_url) : {}),
    brand: payment.method,
  }
}

function newPayment(
  ctx: EngineContext,
  merchant: SandboxMerchant,
  mid: SandboxMid,
  request: PaymentRequest,
  options: { action: 'SALE' | 'DEBIT2VIRTUAL'; auth: boolean; method: ResolvedMethod },
): ApmPayment {
  const now = ctx.clock.now()
  const zero = zeroAmount(request.order_currency)
  const payer = payerOf(request)
  const payment: ApmPayment = {
    id: ctx.ids.uuid(),
    api: 's2s-apm',
    merchant_key: merchant.key,
    mid_id: mid.id,
    operation: options.action === 'SALE' ? 'purchase' : 'credit',
    method: options.method.id,
    order_id: request.order_id,
    order: {
      number: request.order_id,
      amount: request.order_amount,
      currency: request.order_currency,
      description: request.order_description,
    },
    status: 'prepare',
    auth: options.auth,
    amount_captured: zero,
    amount_refunded: zero,
    action: options.action,
    payer,
    created_at: now,
    updated_at: now,
    apm: {
      brand: request.brand,
      group: options.method.entry.group,
      identifier: request.identifier,
      ...(request.return_url ? { return_url: request.return_url } : {}),
      ...(request.parameters ? { parameters: request.parameters } : {}),
      ...(request.payer_language ? { language: request.payer_language } : {}),
    },
  }
  if (payer.payer_ip) payment.customer_ip = payer.payer_ip
  if (request.callback_url) payment.callback_url = request.callback_url
  if (request.custom_data) payment.custom_data = request.custom_data
  return payment
}

export const paymentActions: Record<string, S2sApmAction> = {
  SALE: ({ ctx, body }) => pay(ctx, body, 'SALE'),
  DEBIT2VIRTUAL: ({ ctx, body }) => pay(ctx, body, 'DEBIT2VIRTUAL'),
}
