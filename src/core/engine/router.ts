import type { GatewayRequest, GatewayResponse } from './http.js'

export type RouteParams = Record<string, string>
export type Handler<Ctx> = (
  request: GatewayRequest,
  params: RouteParams,
  ctx: Ctx,
) => Promise<GatewayResponse>

interface Route<Ctx> {
  method: string
  pattern: string
  segments: string[]
  handler: Handler<Ctx>
}

/** A small table router: `/auth/:token` style patterns, exact methods, no regular expressions from users. */
export function createRouter<Ctx>() {
  const routes: Route<Ctx>[] = []
  return {
    add(method: string, pattern: string, handler: Handler<Ctx>) {
      routes.push({
        method: method.toUpperCase(),
        pattern,
        segments: pattern.split('/').filter(Boolean),
        handler,
      })
    },
    /** The matching route, `'method'` when the path exists for another method, or undefined. */
    match(
      method: string,
      path: string,
    ): { handler: Handler<Ctx>; params: RouteParams } | 'method' | undefined {
      const parts = path.split('/').filter(Boolean)
      let pathExists = false
      for (const route of routes) {
        const params = matchSegments(route.segments, parts)
        if (!params) continue
        if (route.method === method.toUpperCase()) return { handler: route.handler, params }
        pathExists = true
      }
      return pathExists ? 'method' : undefined
    },
    routes: () => routes.map((r) => `${r.method} ${r.pattern}`),
  }
}

function matchSegments(pattern: string[], parts: string[]): RouteParams | undefined {
  if (pattern.length !== parts.length) return undefined
  const params: RouteParams = {}
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string
    const v = parts[i] as string
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(v)
      } catch {
        return undefined
      }
    } else if (p !== v) return undefined
  }
  return params
}
