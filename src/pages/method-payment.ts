/** The hosted page's entry to the APM engine: the operation lives in src/core/apm. */
export { payWithMethod } from '../core/apm/checkout-payment.js'
