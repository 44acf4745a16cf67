import type { EngineModule } from '../../engine/modules.js'
import { capture } from './capture.js'
import { credit } from './credit.js'
import { recurring } from './recurring.js'
import { refund } from './refund.js'
import { retry } from './retry.js'
import { status } from './status.js'
import { voidPayment } from './void.js'

/** The Checkout follow-up operations (docs/rules.md#transport paths), all JSON with merchant_key and hash. */
export const checkoutOperationsModule: EngineModule = {
  name: 'checkout-operations',
  routes: () => [capture, voidPayment, refund, recurring, retry, status, credit],
}
