/**
 * docs/rules.md#base-path: "An optional base path (`--base-path /payment`) serves everything under a
 * prefix, as white-label deployments do". The adapters pass the prefix with each request and the engine
 * takes it off once it has normalised the path (core/engine/path.ts; its routes never change), and
 * the {base_url} carries it, so every URL the sandbox
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

/** `http://127.0.0.1:8080` + `/payment`, unless the URL already ends with the prefix. */
export function withBasePath(baseUrl: string, basePath: string): string {
  const url = baseUrl.replace(/\/+$/, '')
  if (!basePath || url.endsWith(basePath)) return url
  return url + basePath
}
