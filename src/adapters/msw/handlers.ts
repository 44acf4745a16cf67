import { type HttpHandler, http } from 'msw'
import type { Gateway } from '../../core/engine/gateway.js'
import { ConnectionDropped } from '../../core/faults/index.js'
import { createFetchHandler, isUnder } from '../fetch/fetch-handler.js'

export interface MswHandlerOptions {
  /** Recorded as the caller's address; default `127.0.0.1` (the request never left this process). */
  remoteAddress?: string
}

/**
 * msw request handlers that answer every request under `base` (any method, any path below the
 * base's path) from the engine, so a merchant's test suite reaches the sandbox at its usual
 * address with no port: `setupServer(...createMswHandlers(gateway, 'https://gateway.test'))`.
 * A predicate rather than a `${base}/*` pattern: a base holding `:` or `*` (a port, a path) is
 * then never read as msw path syntax. Requests elsewhere are left to the other handlers.
 */
export function createMswHandlers(
  gateway: Gateway,
  base: string,
  options: MswHandlerOptions = {},
): HttpHandler[] {
  const baseUrl = parseBase(base)
  const answer = createFetchHandler(gateway, { base: baseUrl.href, ...options })
  return [
    http.all(
      ({ request }) => isUnder(new URL(request.url), baseUrl),
      // Gateway faults (src/core/faults): a dropped connection (or a caller that gave up) is msw's network error.
      ({ request }) =>
        answer(request).catch((error: unknown) => {
          if (error instanceof ConnectionDropped || request.signal.aborted) return Response.error()
          throw error
        }),
    ),
  ]
}

function parseBase(base: string): URL {
  let url: URL
  try {
    url = new URL(base)
  } catch {
    throw new TypeError(
      `msw handlers: the base URL must be absolute, like https://gateway.test (got "${base}")`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`msw handlers: the base URL must be http or https (got "${base}")`)
  if (url.search || url.hash)
    throw new TypeError(`msw handlers: the base URL takes no query or fragment (got "${base}")`)
  return url
}
