import type { EngineContext } from '../engine/context.js'
import type { GatewayRequest, GatewayResponse } from '../engine/http.js'
import type { FaultMode } from './rules.js'

import { FAULT_HEADER } from '../engine/http.js'

export { FAULT_HEADER }

/** The reason phrases a proxy in front of the gateway (nginx) writes on its own error pages. */
const REASONS: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Temporarily Unavailable',
  504: 'Gateway Time-out',
}

/**
 * A proxy's page in front of the gateway, as nginx writes it when the gateway behind it failed or
 * was too slow: HTML, never the gateway's JSON, so a merchant that parses every answer as the
 * gateway's finds no status in it.
 */
export function proxyPage(status: number, mode: FaultMode): GatewayResponse {
  const title = `${status} ${REASONS[status] ?? 'Error'}`
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', server: 'nginx', [FAULT_HEADER]: mode },
    body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
  }
}

/** No answer at all: adapters close the connection (a fetch caller gets a network error). */
export const dropped = (mode: FaultMode): GatewayResponse => ({
  status: 504,
  headers: { [FAULT_HEADER]: mode },
  body: '',
  fault: 'drop',
})

/** Time passes on the sandbox's clock: a virtual clock moves on, a system clock is waited for. */
export async function waitOnClock(ctx: EngineContext, seconds: number): Promise<void> {
  if (ctx.clock.kind === 'virtual') await ctx.clock.advance(seconds * 1000)
  else await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
}

/**
 * Holds an answer in real time (whatever the sandbox's clock) until the client gives up (its
 * connection closes: the adapter's `signal`) or `seconds` have passed: true when the client left.
 * Waiting for the client rather than a fixed time keeps a run as fast as the merchant's own
 * time-out; the cap frees a client that never gives up. The only real-time timer of the engine,
 * and it is a test control: it keeps no process alive.
 */
export function holdAnswer(request: GatewayRequest, seconds: number): Promise<boolean> {
  const signal = request.signal
  if (signal?.aborted) return Promise.resolve(true)
  return new Promise((resolve) => {
    const finish = (gone: boolean) => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      resolve(gone)
    }
    const onAbort = () => finish(true)
    const timer = setTimeout(() => finish(false), seconds * 1000)
    timer.unref?.()
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
