import type { EngineModule } from '../engine/modules.js'
import { cardPaymentHandler } from './card-payment.js'
import { createSessionHandler } from './session.js'
import { updateSession } from './session-update.js'

/** The Checkout session lifecycle and Hosted Payment Fields card payments (Endpoints, 2.1). */
export const checkoutSessionModule: EngineModule = {
  name: 'checkout-session',
  routes: () => [
    { method: 'POST', path: '/api/v1/session', api: 'checkout', handler: createSessionHandler(false) },
    { method: 'POST', path: '/api/v1/session/token', api: 'checkout', handler: createSessionHandler(true) },
    { method: 'PUT', path: '/api/v1/session/update', api: 'checkout', handler: updateSession },
    {
      method: 'POST',
      path: '/api/v1/processing/purchase/card',
      api: 'checkout',
      handler: cardPaymentHandler('purchase'),
    },
    {
      method: 'POST',
      path: '/api/v1/processing/debit/card',
      api: 'checkout',
      handler: cardPaymentHandler('debit'),
    },
  ],
}
