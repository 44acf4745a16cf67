import { type ControlGuardOptions, LOOPBACK_HOSTS, splitHost } from '../../core/control/guard.js'
import type { EngineContext } from '../../core/engine/context.js'
import { errorResponse, fail } from '../../core/engine/errors.js'
import type { GatewayResponse } from '../../core/engine/http.js'

/** The host name of a URL as the guard compares it (lower case, IPv6 without brackets). */
export function hostOfUrl(url: string): string | undefined {
  try {
    return splitHost(new URL(url).host.toLowerCase())[0]
  } catch {
    return undefined
  }
}

/** A bound address the guard should admit: not a wildcard (0.0.0.0, ::), which names no host. */
export function boundHost(host: string | undefined): string[] {
  if (host === undefined || host === '0.0.0.0' || host === '::' || host === '') return []
  return [splitHost(host.toLowerCase())[0]]
}

/** Binding to these stays on this machine: everything else reaches other machines. */
export function isLoopbackBind(host: string): boolean {
  const name = splitHost(host.toLowerCase())[0]
  return LOOPBACK_HOSTS.includes(name) || /^127\.\d+\.\d+\.\d+$/.test(name)
}

/**
 * The guard's options from the engine's config and base URL, plus `extra` (what serve knows: the
 * bound address, the machine's addresses, --allow-host, --control-token). Recomputed only when the
 * base URL changes (the library adopts the first address it is reached at).
 */
export function controlGuardFor(
  ctx: Pick<EngineContext, 'config' | 'baseUrl'>,
  extra: Partial<ControlGuardOptions> = NO_EXTRA,
): ControlGuardOptions {
  let byExtra = cache.get(ctx)
  if (!byExtra) {
    byExtra = new WeakMap()
    cache.set(ctx, byExtra)
  }
  const cached = byExtra.get(extra)
  if (cached && cached.baseUrl === ctx.baseUrl) return cached.options
  const { config } = ctx
  const baseHost = hostOfUrl(ctx.baseUrl)
  const token = extra.token ?? config.control_token
  const options: ControlGuardOptions = {
    hosts: [
      ...new Set([...(baseHost ? [baseHost] : []), ...(config.allowed_hosts ?? []), ...(extra.hosts ?? [])]),
    ].map((h) => h.toLowerCase()),
    origins: [...(extra.origins ?? [])],
    ...(token !== undefined ? { token } : {}),
  }
  byExtra.set(extra, { baseUrl: ctx.baseUrl, options })
  return options
}
const NO_EXTRA: Partial<ControlGuardOptions> = Object.freeze({})
/** Per engine context, per `extra` object: the options, valid while the base URL stays. */
const cache = new WeakMap<object, WeakMap<object, { baseUrl: string; options: ControlGuardOptions }>>()

/** 503 in the plain envelope: the disk refused a change, which was rolled back (issue 11, point 5). */
export function storeUnavailable(): GatewayResponse {
  return errorResponse(fail('SANDBOX_STORE_UNAVAILABLE'), 'sandbox')
}
