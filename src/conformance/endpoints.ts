import { SCHEMA_BASE, schemaRegistry } from '../core/validation/index.js'

export type ApiName = 'checkout' | 's2s-card' | 's2s-apm'

/** One endpoint of the interface, as its request schema's `x-endpoint` describes it. */
export interface Endpoint {
  api: ApiName
  method: string
  path: string
  action?: string
  /** Path under schemas/ without the suffix, e.g. `checkout/refund-request`. */
  request: string
  response?: string
  responseV2?: string
}

const API_PATHS: Record<ApiName, string> = { checkout: '/api/v1', 's2s-card': '/post', 's2s-apm': '/post-va' }
export const S2S_PATH: Record<'s2s-card' | 's2s-apm', string> = { 's2s-card': '/post', 's2s-apm': '/post-va' }

let index: Endpoint[] | undefined

const short = (id: string) => id.replace(SCHEMA_BASE, '').replace(/\.schema\.json$/, '')

/** Every endpoint with a request schema, read from the schemas (the single source of truth). */
export function endpoints(): Endpoint[] {
  if (index) return index
  const registry = schemaRegistry()
  index = []
  for (const id of registry.ids()) {
    const folder = short(id).split('/')[0] as ApiName
    if (!(folder in API_PATHS)) continue
    const meta = registry.schema(id)?.['x-endpoint'] as
      | { method: string; path: string; action?: string; response?: string; responseV2?: string }
      | undefined
    if (!meta) continue
    index.push({
      api: folder,
      method: meta.method,
      path: meta.path,
      ...(meta.action ? { action: meta.action } : {}),
      request: short(id),
      ...(meta.response ? { response: short(SCHEMA_BASE + meta.response) } : {}),
      ...(meta.responseV2 ? { responseV2: short(SCHEMA_BASE + meta.responseV2) } : {}),
    })
  }
  return index
}

/** The endpoint of a Checkout path, or of an S2S action. */
export function findEndpoint(api: ApiName, where: { path?: string; action?: string }): Endpoint | undefined {
  if (api === 'checkout') return endpoints().find((e) => e.api === api && e.path === where.path)
  return endpoints().find((e) => e.api === api && e.action === where.action)
}

/** The response schema for an answer at this path (`/v2/post` has its own for some actions). */
export function responseSchemaFor(endpoint: Endpoint | undefined, path: string): string | undefined {
  if (!endpoint) return undefined
  return path.startsWith('/v2/') && endpoint.responseV2 ? endpoint.responseV2 : endpoint.response
}

/** Which API a gateway path belongs to, for requests the runner observes. */
export function apiOfPath(path: string): ApiName | undefined {
  if (path.startsWith('/api/v1/')) return 'checkout'
  if (path === '/post' || path === '/v2/post') return 's2s-card'
  if (path === '/post-va') return 's2s-apm'
  return undefined
}
