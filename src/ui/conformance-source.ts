import type { ScenarioResult as RunResult, Reporter, StepResult } from '../conformance/types.js'
import type { ScenarioResult, ScenarioSource } from './scenario-source.js'

export interface Credentials {
  merchant_key: string
  password: string
}

/** The first failed step, in the runner's words, with the interface section it is about. */
export function failure(result: RunResult): string | undefined {
  const step = result.steps.find((s: StepResult) => s.status === 'failed')
  if (!step) return result.reason
  return `step ${step.label}: ${step.message ?? 'failed'}${step.section ? ` [interface ${step.section}]` : ''}`
}

/** A runner reporter that hands each scenario's progress to the console as it happens. */
function liveReporter(onUpdate: (result: ScenarioResult) => void): Reporter {
  return {
    start() {},
    scenarioStarted: (scenario) => onUpdate({ id: scenario.slug, status: 'running' }),
    scenarioFinished: (result) => {
      const message = failure(result)
      onUpdate({
        id: result.slug,
        status: result.status,
        durationMs: result.ms,
        ...(message ? { message } : {}),
      })
    },
    finish() {},
  }
}

/** What the console knows of a merchant of its sandbox (GET /sandbox/merchants): never its password. */
export interface MerchantSettings {
  key: string
  notification_url?: string
  mids: { moto?: boolean; zero_amount?: boolean }[]
}

export interface SourceOptions {
  /** The sandbox's merchant of that key, as the control API shows it. */
  merchant?: (key: string) => Promise<MerchantSettings | undefined>
  /** The control token of a sandbox served with one (creating the kit's merchants needs it). */
  controlToken?: string
}

/**
 * The conformance runner (src/conformance) in gateway mode against the console's own sandbox, so
 * the payments and callbacks a scenario makes appear in the other views as it runs. Loaded on
 * first use: opening the console does not load the runner. `credentials` answers the merchant
 * the scenarios act as, or why there is none.
 *
 * Callbacks: the kit receives them on its own server (its callback channel, as `paysandbox test`
 * does). A scenario that waits for a callback, or needs a MOTO or zero-amount MID or its
 * own MIDs and Protocol Mapping, runs as a merchant the kit creates on the sandbox for the run
 * (callbacks to the kit; deleted at the end) unless the chosen merchant already has what it
 * needs; the others run as the chosen merchant. Where the sandbox refuses that creation, those
 * scenarios are skipped, and the reason and what to configure are said before the run starts.
 */
export function conformanceSource(
  baseUrl: string,
  credentials: (merchant?: string) => Promise<Credentials | string>,
  options: SourceOptions = {},
): ScenarioSource {
  const runner = () => import('../conformance/index.js')
  const gatewayScenarios = async () => {
    const c = await runner()
    const { scenarios } = c.loadScenarios()
    return { c, scenarios: c.forMode(scenarios, 'gateway') }
  }
  return {
    async list() {
      const { scenarios } = await gatewayScenarios()
      return scenarios.map((s) => ({ id: s.slug, title: s.scenario.title, tags: s.scenario.tags ?? [] }))
    },
    async run(selection, onUpdate, merchantKey, onNotes) {
      const merchant = await credentials(merchantKey)
      if (typeof merchant === 'string') throw new Error(merchant)
      const { c, scenarios } = await gatewayScenarios()
      const { needsOf, provisionMerchants } = await import('../conformance/gateway-mode.js')
      const chosen = selection.ids
        ? scenarios.filter((s) => selection.ids?.includes(s.slug))
        : c.filterScenarios(scenarios, { tags: [selection.tag ?? ''] })
      if (!chosen.length) throw new Error(`no gateway scenario has the tag "${selection.tag}"`)
      let gateway = await c.probeGateway(baseUrl, merchant, options.controlToken)
      const host = await c.startSandboxHost(0)
      const kitCallbacks = `${host.url}/callbacks`
      let provisioned: Awaited<ReturnType<typeof provisionMerchants>> | undefined
      try {
        const settings = await options.merchant?.(merchant.merchant_key)
        const callbacksLost =
          settings?.notification_url?.replace(/\/+$/, '') !== kitCallbacks
            ? `${merchant.merchant_key}'s notification_url is ${settings?.notification_url || 'not set'}, not the kit's ${kitCallbacks}, so its callbacks never reach the console`
            : undefined
        const lacks = (need: string): string | undefined => {
          if (need === 'moto' && !settings?.mids.some((m) => m.moto === true))
            return `${merchant.merchant_key} has no MOTO MID`
          if (need === 'zero amount' && !settings?.mids.some((m) => m.zero_amount === true))
            return `${merchant.merchant_key} has no zero-amount MID`
          return undefined
        }
        // Every callback a scenario waits for (Checkout, S2S CARD, S2S APM) goes to the merchant's
        // notification_url: the kit receives it only where that is the kit's own address.
        const waitsForCallback = (s: (typeof chosen)[number]) =>
          (s.scenario.steps as { step: string }[]).some(
            (step) => step.step === 'expect.callback' || step.step === 'expect.callback_acknowledged',
          )
        const why = new Map<string, string[]>()
        for (const s of chosen) {
          const reasons = needsOf(s)
            .map(lacks)
            .filter((r): r is string => !!r)
          if (callbacksLost && waitsForCallback(s)) reasons.unshift(callbacksLost)
          if (s.scenario.setup) reasons.push('some need MIDs and a Protocol Mapping of their own')
          if (reasons.length) why.set(s.slug, reasons)
        }
        const allReasons = [...new Set([...why.values()].flat())].join('; ')
        const viaKit = chosen.filter((s) => why.has(s.slug))
        let blocked: ((s: (typeof chosen)[number]) => string | undefined) | undefined
        const notes: string[] = []
        if (viaKit.length) {
          try {
            provisioned = await provisionMerchants(gateway, kitCallbacks, viaKit)
            const own = provisioned
            gateway = {
              ...gateway,
              scenarioCredentials: Object.fromEntries(
                viaKit.map((s) => [s.slug, own.scenarioCredentials[s.slug] ?? own.credentials]),
              ),
            }
            notes.push(
              `${viaKit.length} of ${chosen.length} scenario(s) run as a merchant the kit created for this run, with callbacks to the kit (${allReasons}); it is deleted at the end.`,
            )
          } catch (error) {
            const refused = (error as Error).message
            blocked = (s) => {
              const reason = why.get(s.slug)?.join('; ')
              return reason
                ? `${reason}; the sandbox did not let the kit create a merchant of its own (${refused})`
                : undefined
            }
            notes.push(
              `${viaKit.length} of ${chosen.length} scenario(s) will be skipped: ${allReasons}, and the sandbox did not let the kit create a merchant of its own (${refused}). To run them, start the console with the sandbox's control token (--control-token), or give ${merchant.merchant_key} what they need (a notification_url of ${kitCallbacks} is only valid for this run).`,
            )
          }
        }
        if (notes.length) onNotes?.(notes)
        await c.runScenarios({
          scenarios: chosen,
          mode: 'gateway',
          host,
          gateway,
          concurrency: 4,
          reporters: [liveReporter(onUpdate)],
          target: `the console's sandbox at ${baseUrl}`,
          ...(blocked ? { blocked } : {}),
          ...(notes.length ? { notes } : {}),
        })
      } finally {
        await provisioned?.release()
        await host.close()
      }
    },
  }
}
