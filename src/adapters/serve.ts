import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { networkInterfaces } from 'node:os'
import type { SandboxConfig } from '../core/engine/context.js'
import type { Gateway } from '../core/engine/gateway.js'
import { type Collections, STORE_INDEXES } from '../core/engine/model.js'
import type { EngineModule } from '../core/engine/modules.js'
import { assembleGateway, DEFAULT_MODULES } from '../assembly.js'
import type { Clock } from '../core/ports/clock.js'
import type { Logger } from '../core/ports/logger.js'
import type { Store } from '../core/ports/store.js'
import { createSystemClock } from './clock/system-clock.js'
import { createVirtualClock } from './clock/virtual-clock.js'
import { normalizeBasePath, withBasePath } from './base-path/base-path.js'
import { createRequestHandler } from './express/handler.js'
import { createHttpServer, type HttpLimits, httpLimits } from './express/server.js'
import { createRandomIds } from './ids/random-ids.js'
import { type LoadedConfig, loadConfig } from './serve/config-file.js'
import { createConsoleLogger } from './serve/console-logger.js'
import { boundHost, checkControlToken, ServeError } from './serve/control-guard.js'
import { createLowdbStore } from './store/lowdb-store.js'
import { createMemoryStore } from './store/memory-store.js'
import { DEFAULT_RETAIN } from './store/retention.js'
import { createFetchTransport } from './transport/fetch-transport.js'

export { ConfigError, type LoadedConfig, loadConfig } from './serve/config-file.js'
export { CONTROL_TOKEN_MIN_LENGTH, ServeError } from './serve/control-guard.js'
export { DEFAULT_HTTP_LIMITS, type HttpLimits } from './express/server.js'

export const DEFAULT_PORT = 8080
/** Loopback only unless asked: a sandbox is for the developer's own machine (`--host 0.0.0.0` in a container). */
export const DEFAULT_HOST = '127.0.0.1'
/** Connections still busy this long after a stop signal are cut. */
const DRAIN_MS = 3_000

/** The HTTP server's limits (HttpLimits) default to the config file's `limits` keys, then DEFAULT_HTTP_LIMITS. */
export interface ServeOptions extends HttpLimits {
  port?: number
  host?: string
  /** Configuration file; without one the built-in demo merchant serves. */
  configFile?: string
  /** lowdb data file: the store survives restarts. Without one everything stays in memory. */
  dataFile?: string
  logger?: Logger
  /** Default: DEFAULT_MODULES. */
  modules?: EngineModule[]
  /**
   * Every control API request (but health) must carry it (X-Sandbox-Control-Token or Bearer).
   * Default: the config's control_token. Required when `host` is beyond loopback.
   */
  controlToken?: string
  /** Host names, besides the served ones, under which the control API answers (DNS rebinding guard). */
  allowHosts?: string[]
  /**
   * docs/rules.md#retention: units (payments and sessions) each merchant keeps, oldest forgotten
   * first. Default: the config's `limits.retain`, else DEFAULT_RETAIN (10000) in memory and no bound with a data file.
   */
  retain?: number
  /** docs/rules.md#endpoints: every route under this prefix (`/payment`), the {base_url} included. */
  basePath?: string
  /** docs/rules.md#strict: refuse what would be served with a Sandbox-Warning (`serve --strict`). Default: the config's `strict`. */
  strict?: boolean
  /** Check every answer against its declared response schema (`serve --check-responses`). Default: the config's `check_responses`. */
  checkResponses?: boolean
  /** docs/rules.md#connections: event streams open at most (`serve --max-event-streams`). Default: the config's `limits.max_event_streams`, else 128. */
  maxEventStreams?: number
  /** Event streams open at most from one address (`--max-event-streams-per-client`). Default: the config's, else 32. */
  maxEventStreamsPerClient?: number
  /** A stream reader that has not drained within this (ms) is let go (`--stream-drain-timeout`). Default: the config's, else 30 s. */
  streamDrainTimeoutMs?: number
}

export interface RunningSandbox {
  baseUrl: string
  port: number
  host: string
  gateway: Gateway
  loaded: LoadedConfig
  dataFile?: string
  server: Server
  /** Stops accepting, lets requests finish (cut after 3 s), stops background work, closes the store. */
  close(): Promise<void>
}

/** `paysandbox serve` and `npm start`: the engine, its real adapters, and an HTTP server. */
export async function serve(options: ServeOptions = {}): Promise<RunningSandbox> {
  const logger = options.logger ?? createConsoleLogger()
  const loaded = loadConfig(options.configFile)
  const host = options.host ?? DEFAULT_HOST
  const controlToken = options.controlToken ?? loaded.config.control_token
  checkControlToken(host, controlToken)
  // The engine needs the port for its base URL: the app is set before the first request can arrive
  // (nothing awaits between listening and setting it).
  let app: ((req: IncomingMessage, res: ServerResponse) => void) | undefined
  // A flag beats the config file's `limits` keys (docs/rules.md#request-limits).
  const limits = httpLimits(loaded.config.limits, options)
  const server = createHttpServer((req, res) => (app ? app(req, res) : void res.destroy()), limits)
  const store: Store<Collections> = options.dataFile
    ? await createLowdbStore<Collections>({ file: options.dataFile, indexes: STORE_INDEXES })
    : createMemoryStore<Collections>(STORE_INDEXES)
  // docs/rules.md#retention: the engine keeps up to `retain` units per merchant (memory mode: 10000
  // unless told; a data file keeps everything unless told) and the demo page's in a small lane of their own.
  const retain =
    options.retain ?? loaded.config.limits?.retain ?? (options.dataFile ? undefined : DEFAULT_RETAIN)
  try {
    await listen(server, options.port ?? DEFAULT_PORT, host)
  } catch (error) {
    await store.close()
    throw error
  }
  const port = (server.address() as AddressInfo).port
  const basePath = normalizeBasePath(options.basePath)
  const baseUrl = withBasePath(
    loaded.baseUrlGiven
      ? (loaded.config.base_url as string).replace(/\/+$/, '')
      : `http://${displayHost(host)}:${port}`,
    basePath,
  )
  const gateway = assembleGateway(
    {
      store,
      clock: createClock(loaded.config, store, logger),
      ids: createRandomIds(),
      transport: createFetchTransport(),
      logger,
      // The engine's control guard reads the token and the extra host names from its config.
      config: {
        ...loaded.config,
        ...(options.strict !== undefined ? { strict: options.strict } : {}),
        ...(options.checkResponses !== undefined ? { check_responses: options.checkResponses } : {}),
        limits: {
          ...streamLimitsConfig(loaded.config.limits, options),
          ...(retain !== undefined ? { retain } : {}),
        },
        ...(controlToken !== undefined ? { control_token: controlToken } : {}),
        ...(options.allowHosts?.length
          ? { allowed_hosts: [...(loaded.config.allowed_hosts ?? []), ...options.allowHosts] }
          : {}),
      },
      baseUrl,
    },
    options.modules ?? DEFAULT_MODULES,
  )
  app = createRequestHandler(gateway, {
    ...(basePath ? { basePath } : {}),
    // What this server is reached at, besides loopback and the base URL: the guard admits these in Host.
    servedHosts: [
      ...new Set([
        ...boundHost(host),
        ...(isWildcard(host) ? machineAddresses() : []),
        displayHost(host).replace(/^\[|\]$/g, ''),
      ]),
    ],
    ...(limits.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: limits.bodyTimeoutMs } : {}),
  })

  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      const cut = setTimeout(() => server.closeAllConnections(), DRAIN_MS)
      await stopped
      clearTimeout(cut)
      // Background work (callback delivery) stops before the store it writes to closes.
      gateway.stop()
      await store.close()
    })()
    return closing
  }
  return { baseUrl, port, host, gateway, loaded, dataFile: options.dataFile, server, close }
}

/** The config's `limits` with the event-stream flags over them (a flag beats the file). */
function streamLimitsConfig(limits: SandboxConfig['limits'], options: ServeOptions): SandboxConfig['limits'] {
  return {
    ...limits,
    ...(options.maxEventStreams !== undefined ? { max_event_streams: options.maxEventStreams } : {}),
    ...(options.maxEventStreamsPerClient !== undefined
      ? { max_event_streams_per_client: options.maxEventStreamsPerClient }
      : {}),
    ...(options.streamDrainTimeoutMs !== undefined
      ? { stream_drain_timeout: options.streamDrainTimeoutMs / 1000 }
      : {}),
  }
}

const isWildcard = (host: string) => host === '0.0.0.0' || host === '::' || host === ''

/** This machine's addresses: what other machines put in Host when they reach a wildcard bind by address. */
function machineAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) =>
    (list ?? []).map((i) => i.address.toLowerCase()),
  )
}

/**
 * The config's clock. With a data file the sandbox resumes from the time it last recorded
 * (control API: advance and reset record it), so time never goes back across a restart.
 */
function createClock(config: SandboxConfig, store: Store<Collections>, logger: Logger): Clock {
  const recorded = store.get('meta', 'meta')?.clock_ms ?? 0
  const onError = (error: unknown) =>
    logger.error('a scheduled job failed', { error: String((error as Error)?.stack ?? error) })
  if (config.clock?.mode === 'virtual') {
    const start = config.clock.start ? Date.parse(config.clock.start) : Date.now()
    return createVirtualClock(Math.max(start, recorded))
  }
  return createSystemClock({ onError, offsetMs: Math.max(0, recorded - Date.now()) })
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`
      if (error.code === 'EADDRINUSE')
        reject(
          new ServeError(`port ${port} is already in use (${where}); choose another with --port N or PORT=N`),
        )
      else if (error.code === 'EACCES')
        reject(new ServeError(`no permission to listen on ${where}; use a port above 1023`))
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
        reject(new ServeError(`cannot listen on host ${host}: no such address on this machine`))
      else reject(error)
    }
    server.once('error', failed)
    server.listen(port, host, () => {
      server.off('error', failed)
      resolve()
    })
  })
}

/** Callers reach a sandbox bound to every interface or to loopback at `localhost`. */
function displayHost(host: string): string {
  if (['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost'].includes(host)) return 'localhost'
  return host.includes(':') ? `[${host}]` : host
}
