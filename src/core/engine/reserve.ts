import type { RouteDefinition } from './modules.js'

/**
 * docs/rules.md#connections: what a connection admitted on the reserve (beyond the connection cap)
 * is served: health, the control API (the console's source) and the payer pages, so that an
 * operator can see and steer a sandbox whose connections are all held, and a payer can finish a
 * page. Not the merchant APIs, whose load is what fills the cap, nor the event stream, which would
 * hold its reserve place for ever.
 */
export function servesOnReserve(route: RouteDefinition): boolean {
  if (route.longLived) return false
  return route.api === 'sandbox' || route.api === 'page'
}
