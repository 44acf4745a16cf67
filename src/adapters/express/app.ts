import express, { type Request, type Response } from 'express'
import { type Gateway, internalErrorResponse } from '../../core/engine/gateway.js'
import { normalizeBasePath } from '../base-path/base-path.js'
import { type NodeRequestOptions, toGatewayRequest, writeResponse } from './node-request.js'

export interface ExpressAppOptions extends Omit<NodeRequestOptions, 'basePath'> {
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
 * nothing here answers on its own, so there is no HTML error page and no express 404.
 */
export function createExpressApp(gateway: Gateway, options: ExpressAppOptions = {}): express.Express {
  const onError =
    options.onError ?? ((error) => gateway.ctx.logger.error('express adapter', { error: String(error) }))
  const basePath = normalizeBasePath(options.basePath)
  const translation: NodeRequestOptions = {
    ...(basePath ? { basePath } : {}),
    ...(options.servedHosts ? { servedHosts: options.servedHosts } : {}),
    ...(options.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
  }
  const app = express()
  app.disable('x-powered-by')
  app.set('etag', false)
  app.use((req: Request, res: Response) => {
    gateway.handle(toGatewayRequest(req, res, translation)).then(
      (response) => writeResponse(req, res, response),
      // gateway.handle answers its own failures; a rejection is a broken engine: its 500 shape.
      (error: unknown) => {
        onError(error)
        writeResponse(req, res, internalErrorResponse())
      },
    )
  })
  return app
}
