import type { OperationHandler, RouteDefinition } from '../core/engine/modules.js'

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
  ): RouteDefinition => ({ method, path, api: 'page', handler: handler(pick), summary, prepare, ...extra })
  return { prepare, handler, route }
}
