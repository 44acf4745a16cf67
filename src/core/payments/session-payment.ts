import { sessionRequest } from '../sessions/session-access.js'
import { newPayment } from './new-payment.js'
import type { EngineContext, SandboxMid } from '../engine/context.js'
import type { Payment, Session } from '../engine/model.js'
import type { EnteredCard } from './card-entry.js'
import { midMode } from './routing.js'
import { saveCard } from './tokens.js'
import { payerDetails } from './payer-details.js'

/**
 * A card payment of a Checkout session, before the acquirer answers (status `prepare`). Everything
 * later steps need is copied from the session: the follow-up operations read the payment alone.
 */
export function newSessionPayment(
  ctx: EngineContext,
  session: Session,
  mid: SandboxMid,
  entered: EnteredCard,
): Payment {
  const request = sessionRequest(session)
  const order = { ...request.order }
  const payment = newPayment(ctx, {
    api: 'checkout',
    merchant_key: session.merchant_key,
    mid_id: mid.id,
    session_id: session.id,
    operation: session.operation,
    method: 'card',
    order,
    // 6.7.0 / States and transitions: auth=true holds funds, and so does every sale on a DMS MID.
    auth: request.auth === true || midMode(mid) === 'DMS',
    card: entered.card,
    payer: payerDetails(request, { payer_email: entered.body.payer_email, customer_ip: session.customer_ip }),
  })
  if (entered.savedCard) payment.card_token = entered.savedCard.id
  // Events: "Callbacks for `debit` carry `card_token` in every callback", so a debit always has one.
  else if (session.operation === 'debit') {
    payment.card_token = saveCard(ctx, session.merchant_key, entered.card, {
      cardOnFile: mid.card_on_file === true,
    }).id
  }
  if (request.req_token) payment.req_token = true
  if (request.recurring_init) payment.recurring = { init: true }
  if (request.schedule_id) payment.schedule_id = request.schedule_id
  if (request.custom_data) payment.custom_data = request.custom_data
  if (request.moto_type) payment.moto_type = request.moto_type
  if (entered.body.browser_info) payment.browser_info = entered.body.browser_info
  if (session.customer_ip) payment.customer_ip = session.customer_ip
  return payment
}
