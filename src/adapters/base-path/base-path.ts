/**
 * decisions.md §2: "An optional base path (`--base-path /payment`) serves everything under a
 * prefix, as white-label deployments do". The adapters strip the prefix before the engine sees the
 * path (the engine's routes never change), and the {base_url} carries it, so every URL the sandbox
 * writes (hosted page, redirect_url, 3DS pages, the fields' script) stays under the prefix.
 */

/** `/payment` from `payment`, `/payment/`, `//payment`; '' for none or `/`. Throws on a bad value. */
export function normalizeBasePath(value: string | undefined): string {
  if (value === undefined) return ''
  const trimmed = value.trim().replace(/\/+$/, '').replace(/^\/*/, '/')
  if (trimmed === '/') return ''
  if (!/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/.test(trimmed))
    throw new TypeError(`the base path must be a URL path such as /payment (got "${value}")`)
  return trimmed
}

/**
 * Where the engine should see a request for `url` (path and query) under `basePath`: the rest of
 * the path, or undefined when the request is not under the prefix (the adapter answers it 404).
 */
export function stripBasePath(url: string, basePath: string): string | undefined {
  if (!basePath) return url
  const cut = url.search(/[?#]/)
  const path = cut < 0 ? url : url.slice(0, cut)
  const rest = cut < 0 ? '' : url.slice(cut)
  if (path === basePath) return `/${rest}`
  if (!path.startsWith(`${basePath}/`)) return undefined
  return path.slice(basePath.length) + rest
}

/** A path no engine route answers: a request outside the prefix gets the engine's own 404 row. */
export const OUTSIDE_BASE_PATH = '/__outside-base-path__'

/** `http://127.0.0.1:8080` + `/payment`, unless the URL already ends with the prefix. */
export function withBasePath(baseUrl: string, basePath: string): string {
  const url = baseUrl.replace(/\/+$/, '')
  if (!basePath || url.endsWith(basePath)) return url
  return url + basePath
}
