import express from 'express'
import type { Gateway } from '../../core/engine/gateway.js'
import { createRequestHandler, type RequestHandlerOptions } from './handler.js'

export type ExpressAppOptions = RequestHandlerOptions

/**
 * The engine's request handler (handler.ts) mounted in an express application, for those who
 * want one (supertest, an existing express server): express adds nothing of its own, no HTML
 * error page, no 404, no `X-Powered-By`, no ETag.
 */
export function createExpressApp(gateway: Gateway, options: ExpressAppOptions = {}): express.Express {
  const app = express()
  app.disable('x-powered-by')
  app.set('etag', false)
  app.use(createRequestHandler(gateway, options))
  return app
}
