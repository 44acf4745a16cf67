/**
 * `paysandbox/msw`: a sandbox reached through msw, for a merchant's test suite with no port.
 * A separate entry so that the main one (`paysandbox`) needs nothing its user did not install:
 * msw is an optional peer dependency, needed only by those who import this.
 *
 *   import { createSandbox } from 'paysandbox'
 *   import { mswHandlers } from 'paysandbox/msw'
 *   const sandbox = await createSandbox({ onCallback: (request) => myApp.handle(request) })
 *   const server = setupServer(...mswHandlers(sandbox, 'https://gateway.test'))
 */
import type { HttpHandler } from 'msw'
import { createMswHandlers, type MswHandlerOptions } from './adapters/msw/handlers.js'
import { adoptBaseUrl, type Sandbox } from './library/create-sandbox.js'

export { createMswHandlers, type MswHandlerOptions }

/**
 * msw handlers answering every request under `baseUrl` (default: the sandbox's) from `sandbox`.
 * The first address a sandbox is reached at becomes the {base_url} of its answers, unless its
 * configuration or `createSandbox({ baseUrl })` set one.
 */
export function mswHandlers(
  sandbox: Sandbox,
  baseUrl: string = sandbox.baseUrl,
  options: MswHandlerOptions = {},
): HttpHandler[] {
  const handlers = createMswHandlers(sandbox.gateway, baseUrl, options)
  adoptBaseUrl(sandbox, baseUrl)
  return handlers
}
