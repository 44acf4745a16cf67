export type RouteParams = Record<string, string>

interface Route<T> {
  method: string
  segments: string[]
  value: T
}

/** A small table router: `/auth/:token` style patterns, exact methods, no regular expressions from users. */
export function createRouter<T>() {
  const routes: Route<T>[] = []
  return {
    add(method: string, pattern: string, value: T) {
      routes.push({ method: method.toUpperCase(), segments: pattern.split('/').filter(Boolean), value })
    },
    /** The matching route, `'method'` when the path exists for another method only, or undefined. */
    match(method: string, path: string): { value: T; params: RouteParams } | 'method' | undefined {
      const parts = path.split('/').filter(Boolean)
      let pathExists = false
      for (const route of routes) {
        const params = matchSegments(route.segments, parts)
        if (!params) continue
        if (route.method === method.toUpperCase()) return { value: route.value, params }
        pathExists = true
      }
      return pathExists ? 'method' : undefined
    },
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
