import { clearFaults, type FaultRule, listFaults } from '../core/faults/index.js'
import type { SandboxFaultRequest } from '../generated/types.js'
import { callbacksOf } from '../core/callbacks/index.js'
import type { SandboxConfig } from '../core/engine/context.js'
import type { Gateway } from '../core/engine/gateway.js'
import type { GatewayResponse, IncomingRequest } from '../core/engine/http.js'
import type { Delivery } from '../core/engine/model.js'
import { assembleGateway } from '../assembly.js'
import { createFetchHandler, isUnder } from '../adapters/fetch/fetch-handler.js'
import { createFetchTransport } from '../adapters/transport/fetch-transport.js'
import { createInProcessTransport } from '../adapters/transport/in-process-transport.js'
import type { GatewayErrorBody } from './errors.js'
import { SandboxError } from './errors.js'
import { type Listening, type ListenOptions, listenWithExpress } from './listen.js'
import {
  createClock,
  createIds,
  createStore,
  resolveConfig,
  type SandboxOptions,
  stderrLogger,
} from './options.js'
import { createPayer, type Payer } from './payer.js'
import { signatures } from './signatures.js'

export interface SandboxClock {
  readonly kind: 'virtual' | 'system'
  /** Sandbox time, epoch milliseconds. */
  now(): number
  /**
   * Moves time ahead as `POST /sandbox/clock/advance` does: sessions expire, callback retries and
   * schedules fall due. Resolves once what fell due has run and its callbacks were delivered.
   */
  advance(seconds: number): Promise<void>
}

export interface CallbackFilter {
  payment_id?: string
  order_id?: string
}

export interface Sandbox {
  /** The engine itself (`gateway.handle`, `gateway.ctx`). */
  readonly gateway: Gateway
  readonly config: SandboxConfig
  /** The {base_url} in the URLs the sandbox answers. */
  readonly baseUrl: string
  /** One request in, one response out, through the engine (the store flushed before it resolves). */
  handle(request: IncomingRequest): Promise<GatewayResponse>
  /** A `fetch` that the sandbox answers: hand it to an HTTP client that takes a custom fetch. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>
  /**
   * Serves the sandbox over HTTP (express) on 127.0.0.1 and a free port unless told otherwise;
   * beyond loopback only with a `control_token` in the config (as `serve` refuses without one).
   */
  listen(options?: ListenOptions): Promise<Listening>
  /** The payer's actions: pay a session with a test card, pass or fail 3DS, come back from a redirect. */
  readonly payer: Payer
  readonly clock: SandboxClock
  /** Every signature of docs/rules.md#signatures, with callback and redirect verification. */
  readonly signatures: typeof signatures
  /** The callback log (docs/rules.md#callbacks), oldest first, with every attempt. */
  callbacks(filter?: CallbackFilter): Delivery[]
  /** Resolves once no callback is being sent or waits to be sent (retries due later do not count). */
  idle(): Promise<void>
  /** Forgets every record, as `POST /sandbox/reset` does (merchants and clock stay). */
  reset(): Promise<void>
  /**
   * Gateway faults, as `POST/GET/DELETE /sandbox/faults` (docs/conformance.md, Gateway faults):
   * `add({ mode: 'lost', match: { action: 'SALE' } })` makes the next matching request fail.
   */
  readonly faults: {
    add(rule: SandboxFaultRequest): Promise<FaultRule>
    list(): FaultRule[]
    clear(id?: string): number
  }
  /** Stops listeners and background work, then closes the store. */
  close(): Promise<void>
}

/**
 * Each sandbox's "first address it is reached at becomes its {base_url}" (see createSandbox), for
 * the adapters outside the main entry (`paysandbox/msw`, src/msw.ts) that reach it at an address.
 */
const adopters = new WeakMap<Sandbox, (url: string) => void>()

/** `sandbox` is reached at `url`: its {base_url} unless one was given or adopted before. */
export function adoptBaseUrl(sandbox: Sandbox, url: string): void {
  adopters.get(sandbox)?.(url)
}

/**
 * The sandbox in-process (issue 5): the engine with a memory store, a virtual clock and in-process
 * callback delivery by default, reachable through a fetch function, a real port, or msw handlers
 * (`paysandbox/msw`, which needs the msw package; the main entry never loads it).
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveConfig(options.config)
  const { baseUrlGiven } = resolved
  const config =
    options.checkResponses === undefined
      ? resolved.config
      : { ...resolved.config, check_responses: options.checkResponses }
  const logger = options.logger ?? stderrLogger
  const store = await createStore(options.store)
  const gateway = assembleGateway({
    store,
    clock: createClock(options, config, store, logger),
    ids: createIds(options.seed),
    transport: options.onCallback ? createInProcessTransport(options.onCallback) : createFetchTransport(),
    logger,
    config,
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
  })
  const { ctx } = gateway
  let pinned = options.baseUrl !== undefined || baseUrlGiven
  /** The first address the sandbox is reached at becomes its {base_url}, unless one was given. */
  const adopt = (url: string) => {
    if (pinned) return
    ctx.baseUrl = url.replace(/\/+$/, '')
    pinned = true
  }
  const listeners = new Set<Listening>()
  const idle = () => callbacksOf(ctx).idle()
  const settle = async () => {
    await store.flush()
    await idle()
    await store.flush()
  }
  // The library's own control calls go through the guard like any other: with the token, if any.
  const controlHeaders: Record<string, string> = {
    'content-type': 'application/json',
    ...(config.control_token !== undefined ? { 'x-sandbox-control-token': config.control_token } : {}),
  }
  const control = async (path: string, body: unknown) => {
    const response = await gateway.handle({
      method: 'POST',
      path,
      query: {},
      headers: controlHeaders,
      body: new TextEncoder().encode(JSON.stringify(body)),
    })
    if (response.status !== 200)
      throw new SandboxError(response.status, JSON.parse(response.body) as GatewayErrorBody)
    await settle()
  }
  let closing: Promise<void> | undefined

  const sandbox: Sandbox = {
    gateway,
    config,
    get baseUrl() {
      return ctx.baseUrl
    },
    handle: (request) => gateway.handle(request),
    fetch(input, init) {
      const request = new Request(input, init)
      const url = new URL(request.url)
      const base = isUnder(url, new URL(ctx.baseUrl)) ? ctx.baseUrl : url.origin
      return createFetchHandler(gateway, { base })(request)
    },
    async listen(listenOptions) {
      const listening = await listenWithExpress(gateway, listenOptions)
      adopt(listening.url)
      listeners.add(listening)
      return listening
    },
    payer: createPayer(gateway, settle),
    clock: {
      get kind() {
        return ctx.clock.kind
      },
      now: () => ctx.clock.now(),
      advance: (seconds) => control('/sandbox/clock/advance', { seconds }),
    },
    signatures,
    callbacks(filter = {}) {
      const found = filter.payment_id
        ? store.findBy('deliveries', 'payment_id', filter.payment_id)
        : filter.order_id
          ? store.findBy('deliveries', 'order_id', filter.order_id)
          : store.list('deliveries')
      return structuredClone(found.filter((d) => !filter.order_id || d.order_id === filter.order_id))
    },
    idle,
    reset: () => control('/sandbox/reset', {}),
    faults: {
      add: async (rule) => {
        const response = await gateway.handle({
          method: 'POST',
          path: '/sandbox/faults',
          query: {},
          headers: controlHeaders,
          body: new TextEncoder().encode(JSON.stringify(rule)),
        })
        if (response.status !== 201)
          throw new SandboxError(response.status, JSON.parse(response.body) as GatewayErrorBody)
        return (JSON.parse(response.body) as { fault: FaultRule }).fault
      },
      list: () => listFaults(ctx),
      clear: (id) => clearFaults(ctx, id),
    },
    close() {
      closing ??= (async () => {
        await Promise.all([...listeners].map((l) => l.close()))
        gateway.stop()
        await store.close()
      })()
      return closing
    },
  }
  adopters.set(sandbox, adopt)
  return sandbox
}
