import { GatewayError } from '../../core/engine/errors.js'
import type { GatewayResponse } from '../../core/engine/http.js'
import type { Session } from '../../core/engine/model.js'
import type { OperationHandler } from '../../core/engine/modules.js'
import { payWithCard } from '../../core/payments/payer.js'
import { handOverToMethod } from '../apm-handover.js'
import { readCardForm } from '../card-form.js'
import { checkoutView } from '../checkout-view.js'
import { engineErrors } from '../form-input.js'
import { afterPayment } from '../handoff.js'
import { readMethodForm } from '../method-form.js'
import { type PageContext, pageContext, pagePath, sessionByToken, sessionState } from '../page-context.js'
import { seeOther } from '../render.js'
import { withCollected } from '../../core/checkout/payer-collected.js'
import { dispatch, missingSession } from './checkout.js'

/** The session a form was posted for, when it can still be paid; otherwise the answer to give. */
function payable(
  input: Parameters<OperationHandler>[0],
): { page: PageContext; session: Session } | GatewayResponse {
  const { ctx, request, params, body } = input
  const session = sessionByToken(ctx, params.token ?? '')
  if (!session) return missingSession(pageContext(ctx, request), params.token ?? '')
  const page = pageContext(ctx, request, session, body)
  const state = sessionState(ctx, session)
  if (state !== 'open' && state !== 'declined') return dispatch(page, session)
  return { page, session }
}

/** POST /auth/:token/pay: the card form, through the engine's payWithCard. */
export const payByCard: OperationHandler = (input) => {
  const found = payable(input)
  if (!('session' in found)) return found
  const { page, session } = found
  const view = checkoutView(page, session, 'card')
  if (!view.selected.isCard)
    return seeOther(pagePath(page, `/auth/${encodeURIComponent(session.page_token)}`))
  const form = readCardForm(page.t, view, input.body, input.request)
  const again = (errors = form.errors) =>
    dispatch(page, session, view.selected.id, { errors, values: form.values, status: 422 })
  if (form.errors.length) return again()
  try {
    const { payment } = withCollected(page.ctx, session, { billing: form.billing }, (collected) =>
      payWithCard(page.ctx, collected, form.card),
    )
    return afterPayment(page, session, payment)
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error
    // Expired or paid meanwhile: the page for the session's state says what happened.
    if (['SESSION_EXPIRED', 'CHECKOUT_SESSION_PAYMENT_EXISTS'].includes(error.entry.id))
      return dispatch(page, session)
    return again(engineErrors(page.t, error))
  }
}

/** POST /auth/:token/method/:id: a non-card method's extra fields, then the method's own flow. */
export const payByMethod: OperationHandler = (input) => {
  const found = payable(input)
  if (!('session' in found)) return found
  const { page, session } = found
  const methodId = input.params.id ?? ''
  const view = checkoutView(page, session, methodId)
  if (view.selected.id !== methodId || view.selected.isCard) {
    return seeOther(
      pagePath(page, `/auth/${encodeURIComponent(session.page_token)}`, { method: view.selected.id }),
    )
  }
  const form = readMethodForm(page.t, view, input.body)
  if (form.errors.length) {
    return dispatch(page, session, methodId, { errors: form.errors, values: form.values, status: 422 })
  }
  return handOverToMethod(page, session, methodId, form)
}
