/**
 * Protection of the control API (`/sandbox/...`, issue 11 point 4). Pure: `gateway.handle` calls
 * `checkControlRequest` on every request, after normalising its path (engine/path.ts) and before
 * routing it, whatever adapter it came through (express, msw, `sandbox.fetch`, the kit's host);
 * no adapter guards on its own. A refusal names the error catalogue row to answer in the control
 * API's envelope; a refused request reaches no handler, so it changes nothing.
 *
 * Why each check (a sandbox on a developer's machine, reached by any web page the developer opens):
 * - a browser request from another origin (`Origin` not served here, or `Sec-Fetch-Site`
 *   cross-site/same-site) is refused: a page could otherwise reset the store or read payments;
 * - a change sent with a content type an HTML form can send cross-origin without a preflight
 *   (text/plain, application/x-www-form-urlencoded, multipart/form-data) is refused, for browsers
 *   that send no `Origin`; the control API takes JSON;
 * - the `Host` must name an address served here (DNS rebinding: a page at evil.test whose name
 *   then resolves to 127.0.0.1 sends `Host: evil.test`); a request without `Host` never crossed a
 *   network (msw, in-process fetch);
 * - with a control token configured, every request must carry it (`X-Sandbox-Control-Token` or
 *   `Authorization: Bearer`); a request carrying it passes the Host check (a rebinding page cannot
 *   know it), so a sandbox served to a container network needs no host list.
 * `GET`/`HEAD /sandbox/health` (a readiness probe from anywhere) is checked for cross-origin
 * browsers only.
 */

export interface ControlGuardOptions {
  /** Host names (no port, lower case; IPv6 without brackets) whose requests pass the Host check. */
  hosts: readonly string[]
  /** Origins (`scheme://host[:port]`) of pages allowed to call the control API (besides same-origin). */
  origins?: readonly string[]
  /** When set, every control request (but health) must carry it. */
  token?: string
}

/** What the guard looks at: the request as the engine sees it (lower-case header names). */
export interface ControlRequest {
  method: string
  path: string
  headers: Readonly<Record<string, string | undefined>>
}

/** A catalogue row id (schemas/catalogue/errors.json), answered in the control API's envelope. */
export type ControlRefusal =
  | 'SANDBOX_CONTROL_CROSS_ORIGIN'
  | 'SANDBOX_CONTROL_CONTENT_TYPE'
  | 'SANDBOX_CONTROL_HOST_UNKNOWN'
  | 'SANDBOX_CONTROL_TOKEN_INVALID'

/** Names every loopback address and `localhost` (always served). */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '::1']

export const CONTROL_TOKEN_HEADER = 'x-sandbox-control-token'

const FORM_TYPES = new Set(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'])
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export const isControlPath = (path: string): boolean => path === '/sandbox' || path.startsWith('/sandbox/')

/**
 * The guard's options for an engine: its config's `control_token` and `allowed_hosts`, the base
 * URL's host, and the host names the adapter says it is reached at (`servedHosts`: the bound
 * address, the machine's addresses on a wildcard bind, the msw base's host).
 */
export function guardOptions(
  config: { control_token?: string; allowed_hosts?: readonly string[] },
  baseUrl: string,
  servedHosts: readonly string[] = [],
): ControlGuardOptions {
  const baseHost = hostOfUrl(baseUrl)
  const token = config.control_token
  return {
    hosts: [
      ...new Set(
        [...(baseHost ? [baseHost] : []), ...(config.allowed_hosts ?? []), ...servedHosts].map(
          (h) => splitHost(h.toLowerCase())[0],
        ),
      ),
    ],
    ...(token !== undefined ? { token } : {}),
  }
}

/** The host name of a URL as the guard compares it (lower case, IPv6 without brackets). */
export function hostOfUrl(url: string): string | undefined {
  try {
    return splitHost(new URL(url).host.toLowerCase())[0]
  } catch {
    return undefined
  }
}

/** undefined when the request may go on; else the catalogue row that refuses it. Non-control paths always pass. */
export function checkControlRequest(
  request: ControlRequest,
  options: ControlGuardOptions,
): ControlRefusal | undefined {
  if (!isControlPath(request.path)) return undefined
  const { headers } = request
  const method = request.method.toUpperCase()
  if (crossOrigin(headers, options)) return 'SANDBOX_CONTROL_CROSS_ORIGIN'
  if (request.path === '/sandbox/health' && (method === 'GET' || method === 'HEAD')) return undefined
  if (!SAFE_METHODS.has(method) && FORM_TYPES.has(mediaType(headers['content-type'])))
    return 'SANDBOX_CONTROL_CONTENT_TYPE'
  const tokenOk = options.token !== undefined && sameText(presentedToken(headers) ?? '', options.token)
  if (options.token !== undefined && !tokenOk) return 'SANDBOX_CONTROL_TOKEN_INVALID'
  if (!tokenOk && !hostServed(headers.host, options.hosts)) return 'SANDBOX_CONTROL_HOST_UNKNOWN'
  return undefined
}

/** The token a request carries: `X-Sandbox-Control-Token`, else `Authorization: Bearer <token>`. */
export function presentedToken(headers: Readonly<Record<string, string | undefined>>): string | undefined {
  const own = headers[CONTROL_TOKEN_HEADER]
  if (own) return own.trim()
  const bearer = /^\s*bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')
  return bearer?.[1]
}

/**
 * A browser request from another origin: `Sec-Fetch-Site` cross-site or same-site, or an `Origin`
 * that is not this host and port (or names a host not served here). The one rule for the control
 * API and for the hosted pages that change state (engine/page-guard.ts, docs/rules.md#page-guard).
 */
export function crossOrigin(
  headers: ControlRequest['headers'],
  options: Pick<ControlGuardOptions, 'hosts' | 'origins'>,
): boolean {
  const site = headers['sec-fetch-site']?.trim().toLowerCase()
  if (site === 'cross-site' || site === 'same-site') return true
  const origin = headers.origin?.trim()
  if (origin === undefined || origin === '') return false
  if (options.origins?.some((o) => o.toLowerCase() === origin.toLowerCase())) return false
  // Same origin: the page was served by this host and port. `null` (a sandboxed frame, a file) never is.
  const host = headers.host?.trim().toLowerCase()
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)$/i.exec(origin)
  if (!match || !host) return true
  const [originHost, originPort] = splitHost((match[1] as string).toLowerCase())
  const [hostName, hostPort] = splitHost(host)
  const scheme = origin.slice(0, origin.indexOf(':')).toLowerCase()
  const port = (p: string | undefined) => p ?? (scheme === 'https' ? '443' : '80')
  return originHost !== hostName || port(originPort) !== port(hostPort) || !hostServed(host, options.hosts)
}

function hostServed(host: string | undefined, hosts: readonly string[]): boolean {
  if (host === undefined) return true
  const [name] = splitHost(host.trim().toLowerCase())
  return name !== '' && (LOOPBACK_HOSTS.includes(name) || hosts.some((h) => h.toLowerCase() === name))
}

/** `example.test:8080` -> [example.test, 8080]; `[::1]:8080` -> [::1, 8080]; a trailing dot dropped. */
export function splitHost(host: string): [string, string | undefined] {
  const v6 = /^\[([^\]]*)\](?::(\d*))?$/.exec(host)
  if (v6) return [v6[1] as string, v6[2] || undefined]
  const colon = host.lastIndexOf(':')
  const [name, port] =
    colon >= 0 && host.indexOf(':') === colon
      ? [host.slice(0, colon), host.slice(colon + 1)]
      : [host, undefined]
  return [name.replace(/\.$/, ''), port || undefined]
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}

/** Compares without stopping at the first difference (the time taken says nothing about the token). */
function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    diff |= (a.charCodeAt(i % (a.length || 1)) || 0) ^ (b.charCodeAt(i % (b.length || 1)) || 0)
  return diff === 0
}
