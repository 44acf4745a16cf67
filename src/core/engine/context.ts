import type { SandboxConfig, SandboxMerchant, SandboxMid } from '../../generated/types.js'
import type { Clock } from '../ports/clock.js'
import type { Ids } from '../ports/ids.js'
import type { Logger } from '../ports/logger.js'
import type { Store } from '../ports/store.js'
import type { Transport } from '../ports/transport.js'
import type { EventBus } from './events.js'
import type { Collections } from './model.js'

export type { SandboxConfig, SandboxMerchant, SandboxMid }

/** The engine's dependencies (design rule: every dependency is a parameter). */
export interface GatewayDeps {
  store: Store<Collections>
  clock: Clock
  ids: Ids
  transport: Transport
  logger: Logger
  config: SandboxConfig
  /** Where the sandbox is reached, for redirect URLs and hosted pages (default http://localhost:8080). */
  baseUrl?: string
}

/** What every operation receives. */
export interface EngineContext extends Required<GatewayDeps> {
  events: EventBus
  merchant(key: unknown): SandboxMerchant | undefined
}

export function createContext(deps: GatewayDeps, events: EventBus): EngineContext {
  const baseUrl = (deps.baseUrl ?? deps.config.base_url ?? 'http://localhost:8080').replace(/\/+$/, '')
  const byKey = new Map(deps.config.merchants.map((m) => [m.key, m]))
  return {
    ...deps,
    baseUrl,
    events,
    // The configuration's merchants, then those created through the control API (POST /sandbox/merchants).
    merchant: (key) =>
      typeof key === 'string' ? (byKey.get(key) ?? deps.store.get('merchants', key)?.merchant) : undefined,
  }
}
