import type { ScenarioResult as RunResult, Reporter, StepResult } from '../conformance/types.js'
import type { ScenarioResult, ScenarioSource } from './scenario-source.js'

export interface Credentials {
  merchant_key: string
  password: string
}

/** The first failed step, in the runner's words, with the interface section it is about. */
function failure(result: RunResult): string | undefined {
  const step = result.steps.find((s: StepResult) => s.status === 'failed')
  if (!step) return result.reason
  return `step ${step.index + 1} ${step.label}: ${step.message ?? 'failed'}${step.section ? ` [interface ${step.section}]` : ''}`
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

/**
 * The conformance runner (src/conformance) in gateway mode against the console's own sandbox, so
 * the payments and callbacks a scenario makes appear in the other views as it runs. Loaded on
 * first use: opening the console does not load the runner. `credentials` answers the merchant
 * the scenarios act as, or why there is none.
 */
export function conformanceSource(
  baseUrl: string,
  credentials: (merchant?: string) => Promise<Credentials | string>,
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
    async run(selection, onUpdate, merchantKey) {
      const merchant = await credentials(merchantKey)
      if (typeof merchant === 'string') throw new Error(merchant)
      const { c, scenarios } = await gatewayScenarios()
      const chosen = selection.ids
        ? scenarios.filter((s) => selection.ids?.includes(s.slug))
        : c.filterScenarios(scenarios, { tags: [selection.tag ?? ''] })
      if (!chosen.length) throw new Error(`no gateway scenario has the tag "${selection.tag}"`)
      const gateway = await c.probeGateway(baseUrl, merchant)
      const host = await c.startSandboxHost(0)
      try {
        await c.runScenarios({
          scenarios: chosen,
          mode: 'gateway',
          host,
          gateway,
          concurrency: 4,
          reporters: [liveReporter(onUpdate)],
          target: `the console's sandbox at ${baseUrl}`,
        })
      } finally {
        await host.close()
      }
    },
  }
}
