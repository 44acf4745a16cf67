import { sessionRequest } from '../sessions/session-access.js'
import { newPayment } from '../payments/new-payment.js'
import { requireMove } from '../sessions/session-lifecycle.js'
import { routeSession } from '../payments/routing.js'
import type { EngineContext } from '../engine/context.js'
import type { Session } from '../engine/model.js'
import { fail } from '../engine/errors.js'
import { payerDetails } from '../payments/payer-details.js'
import { midMode } from '../payments/routing.js'
import { type ApmStart, resolveApmMethod, startApmPayment } from './connector.js'
import type { ApmPayment } from './types.js'
import { decryptedWalletCard, isWallet, walletFlow } from '../payments/wallets.js'

/**
 * (Moved from src/pages: engine work the hosted page calls.) The payer chose a non-card method on the hosted page: a Checkout payment through the simulated
 * APM connector (src/core/apm), with the method's parameters as the merchant sent them plus what
 * the page collected (already merged into the session). Like payWithCard, it refuses a session
 * that is expired, already paid, or does not offer the method.
 */
export function payWithMethod(ctx: EngineContext, session: Session, methodId: string): ApmStart {
  requireMove(ctx, session, 'pay', 'payer')
  const method = resolveApmMethod(methodId)
  const merchant = ctx.merchant(session.merchant_key)
  if (!method || !merchant || (session.methods.length && !session.methods.includes(methodId))) {
    throw fail('PAYER_ACTION_NOT_ALLOWED')
  }
  const request = sessionRequest(session)
  // 2.2.3 rule 1: in the virtual flow "recurring creation [is] limited"; rule 2: the card flow allows it.
  const wallet = isWallet(method.id) ? walletFlow(merchant, method.id) : undefined
  if (wallet?.flow === 'virtual' && request.recurring_init === true)
    throw fail('WALLET_VIRTUAL_FLOW_RECURRING')
  const mid = routeSession(merchant, request, [method.id])
  const parameters = request.parameters?.[methodId]
  const language = request.billing_address?.language
  const payment = newPayment<ApmPayment>(ctx, {
    api: 'checkout',
    merchant_key: merchant.key,
    mid_id: mid.id,
    session_id: session.id,
    operation: session.operation,
    method: method.id,
    order: { ...request.order },
    auth: request.auth === true || midMode(mid) === 'DMS',
    payer: payerDetails(request, { customer_ip: session.customer_ip }),
    apm: {
      brand: methodId,
      group: method.entry.group,
      ...(parameters && typeof parameters === 'object'
        ? { parameters: parameters as Record<string, unknown> }
        : {}),
      ...(language ? { language } : {}),
    },
  })
  // Rule 2: in the card flow "the token is always decrypted" and the card stored (masked).
  if (wallet?.flow === 'card' && isWallet(method.id)) payment.card = decryptedWalletCard(ctx, method.id)
  if (wallet && request.recurring_init === true) payment.recurring = { init: true }
  if (request.custom_data) payment.custom_data = request.custom_data
  if (session.customer_ip) payment.customer_ip = session.customer_ip
  ctx.store.put('sessions', { ...session, payment_id: payment.id })
  return startApmPayment(ctx, payment)
}
