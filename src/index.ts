import './schema-files.js'
/**
 * paysandbox as a library (issue 5): the gateway sandbox in-process, for a merchant's test suite.
 *
 *   const sandbox = await createSandbox({ onCallback: (request) => myApp.handle(request) })
 *   const response = await sandbox.fetch('https://gateway.test/api/v1/session', { ... })
 *
 * msw handlers are in `paysandbox/msw` (src/msw.ts): nothing here, declarations included, imports
 * msw, an optional peer dependency.
 */

export type { FetchHandler } from './adapters/fetch/fetch-handler.js'
export { createFetchHandler } from './adapters/fetch/fetch-handler.js'
export { ConfigError } from './adapters/serve/config-file.js'
export {
  createInProcessTransport,
  type MerchantAnswer,
  type MerchantHandler,
} from './adapters/transport/in-process-transport.js'
export type { EngineEvent } from './core/engine/events.js'
export type { Gateway } from './core/engine/gateway.js'
export type { BodyRead, GatewayRequest, GatewayResponse, IncomingRequest } from './core/engine/http.js'
export type { HttpLimits } from './adapters/express/server.js'
export type { Api, Delivery, DeliveryAttempt, Payment, Transaction } from './core/engine/model.js'
export type { Clock } from './core/ports/clock.js'
export type { Logger } from './core/ports/logger.js'
export type { CardRef, FormValue } from './core/signatures/index.js'
export type * from './generated/types.js'
export {
  type CallbackFilter,
  createSandbox,
  type Sandbox,
  type SandboxClock,
} from './library/create-sandbox.js'
export { type GatewayErrorBody, SandboxError } from './library/errors.js'
export type { Listening, ListenOptions } from './library/listen.js'
export type { SandboxOptions } from './library/options.js'
export type { Payer, PayerStepResult, TestCard } from './library/payer.js'
export {
  type CallbackFields,
  callbackHash,
  type OrderFields,
  type S2sCardPayment,
  signatures,
  verifyCallback,
  verifyRedirect,
} from './library/signatures.js'
