/**
 * The one reading of a request's path (docs/architecture.md, the lifecycle): `gateway.handle`
 * normalises the path as it arrived before anything reads it (the control guard, the router, the
 * handlers, the logs), so every spelling of a path is the same path:
 *
 * - empty segments go (`//sandbox//reset` is `/sandbox/reset`), and so does a trailing slash;
 * - dot segments are resolved (`/./sandbox/reset`, `/x/../sandbox/reset`); `..` never climbs
 *   above the root (as URLs resolve it);
 * - percent-encoded unreserved characters are decoded (`/sandbox/%72eset`, `/%2e%2e/`), others
 *   are kept as they came (route parameters are decoded once they are matched);
 * - an encoded slash or backslash (`%2F`, `%2f`, `%5C`) or a raw backslash is refused with 400
 *   REQUEST_PATH_INVALID: no route of the gateway has one inside a segment, and a proxy, a
 *   framework or the merchant's own client may read it as a separator where the sandbox would
 *   not, so it is a client's mistake to report rather than to guess at;
 * - an absolute-form target (`GET http://host/path`) is read as its path;
 * - then the base path (`--base-path /payment`, or the path of the base URL msw and
 *   `sandbox.fetch` serve under) is taken off; a path outside it is not found.
 */

/** The request target is not a path the gateway can read (catalogue row REQUEST_PATH_INVALID). */
export const PATH_INVALID = 1 as const
/** A path outside the served base path: no route answers it (ROUTE_NOT_FOUND). */
export const PATH_OUTSIDE = 2 as const

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/
const UNRESERVED = /[A-Za-z0-9\-._~]/

/**
 * The path the engine routes, with `basePath` (already normalised: `/payment` or '') taken off;
 * PATH_INVALID or PATH_OUTSIDE when there is none.
 */
export function normalisePath(
  raw: string,
  basePath = '',
): string | typeof PATH_INVALID | typeof PATH_OUTSIDE {
  const path = plain(raw) ? raw : slowNormalise(raw)
  if (path === PATH_INVALID || !basePath) return path
  if (path === basePath) return '/'
  if (path.length > basePath.length && path.startsWith(basePath) && path[basePath.length] === '/')
    return path.slice(basePath.length)
  return PATH_OUTSIDE
}

/**
 * Nothing to normalise (most requests): starts with `/`, no empty or dot-led segment, no
 * percent-encoding, no backslash, no trailing slash. Anything else takes the general path.
 */
function plain(raw: string): boolean {
  return (
    raw.charCodeAt(0) === 47 &&
    (raw.length === 1 || raw.charCodeAt(raw.length - 1) !== 47) &&
    !raw.includes('//') &&
    !raw.includes('/.') &&
    !raw.includes('%') &&
    !raw.includes('\\')
  )
}

function slowNormalise(raw: string): string | typeof PATH_INVALID {
  let path = raw
  const absolute = ABSOLUTE_FORM.exec(path)
  if (absolute) path = path.slice(absolute[0].length) || '/'
  if (!path.startsWith('/') || path.includes('\\')) return PATH_INVALID
  if (path.includes('%')) {
    let separator = false
    path = path.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
      const char = String.fromCharCode(Number.parseInt(hex, 16))
      if (char === '/' || char === '\\') separator = true
      return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`
    })
    if (separator) return PATH_INVALID
  }
  const out: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') out.pop()
    else out.push(segment)
  }
  return `/${out.join('/')}`
}
