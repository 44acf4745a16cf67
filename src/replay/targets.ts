import { ReplayInputError } from './errors.js'
import type { CaptureFormat } from './input/read.js'
import type { Exchange } from './input/types.js'

/**
 * Which requests of a capture went to the gateway. The gateway is the origin (and base path) the
 * file's gateway API requests went to (`/api/v1/...`, `/post`, `/v2/post`, `/post-va`; else the
 * hosted pages' own paths), or the one named with `--gateway URL`. A browser's HAR holds other
 * sites too (the shop's pages, fonts): they are listed as skipped. A merchant's gateway log holds
 * only gateway requests: a line to another host, or a gateway request to another host than the
 * gateway, is an error naming it.
 */
export interface GatewayBase {
  origin: string
  /** The base path the gateway is served under (`/payment`), '' for none. */
  prefix: string
}

const API = /^(.*?)(\/api\/v1\/[a-z0-9/_-]+|\/v2\/post|\/post-va|\/post)$/
const PAGE = /^(.*?)\/(auth|acs|hpf|redirect-sim|apm)\/[^/]+/

export const baseText = (base: GatewayBase) => `${base.origin}${base.prefix}`

function candidate(e: Exchange): GatewayBase | undefined {
  const api = e.method === 'POST' || e.method === 'PUT' ? API.exec(e.url.pathname) : null
  const page = api ?? PAGE.exec(e.url.pathname)
  return page ? { origin: e.url.origin, prefix: page[1] ?? '' } : undefined
}

export function parseGatewayUrl(text: string): GatewayBase {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ReplayInputError('--gateway', undefined, `not an absolute http(s) URL: ${text}`)
  }
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') }
}

export function findGateway(exchanges: Exchange[], given?: GatewayBase): GatewayBase {
  if (given) return given
  const seen = new Map<string, { base: GatewayBase; first: Exchange; api: boolean }>()
  for (const e of exchanges) {
    const base = candidate(e)
    if (!base) continue
    const key = baseText(base)
    const api = API.test(e.url.pathname)
    const known = seen.get(key)
    if (!known) seen.set(key, { base, first: e, api })
    else if (api) known.api = true
  }
  // Gateway API requests name the gateway; pages only when there is no API request at all.
  const apis = [...seen.values()].filter((s) => s.api)
  const found = apis.length ? apis : [...seen.values()]
  const first = exchanges[0]
  if (!found.length || !first)
    throw new ReplayInputError(
      first?.file ?? 'input',
      undefined,
      'no request in it goes to a gateway (no /api/v1/..., /post, /v2/post, /post-va or hosted page path): name the gateway with --gateway URL',
    )
  if (found.length > 1)
    throw new ReplayInputError(
      found[1]?.first.file ?? first.file,
      found[1]?.first.where,
      `requests go to more than one gateway (${found.map((f) => `${baseText(f.base)} from ${f.first.where}`).join(', ')}): name the one to replay with --gateway URL`,
    )
  return (found[0] as { base: GatewayBase }).base
}

export type Target = { kind: 'gateway'; path: string } | { kind: 'skipped'; why: string }

const STATIC = /^\/(assets|sdk)\/[^/]+\.(js|css|png|svg|ico|woff2?)$|^\/favicon\.ico$/

/** What the replay does with one exchange: send it to the gateway (at this path), or skip it and why. */
export function targetOf(e: Exchange, base: GatewayBase, format: CaptureFormat): Target {
  const under =
    e.url.origin === base.origin &&
    (base.prefix === '' || e.url.pathname === base.prefix || e.url.pathname.startsWith(`${base.prefix}/`))
  if (!under) {
    const looksLikeGateway = candidate(e) && API.test(e.url.pathname)
    if (format === 'jsonl' || looksLikeGateway)
      throw new ReplayInputError(
        e.file,
        e.where,
        `${e.method} ${e.url.origin}${e.url.pathname} goes to a host that is not the gateway (${baseText(base)})${
          format === 'jsonl'
            ? ": a merchant's gateway log holds its requests to the gateway only"
            : ' though its path is a gateway endpoint'
        }; name the gateway with --gateway URL if it is this one`,
      )
    return { kind: 'skipped', why: `not the gateway (${e.url.origin})` }
  }
  const path = e.url.pathname.slice(base.prefix.length) || '/'
  if (e.method === 'GET' && STATIC.test(path))
    return { kind: 'skipped', why: 'a static file of the hosted pages' }
  if (path.startsWith('/sandbox/'))
    return { kind: 'skipped', why: "the sandbox's control API, not the merchant's nor the payer's" }
  if (e.method === 'OPTIONS' || e.method === 'HEAD')
    return { kind: 'skipped', why: `${e.method}: answers nothing to compare` }
  return { kind: 'gateway', path }
}
