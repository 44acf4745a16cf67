export { buildCallback, type BuiltCallback, type CallbackInput } from './callback.js'
export { callbackRoutes, callbacksModule } from './control.js'
export { eventHistory, eventStream, formatEvent, formatGap, streamLimits } from './event-stream.js'
export {
  type CallbackDelivery,
  createDeliveryQueue,
  DEFAULT_CONCURRENCY,
  DEFAULT_RETRY_SECONDS,
  type DeliveryQueue,
  type DeliverySettings,
} from './delivery.js'
export { gatherFacts, type PaymentFacts } from './facts.js'
export {
  appendQuery,
  effectiveUrlTarget,
  type Redirect,
  type RedirectOutcome,
  redirectFor,
} from './redirect.js'
export { callbacksOf, startCallbacks } from './runtime.js'
export { onTransaction, subscribeCallbacks } from './subscriber.js'
