import type { EngineModule } from '../engine/modules.js'
import { cardPaymentRoute } from './card-payment.js'
import { sessionRoute } from './session.js'
import { updateSession } from './session-update.js'

/** The Checkout session lifecycle and Hosted Payment Fields card payments (Endpoints, 2.1). */
export const checkoutSessionModule: EngineModule = {
  name: 'checkout-session',
  routes: () => [
    sessionRoute(false),
    sessionRoute(true),
    updateSession,
    cardPaymentRoute('purchase'),
    cardPaymentRoute('debit'),
  ],
}
