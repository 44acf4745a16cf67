import { errorPage, fail } from './errors.js'
import type { GatewayResponse, IncomingRequest } from './http.js'
import type { RouteDefinition } from './modules.js'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * docs/rules.md#page-guard: a hosted page that changes state (the payer's forms, the Hosted Payment
 * Fields demo) takes no request from another site, by the control API's own rule (`Origin`,
 * `Sec-Fetch-Site`: control-guard.ts `crossOrigin`, handed in as `crossSite`). `gateway.handle`
 * calls this once the route is known, before the body is read, for every adapter. Reading a page
 * (GET) is never refused here. A refused request reaches no handler, so it changes nothing.
 *
 * A route that another site sends the payer to by a form post (`crossSite: 'arrival'`: the ACS page
 * and the redirect simulator, where an S2S merchant's page auto-submits `redirect_params`) is not
 * refused: the post is the payer arriving, answered 303 to the page itself, which the payer then
 * answers from this origin. It is never the payer's answer.
 */
export function pageGuard(
  route: RouteDefinition,
  request: IncomingRequest,
  crossSite: () => boolean,
  baseUrl: string,
): GatewayResponse | undefined {
  if (route.api !== 'page' || SAFE_METHODS.has(request.method.toUpperCase())) return undefined
  if (!crossSite()) return undefined
  if (route.crossSite === 'arrival') {
    // The page itself, under the base URL's path (`/payment/acs/…` behind a base path).
    const base = new URL(baseUrl).pathname.replace(/\/+$/, '')
    return {
      status: 303,
      headers: { location: `${base}${request.path}`, 'cache-control': 'no-store' },
      body: '',
    }
  }
  return errorPage(fail('SANDBOX_PAGE_CROSS_SITE'))
}
