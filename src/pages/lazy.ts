import type { OperationHandler, RouteDefinition } from '../core/engine/modules.js'
import { none } from '../core/engine/pipeline.js'

/**
 * Why a hosted page declares no request pipeline: the payer is not a merchant (no credential, no
 * signature); the page reads its own path token or payment id through the engine's payer
 * operations, which refuse what the session or payment does not allow, and a form the page posted
 * itself is answered on the page (422 with the field's message), not with an API envelope.
 */
const PAGE_REASON =
  "a payer's hosted page: no merchant credential or signature; its path token or payment id is checked by the payer operation it calls, its own form answered on the page"

/**
 * Route handlers whose module is imported on the first request that needs it (issue 15: React's
 * server renderer, qrcode and the 21 locales cost `serve` about a third of its start-up). The
 * import runs in the route's `prepare`, before the unit of work, so the handler itself stays
 * synchronous inside the unit.
 */
export function lazyHandlers<M>(load: () => Promise<M>) {
  let loaded: M | undefined
  let loading: Promise<void> | undefined
  const prepare = (): Promise<void> => {
    loading ??= load().then(
      (m) => {
        loaded = m
      },
      (error: unknown) => {
        loading = undefined
        throw error
      },
    )
    return loading
  }
  /** A handler taken from the loaded module; the route must carry `prepare`. */
  const handler =
    (pick: (m: M) => OperationHandler): OperationHandler =>
    (input) => {
      if (!loaded) throw new Error('lazyHandlers: the route was run without its prepare step')
      return pick(loaded)(input)
    }
  const route = (
    method: RouteDefinition['method'],
    path: string,
    pick: (m: M) => OperationHandler,
    summary: string,
    extra: Partial<RouteDefinition> = {},
  ): RouteDefinition => ({
    method,
    path,
    api: 'page',
    handler: handler(pick),
    summary,
    prepare,
    declared: none(PAGE_REASON),
    ...extra,
  })
  return { prepare, handler, route }
}
