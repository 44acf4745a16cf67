import type { EngineContext } from '../engine/context.js'
import type { GatewayResponse, IncomingRequest } from '../engine/http.js'
import { createRequestLog, DEFAULT_PER_MERCHANT, type RequestLog } from './log.js'
import { describeRequest, type RequestTrace, worthRecording } from './record.js'

export type { RequestLog } from './log.js'
export type { RequestTrace } from './record.js'
export type { RequestQuery, RequestRecord } from './types.js'

/** Bytes of a request's body and of its answer kept per record (config `limits.request_log_body_bytes`). */
export const DEFAULT_BODY_BYTES = 16 * 1024

interface Held {
  log: RequestLog
  bodyLimit: number
}

/** One log per engine, beside it (as the fault rules are): kept in memory, never in the store. */
const logs = new WeakMap<EngineContext, Held>()

function heldFor(ctx: EngineContext): Held {
  let held = logs.get(ctx)
  if (!held) {
    const limits = ctx.config.limits
    held = {
      log: createRequestLog(limits?.request_log ?? DEFAULT_PER_MERCHANT),
      bodyLimit: limits?.request_log_body_bytes ?? DEFAULT_BODY_BYTES,
    }
    logs.set(ctx, held)
  }
  return held
}

export const requestLogOf = (ctx: EngineContext): RequestLog => heldFor(ctx).log

/** The trace the lifecycle fills for one request, or undefined when the log is off. */
export function startTrace(ctx: EngineContext): RequestTrace | undefined {
  return heldFor(ctx).log.perMerchant > 0 ? { at: ctx.clock.now() } : undefined
}

/**
 * Records a request once it is answered (gateway.handle). Never throws: a request is answered
 * whatever becomes of its record, and a failure to record is the log's own bug, logged.
 */
export function recordRequest(
  ctx: EngineContext,
  request: IncomingRequest,
  response: GatewayResponse,
  trace: RequestTrace,
): void {
  if (!worthRecording(trace.route, request.method)) return
  try {
    const held = heldFor(ctx)
    held.log.add(describeRequest(ctx, request, response, trace, held.bodyLimit))
  } catch (error) {
    ctx.logger.error('request log: could not record a request', {
      path: request.path,
      error: String((error as Error)?.stack ?? error),
    })
  }
}
