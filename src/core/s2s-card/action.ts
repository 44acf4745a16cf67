import type { EngineContext } from '../engine/context.js'
import type { GatewayRequest } from '../engine/http.js'

/**
 * One S2S CARD action: gets the parsed form, answers the JSON body (the module writes it).
 * Synchronous: the action's checks and writes are one unit of work (docs/architecture.md).
 */
export type S2sCardAction = (input: {
  body: Record<string, unknown>
  ctx: EngineContext
  request: GatewayRequest
}) => Record<string, unknown>
