import type { SandboxConfig } from '../core/engine/context.js'
import { type Collections, STORE_INDEXES } from '../core/engine/model.js'
import type { Clock } from '../core/ports/clock.js'
import type { Ids } from '../core/ports/ids.js'
import type { Logger } from '../core/ports/logger.js'
import type { Store } from '../core/ports/store.js'
import { createSystemClock } from '../adapters/clock/system-clock.js'
import { createVirtualClock, DEFAULT_VIRTUAL_START_MS } from '../adapters/clock/virtual-clock.js'
import { createRandomIds } from '../adapters/ids/random-ids.js'
import { createSeededIds } from '../adapters/ids/seeded-ids.js'
import { checkConfig, loadConfig } from '../adapters/serve/config-file.js'
import { createLowdbStore } from '../adapters/store/lowdb-store.js'
import { createMemoryStore } from '../adapters/store/memory-store.js'
import type { MerchantHandler } from '../adapters/transport/in-process-transport.js'

export interface SandboxOptions {
  /**
   * The merchants (the admin panel's role): a configuration object or the path of a configuration
   * file (schemas/sandbox/config.schema.json). Default: the built-in demo merchant
   * (`demo-merchant` / `demo-password-0123456789abcdef`).
   */
  config?: SandboxConfig | string
  /** Default `virtual`: time stands still until `sandbox.clock.advance(seconds)`, so tests repeat exactly. */
  clock?: 'virtual' | 'system' | Clock
  /** Where a virtual clock starts. Default: the config's `clock.start`, else 2020-01-01T00:00:00Z. */
  start?: Date | string | number
  /** Seeds the ids (payment ids, tokens): the same seed and the same requests give the same answers. Default: random. */
  seed?: string | number
  /** Default `memory`; `{ file }` keeps everything in a lowdb file across runs. */
  store?: 'memory' | { file: string }
  /**
   * The {base_url} put in the URLs the sandbox answers (redirect_url, 3DS pages). Default: the
   * config's `base_url`, else the base of the first `handlers(base)` or the address of `listen()`.
   */
  baseUrl?: string
  /**
   * Delivers callbacks to this function instead of over HTTP to the merchant's `notification_url`.
   * It gets the callback as the `Request` it would be over HTTP, so a merchant's own fetch-style
   * app handler fits; it answers a `Response` (or `{status, body}`). Without it callbacks are
   * POSTed with fetch, as `paysandbox serve` does.
   */
  onCallback?: MerchantHandler
  /** Default: warnings and errors on stderr. */
  logger?: Logger
  /**
   * Check every answer against the response schema its route declares, as `serve
   * --check-responses` does: a mismatch is logged and counted (`GET /sandbox/health` shows
   * `responses`), the answer is sent unchanged. Default: the config's `check_responses`, else off.
   */
  checkResponses?: boolean
}

export interface ResolvedConfig {
  config: SandboxConfig
  /** The config names its own base_url, which then wins over handlers() and listen() addresses. */
  baseUrlGiven: boolean
}

/** The options' config, checked as `paysandbox serve` checks a file. */
export function resolveConfig(config: SandboxOptions['config']): ResolvedConfig {
  if (config === undefined || typeof config === 'string') {
    const loaded = loadConfig(config)
    return { config: loaded.config, baseUrlGiven: loaded.baseUrlGiven }
  }
  return {
    config: checkConfig(config, 'createSandbox({ config })'),
    baseUrlGiven: config.base_url !== undefined,
  }
}

export async function createStore(option: SandboxOptions['store']): Promise<Store<Collections>> {
  if (option === undefined || option === 'memory') return createMemoryStore<Collections>(STORE_INDEXES)
  return createLowdbStore<Collections>({ file: option.file, indexes: STORE_INDEXES })
}

/**
 * The clock. With a data file the sandbox resumes from the time it last recorded (as `serve`
 * does), so time never goes back across runs.
 */
export function createClock(
  options: SandboxOptions,
  config: SandboxConfig,
  store: Store<Collections>,
  logger: Logger,
): Clock {
  const choice = options.clock ?? 'virtual'
  if (typeof choice === 'object') return choice
  const recorded = store.get('meta', 'meta')?.clock_ms ?? 0
  if (choice === 'system')
    return createSystemClock({
      onError: (error) => logger.error('a scheduled job failed', { error: String(error) }),
      offsetMs: Math.max(0, recorded - Date.now()),
    })
  const start = toMs(options.start ?? config.clock?.start ?? DEFAULT_VIRTUAL_START_MS)
  return createVirtualClock(Math.max(start, recorded))
}

export const createIds = (seed: SandboxOptions['seed']): Ids =>
  seed === undefined ? createRandomIds() : createSeededIds(seed)

/** Quiet unless something is wrong: a library's user wants test output, not request logs. */
export const stderrLogger: Logger = {
  info() {},
  warn: (message, fields) =>
    process.stderr.write(`paysandbox warn: ${message} ${JSON.stringify(fields ?? {})}\n`),
  error: (message, fields) =>
    process.stderr.write(`paysandbox error: ${message} ${JSON.stringify(fields ?? {})}\n`),
}

function toMs(value: Date | string | number): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value
  if (!Number.isFinite(ms))
    throw new RangeError(`createSandbox: start must be a valid date, got ${String(value)}`)
  return ms
}
