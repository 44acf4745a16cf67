import { GatewayError } from '../core/engine/errors.js'
import type { GatewayResponse } from '../core/engine/http.js'
import type { Session } from '../core/engine/model.js'
import { engineErrors } from './form-input.js'
import { afterPayment } from './handoff.js'
import { dispatch } from './handlers/checkout.js'
import type { MethodForm } from './method-form.js'
import { payWithMethod } from './method-payment.js'
import type { PageContext } from './page-context.js'
import { withCollected } from '../core/checkout/payer-collected.js'

/**
 * A non-card method after its page fields: the collected values join the session (as if the
 * merchant had sent them) and the simulated APM connector takes over: the method's simulator
 * page, or at once for the vcard test brand (docs/rules.md#test-data).
 */
export function handOverToMethod(
  page: PageContext,
  session: Session,
  methodId: string,
  form: MethodForm,
): GatewayResponse {
  try {
    const { payment } = withCollected(
      page.ctx,
      session,
      { billing: form.billing, parameters: form.parameters, method: methodId },
      (collected) => payWithMethod(page.ctx, collected, methodId),
    )
    return afterPayment(page, session, payment)
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error
    if (['SESSION_EXPIRED', 'CHECKOUT_SESSION_PAYMENT_EXISTS'].includes(error.entry.id))
      return dispatch(page, session)
    return dispatch(page, session, methodId, {
      errors: engineErrors(page.t, error),
      values: form.values,
      status: 422,
    })
  }
}
