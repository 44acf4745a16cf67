import type { AddressInfo } from 'node:net'
import { normalizeBasePath } from '../adapters/base-path/base-path.js'
import type { HttpLimits } from '../adapters/express/server.js'
import { boundHost, checkControlToken } from '../adapters/serve/control-guard.js'
import type { Gateway } from '../core/engine/gateway.js'

/** The HTTP server's limits (HttpLimits) default to the config's `limits` keys, then DEFAULT_HTTP_LIMITS. */
export interface ListenOptions extends HttpLimits {
  /** Default 0: a free port chosen by the system (read it from `url`). */
  port?: number
  /**
   * Default `127.0.0.1`: a sandbox is for this machine only. Beyond loopback (`0.0.0.0`, an
   * address of the machine) the config needs a `control_token`, as `serve` needs `--control-token`.
   */
  host?: string
  /** docs/rules.md#endpoints: serve every route under this prefix (`/payment`); `url` then ends with it. */
  basePath?: string
}

export interface Listening {
  /** `http://127.0.0.1:<port>` (plus the base path): the {base_url} to point the merchant's backend at. */
  url: string
  port: number
  /** Stops accepting and cuts open connections (an event stream never ends by itself). */
  close(): Promise<void>
}

/**
 * Serves the engine over HTTP through the node adapter and the same HTTP server as
 * `paysandbox serve` (its limits, its refusal to serve beyond loopback without a control token).
 */
export async function listenWithExpress(gateway: Gateway, options: ListenOptions = {}): Promise<Listening> {
  const host = options.host ?? '127.0.0.1'
  checkControlToken(host, gateway.ctx.config.control_token)
  const basePath = normalizeBasePath(options.basePath)
  // The HTTP adapter is loaded only by those who listen: an msw-only test suite never pays for it.
  const [{ createRequestHandler }, { createHttpServer, httpLimits }] = await Promise.all([
    import('../adapters/express/handler.js'),
    import('../adapters/express/server.js'),
  ])
  // An option beats the config's `limits` keys (docs/rules.md#request-limits).
  const limits = httpLimits(gateway.ctx.config.limits, options)
  const app = createRequestHandler(gateway, {
    ...(basePath ? { basePath } : {}),
    servedHosts: boundHost(host),
    ...(limits.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: limits.bodyTimeoutMs } : {}),
  })
  const server = createHttpServer(app, limits)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const shown = host.includes(':') ? `[${host}]` : host
  let closing: Promise<void> | undefined
  return {
    url: `http://${shown}:${port}${basePath}`,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closing
    },
  }
}
