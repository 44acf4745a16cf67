import {
  createMemoryStore,
  createSeededIds,
  createVirtualClock,
  type VirtualClock,
} from '../adapters/index.js'
import { assembleGateway } from '../assembly.js'
import { callbacksOf } from '../core/callbacks/index.js'
import type { SandboxConfig } from '../core/engine/context.js'
import type { Gateway } from '../core/engine/gateway.js'
import { type Collections, STORE_INDEXES } from '../core/engine/model.js'
import { silentLogger } from '../core/ports/logger.js'
import type { OutboundRequest } from '../core/ports/transport.js'
import { baseText, type GatewayBase } from './targets.js'

/**
 * The fresh sandbox a capture is replayed against: the engine in-process with the merchant's
 * configuration, a memory store, ids seeded `replay` (so a replay repeats exactly) and a virtual
 * clock that starts when the capture did. It is served at the recorded gateway's address, so the
 * URLs it answers (redirect_url, the pages' forms) are the recorded ones but for their tokens.
 * Callbacks are acknowledged in-process and kept: a replay never reaches the merchant's server.
 */
export interface FreshSandbox {
  gateway: Gateway
  clock: VirtualClock
  /** The callbacks it sent, oldest first. */
  callbacks: OutboundRequest[]
  /** Resolves once no callback is being sent. */
  idle(): Promise<void>
  stop(): void
}

/** When a capture says nothing of time: a fixed instant, so the replay repeats. */
export const UNDATED_START_MS = Date.UTC(2026, 10, 2, 10, 0, 0)

export function freshSandbox(config: SandboxConfig, base: GatewayBase, startMs: number): FreshSandbox {
  const clock = createVirtualClock(startMs)
  const callbacks: OutboundRequest[] = []
  const gateway = assembleGateway({
    store: createMemoryStore<Collections>(STORE_INDEXES),
    clock,
    ids: createSeededIds('replay'),
    transport: {
      async send(request) {
        callbacks.push(request)
        return { status: 200, body: 'OK' }
      },
    },
    logger: silentLogger,
    config: { ...config, clock: { mode: 'virtual' } } as SandboxConfig,
    baseUrl: baseText(base),
  })
  return {
    gateway,
    clock,
    callbacks,
    idle: () => callbacksOf(gateway.ctx).idle(),
    stop: () => gateway.stop(),
  }
}
