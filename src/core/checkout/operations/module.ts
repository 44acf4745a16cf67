import type { EngineModule } from '../../engine/modules.js'
import { capture } from './capture.js'
import { credit } from './credit.js'
import { recurring } from './recurring.js'
import { refund } from './refund.js'
import { retry } from './retry.js'
import { status } from './status.js'
import { voidPayment } from './void.js'

/** The Checkout follow-up operations (decisions.md §2 paths), all JSON with merchant_key and hash. */
export const checkoutOperationsModule: EngineModule = {
  name: 'checkout-operations',
  routes: () => [
    { method: 'POST', path: '/api/v1/payment/capture', api: 'checkout', handler: capture },
    { method: 'POST', path: '/api/v1/payment/void', api: 'checkout', handler: voidPayment },
    { method: 'POST', path: '/api/v1/payment/refund', api: 'checkout', handler: refund },
    { method: 'POST', path: '/api/v1/payment/recurring', api: 'checkout', handler: recurring },
    { method: 'POST', path: '/api/v1/payment/retry', api: 'checkout', handler: retry },
    { method: 'POST', path: '/api/v1/payment/status', api: 'checkout', handler: status },
    { method: 'POST', path: '/api/v1/payment/card/credit', api: 'checkout', handler: credit },
  ],
}
