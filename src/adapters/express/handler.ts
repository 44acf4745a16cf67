import type { IncomingMessage, ServerResponse } from 'node:http'
import { type Gateway, internalErrorResponse } from '../../core/engine/gateway.js'
import { normalizeBasePath } from '../base-path/base-path.js'
import { type NodeRequestOptions, toGatewayRequest, writeResponse } from './node-request.js'

export interface RequestHandlerOptions extends Omit<NodeRequestOptions, 'basePath'> {
  /** Called with any failure of the adapter itself (never a user's bad input). Default: the engine's logger. */
  onError?: (error: unknown) => void
  /** docs/rules.md#transport `--base-path`: every route under this prefix (`/payment/post`); others answer 404. */
  basePath?: string
}

/**
 * The HTTP face of the engine, and translation only (docs/architecture.md): every request,
 * whatever its path, method or body, goes to `gateway.handle` with its path as it arrived, its
 * lower-case headers and a reader for its body; the answer is written back unchanged. Path
 * normalisation, the control guard, limits, the flush and every error answer are the engine's:
 * nothing here answers on its own. A plain node request listener: `serve` and `sandbox.listen` give
 * it to the HTTP server directly (a framework's router and request decoration would only cost
 * time on every request, issue 32: bench/README.md); createExpressApp mounts it in express.
 */
export function createRequestHandler(
  gateway: Gateway,
  options: RequestHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const onError =
    options.onError ?? ((error) => gateway.ctx.logger.error('HTTP adapter', { error: String(error) }))
  const basePath = normalizeBasePath(options.basePath)
  const translation: NodeRequestOptions = {
    ...(basePath ? { basePath } : {}),
    ...(options.servedHosts ? { servedHosts: options.servedHosts } : {}),
    ...(options.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
  }
  // gateway.handle answers its own failures; a rejection, or a throw here, is a broken adapter or
  // engine: its 500 shape, and the process goes on serving.
  const broken = (req: IncomingMessage, res: ServerResponse) => (error: unknown) => {
    onError(error)
    writeResponse(req, res, internalErrorResponse())
  }
  return (req, res) => {
    try {
      gateway
        .handle(toGatewayRequest(req, res, translation))
        .then((response) => writeResponse(req, res, response), broken(req, res))
        // An answer that cannot even be written: the connection goes, the process stays.
        .catch((error: unknown) => {
          onError(error)
          res.destroy()
        })
    } catch (error) {
      broken(req, res)(error)
    }
  }
}
