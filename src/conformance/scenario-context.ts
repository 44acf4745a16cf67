import { randomBytes } from 'node:crypto'
import { type CallbackChannel, createCallbackChannel, fetchDeliver } from './callback-channel.js'
import { createContext, type ScenarioContext } from './context.js'
import type { MerchantClient } from './merchant.js'
import { httpPayer, inProcessPayer } from './payer-control.js'
import type { SandboxHost } from './sandbox-host.js'
import type { LoadedScenario, Mode } from './types.js'

/** The gateway a gateway-mode run talks to: the built-in sandbox (no url) or an external one. */
export interface GatewayTarget {
  url?: string
  credentials: { merchant_key: string; password: string }
  /** The external gateway answered GET /sandbox/health: its control API drives payer and clock. */
  paysandbox: boolean
  /** Sent as X-Sandbox-Control-Token on control API calls (a paysandbox served with --control-token). */
  controlToken?: string
  /**
   * Scenarios with a `setup` (MIDs, Protocol Mapping) run as a merchant the kit created for them
   * on that paysandbox (POST /sandbox/merchants), by slug.
   */
  scenarioCredentials?: Record<string, { merchant_key: string; password: string }>
}

/** Credentials of the kit-hosted sandbox's merchant in gateway mode, when none are given. */
export const BUILT_IN_CREDENTIALS = {
  merchant_key: 'conformance-merchant',
  password: 'conformance-password-0123456789',
}

export interface ContextOptions {
  mode: Mode
  host: SandboxHost
  merchant?: MerchantClient
  gateway?: GatewayTarget
  /** Real milliseconds to wait for what an external gateway sends. */
  waitMs?: number
}

/** Why a scenario cannot run against this target at all (checked before it starts), if it cannot. */
export function unsupported(loaded: LoadedScenario, options: ContextOptions): string | undefined {
  const external = options.mode === 'gateway' && !!options.gateway?.url
  if (!external) return undefined
  if (loaded.scenario.setup && !options.gateway?.scenarioCredentials?.[loaded.slug])
    return 'needs sandbox setup (MIDs, Protocol Mapping) the kit cannot apply to an external gateway'
  if (loaded.scenario.callbacks === 'manual') return 'holds callbacks, which only a kit-hosted sandbox can do'
  return undefined
}

/** A fresh context: its own gateway (kit-hosted), callback log and variables. */
export function scenarioContext(loaded: LoadedScenario, options: ContextOptions): ScenarioContext {
  const { slug, scenario } = loaded
  const { host, merchant } = options
  const external = options.mode === 'gateway' && options.gateway?.url ? options.gateway : undefined
  // Kit-hosted runs repeat exactly (seeded ids, virtual clock); an external gateway needs fresh order numbers.
  const runId = external ? randomBytes(4).toString('hex') : 'r1'
  const vars = { run_id: runId, scenario: slug, ...(scenario.variables ?? {}) }
  const returnUrl = `${host.url}/return/${slug}`
  const base = { loaded, mode: options.mode, vars, returnUrl, waitMs: options.waitMs ?? 5000 }

  if (options.mode === 'merchant') {
    if (!merchant) throw new Error('merchant mode needs a merchant adapter')
    const hosted = host.create(slug, {
      credentials: merchant.credentials,
      notificationUrl: merchant.notificationUrl,
      ...(scenario.setup ? { setup: scenario.setup } : {}),
      deliver: fetchDeliver(),
    })
    hosted.channel.mode = scenario.callbacks ?? 'auto'
    if (merchant.sequential) host.setCurrent(slug)
    return createContext({
      ...base,
      credentials: merchant.credentials,
      gatewayUrl: merchant.sequential ? `${host.url}/run/current` : hosted.baseUrl,
      hosted,
      controlApi: true,
      channel: hosted.channel,
      payer: inProcessPayer(hosted),
      merchant,
    })
  }

  if (external?.url) {
    const channel: CallbackChannel = createCallbackChannel({
      deliver: async () => ({ status: 200, body: 'OK' }),
    })
    host.receiveCallbacks(slug, channel, runId)
    return createContext({
      ...base,
      credentials: external.scenarioCredentials?.[slug] ?? external.credentials,
      gatewayUrl: external.url.replace(/\/+$/, ''),
      callbackUrl: `${host.url}/callbacks/${slug}/${runId}`,
      controlApi: external.paysandbox,
      channel,
      ...(external.controlToken ? { controlToken: external.controlToken } : {}),
      ...(external.paysandbox
        ? { payer: httpPayer(external.url.replace(/\/+$/, ''), external.controlToken) }
        : {}),
    })
  }

  const credentials = options.gateway?.credentials ?? BUILT_IN_CREDENTIALS
  const hosted = host.create(slug, {
    credentials,
    notificationUrl: `${host.url}/callbacks/${slug}`,
    ...(scenario.setup ? { setup: scenario.setup } : {}),
    // The kit is the merchant: its receiver acknowledges in-process, as it would over HTTP.
    deliver: async () => ({ status: 200, body: 'OK' }),
  })
  hosted.channel.mode = scenario.callbacks ?? 'auto'
  return createContext({
    ...base,
    credentials,
    gatewayUrl: hosted.baseUrl,
    hosted,
    controlApi: true,
    channel: hosted.channel,
    payer: inProcessPayer(hosted),
  })
}
