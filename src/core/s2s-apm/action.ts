import type { EngineContext } from '../engine/context.js'

/** One S2S APM action: gets the parsed form, answers the JSON body (the module writes it). */
export type S2sApmAction = (input: {
  body: Record<string, unknown>
  ctx: EngineContext
}) => Record<string, unknown>
