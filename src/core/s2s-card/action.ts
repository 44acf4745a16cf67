import type { EngineContext } from '../engine/context.js'
import type { GatewayRequest } from '../engine/http.js'

/** One S2S CARD action: gets the parsed form, answers the JSON body (the module writes it). */
export type S2sCardAction = (input: {
  body: Record<string, unknown>
  ctx: EngineContext
  request: GatewayRequest
}) => Record<string, unknown> | Promise<Record<string, unknown>>
