import '../schema-files.js'
import { availableParallelism } from 'node:os'
import {
  checkCredentials,
  GatewayMisconfigured,
  type GatewayReadiness,
  gatewayReadiness,
  type ProvisionedMerchants,
  ProvisionRefused,
  probeGateway,
  provisionedReadiness,
  provisionMerchants,
} from './gateway-mode.js'
import { filterScenarios, forMode, runScenarios } from './runner.js'
import { loadAdapter, type MerchantClient, startMerchant } from './merchant.js'
import { BUNDLED_SCENARIOS, loadScenarios, ScenarioLoadError } from './load.js'
import { startSandboxHost } from './sandbox-host.js'
import type { GatewayTarget } from './scenario-context.js'
import type { Mode, Reporter, RunSummary } from './types.js'

export { GatewayUnreachable, probeGateway } from './gateway-mode.js'
export { BUNDLED_SCENARIOS, loadScenarioFile, loadScenarios, ScenarioLoadError } from './load.js'
export { AdapterError, loadAdapter, MerchantUnreachable, startMerchant } from './merchant.js'
export { jsonReporter } from './reporters/json.js'
export { junitReporter } from './reporters/junit.js'
export { plainReporter } from './reporters/plain.js'
export { filterScenarios, forMode, runScenarios } from './runner.js'
export { startSandboxHost } from './sandbox-host.js'
export { BUILT_IN_CREDENTIALS, type GatewayTarget } from './scenario-context.js'
export type * from './types.js'

export interface TestOptions {
  /** Merchant mode: the merchant adapter file. */
  merchantFile?: string
  /** Gateway mode against an external gateway; without it, against the kit's built-in sandbox. */
  gateway?: { url: string; key: string; password: string; controlToken?: string }
  /** Scenario files or directories; default the bundled scenarios. */
  scenarioPaths?: string[]
  tags?: string[]
  names?: string[]
  concurrency?: number
  reporters: Reporter[]
  /** Port of the kit's own server (callbacks from an external gateway need a known one). */
  port?: number
  /** A step that takes longer fails (default 30 s). */
  stepTimeoutMs?: number
  /**
   * When the run started, as a `performance.now()` value (0: the process start, as the CLI
   * passes): the reported duration is the wall time from then. Default: when runTest is called.
   */
  startedAt?: number
}

/** A problem with the options or the files: exit code 2. */
export class ConfigurationError extends Error {}

/** Loads, selects and runs scenarios in the mode the options choose; the summary says how it went. */
export async function runTest(options: TestOptions): Promise<RunSummary> {
  const startedAt = options.startedAt ?? performance.now()
  if (options.merchantFile && options.gateway)
    throw new ConfigurationError('give either --merchant or --gateway, not both')
  const mode: Mode = options.merchantFile ? 'merchant' : 'gateway'
  const { scenarios, errors } = loadScenarios(
    options.scenarioPaths?.length ? options.scenarioPaths : [BUNDLED_SCENARIOS],
  )
  if (errors.length)
    throw new ScenarioLoadError(
      `${errors.length} scenario file(s)`,
      errors.map((e) => e.message),
    )
  const selected = filterScenarios(forMode(scenarios, mode), {
    ...(options.tags ? { tags: options.tags } : {}),
    ...(options.names ? { names: options.names } : {}),
  })
  if (selected.length === 0)
    throw new ConfigurationError(`no ${mode}-mode scenario matches the filters (${scenarios.length} loaded)`)
  const adapter = options.merchantFile ? loadAdapter(options.merchantFile) : undefined
  let gateway: GatewayTarget | undefined
  if (options.gateway)
    gateway = await probeGateway(
      options.gateway.url,
      { merchant_key: options.gateway.key, password: options.gateway.password },
      options.gateway.controlToken,
    )
  const host = await startSandboxHost(options.port ?? 0)
  let merchant: MerchantClient | undefined
  let provisioned: ProvisionedMerchants | undefined
  try {
    let readiness: GatewayReadiness | undefined
    if (gateway?.url) {
      // A paysandbox: the kit creates the merchants its scenarios need, and deletes them at the end.
      let refused: string | undefined
      try {
        provisioned = await provisionMerchants(gateway, `${host.url}/callbacks`, selected)
      } catch (error) {
        if (!(error instanceof ProvisionRefused)) throw error
        refused = error.message
      }
      if (!provisioned && !gateway.credentials.merchant_key)
        throw new ConfigurationError(
          `the gateway at ${gateway.url} did not let the kit create a merchant (${refused}): give --key and --password of one of its merchants`,
        )
      if (provisioned) {
        gateway = {
          ...gateway,
          credentials: provisioned.credentials,
          scenarioCredentials: provisioned.scenarioCredentials,
        }
        readiness = provisionedReadiness(gateway)
      } else {
        readiness = await gatewayReadiness(gateway, `${host.url}/callbacks`, refused).catch(
          (error: unknown) => {
            throw error instanceof GatewayMisconfigured ? new ConfigurationError(error.message) : error
          },
        )
        // The run signs with --key and --password: a key or password the gateway refuses is said now, plainly.
        await checkCredentials(gateway, options.stepTimeoutMs).catch((error: unknown) => {
          throw error instanceof GatewayMisconfigured ? new ConfigurationError(error.message) : error
        })
      }
    }
    if (adapter)
      merchant = await startMerchant(adapter.adapter, adapter.dir, { gatewayUrl: `${host.url}/run/current` })
    const target = merchant
      ? `merchant "${merchant.name}" at ${merchant.baseUrl}`
      : gateway?.url
        ? `gateway ${gateway.url}${gateway.paysandbox ? ' (paysandbox)' : ''}`
        : 'the built-in sandbox'
    return await runScenarios({
      scenarios: selected,
      mode,
      host,
      ...(merchant ? { merchant } : {}),
      ...(gateway ? { gateway } : {}),
      // A merchant run mostly waits on the merchant's process: more scenarios at once than CPUs.
      concurrency:
        options.concurrency ??
        (mode === 'merchant' ? Math.max(4, availableParallelism()) : availableParallelism()),
      ...(options.stepTimeoutMs ? { stepTimeoutMs: options.stepTimeoutMs } : {}),
      reporters: options.reporters,
      target,
      startedAt,
      ...(readiness ? { blocked: readiness.blocked, notes: readiness.notes } : {}),
    })
  } finally {
    await merchant?.stop()
    const left = (await provisioned?.release()) ?? []
    // Said whatever happened to the run: the merchants stay on that sandbox until someone deletes them.
    if (left.length)
      process.stderr.write(
        `paysandbox test: the merchants the kit created on ${gateway?.url} could not all be deleted (${left.join('; ')}): delete them with DELETE /sandbox/merchants/:key\n`,
      )
    await host.close()
  }
}
