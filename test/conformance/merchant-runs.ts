import { readdirSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { loadAdapter, type MerchantClient, startMerchant } from '../../src/conformance/merchant.js'
import { runScenarios } from '../../src/conformance/runner.js'
import { type SandboxHost, startSandboxHost } from '../../src/conformance/sandbox-host.js'
import type { LoadedScenario, Reporter, RunSummary } from '../../src/conformance/types.js'
import type { SandboxMerchantAdapter } from '../../src/generated/types.js'
import { inBatches } from './compiled-reference.js'

/** The adapter files of a directory (the broken twins), by name, sorted. */
export function adapterNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort()
}

export interface MerchantRun {
  /** The summary's key and the run's target. */
  name: string
  /** The adapter file. */
  file: string
  /** Only these scenarios (default: all). */
  only?: string[]
  reporters?: Reporter[]
}

type Process = NonNullable<SandboxMerchantAdapter['process']>

/**
 * Merchant processes run through the kit's runner, as the reference, the Python shop and their
 * twins tests do: each merchant gets its own sandbox host (scenario slugs are its URL prefixes)
 * and runs its scenarios in parallel; at most as many merchants run at once as there are CPUs
 * (two at least), and as many more waiting on held answers (`runAll`); readiness is polled, and
 * each hook answer waited for, up to 60 s on a loaded machine. `process` may change how an
 * adapter's process starts (the compiled reference merchant).
 */
export function merchantRuns(options: { process?: (proc: Process, file: string) => Process } = {}) {
  const started: { host: SandboxHost; merchant?: MerchantClient }[] = []
  const summaries = new Map<string, RunSummary>()

  async function run(scenarios: LoadedScenario[], { name, file, only, reporters = [] }: MerchantRun) {
    const host = await startSandboxHost()
    const entry: (typeof started)[number] = { host }
    started.push(entry)
    const { adapter, dir } = loadAdapter(file)
    const chosen = only ? scenarios.filter((s) => only.includes(s.slug)) : scenarios
    const own =
      adapter.process && (options.process ? options.process(adapter.process, file) : adapter.process)
    // The reference shops' gateway clients (TypeScript and Python) give up after 10 s
    // (GATEWAY_TIMEOUT_MS), which a held answer (15 s) needs. A run with none gives them 60 s, as
    // the hooks get: on a loaded machine (four suites on 2 cores) the gateway is slow, not gone,
    // and a shop that took a slow session answer for a lost one would pass its start step and fail
    // a later one.
    const proc = own
      ? {
          ...own,
          ...(chosen.some(holdsAnswer) ? {} : { env: { ...own.env, GATEWAY_TIMEOUT_MS: '60000' } }),
          ready_timeout_seconds: 60,
        }
      : undefined
    // A hook answer waits as long as readiness does: on a loaded machine a merchant is slow, not gone.
    const timeouts = { ...adapter.timeouts, hook_seconds: Math.max(adapter.timeouts?.hook_seconds ?? 0, 60) }
    const merchant = await startMerchant({ ...adapter, timeouts, ...(proc ? { process: proc } : {}) }, dir)
    entry.merchant = merchant
    summaries.set(
      name,
      await runScenarios({
        scenarios: chosen,
        mode: 'merchant',
        host,
        merchant,
        concurrency: 8,
        reporters,
        target: name,
      }),
    )
    await merchant.stop()
  }

  return {
    summaries,
    /**
     * Runs every merchant over `scenarios` (each its `only`), in batches. A run with a held answer
     * (docs/conformance.md#gateway-faults: `late`, or `hold_seconds`) spends most of its time
     * waiting for the merchant's own HTTP client to give up: those run in places of their own (as
     * many as the CPUs) beside the others' batches, so that their waits overlap the others' work.
     * A run of a few scenarios with a callback time-out of their own
     * (`setup.callback_timeout_seconds`: a twin that answers only once the gateway hung up) mostly
     * waits for that time-out, and starts at once.
     */
    runAll: async (scenarios: LoadedScenario[], runs: MerchantRun[]) => {
      const runsAny = (r: MerchantRun, test: (s: LoadedScenario) => boolean) =>
        scenarios.some((s) => (!r.only || r.only.includes(s.slug)) && test(s))
      const held = runs.filter((r) => runsAny(r, holdsAnswer))
      const timed = runs.filter((r) => !held.includes(r) && r.only && runsAny(r, hasCallbackTimeout))
      const rest = runs.filter((r) => !held.includes(r) && !timed.includes(r))
      const cpus = Math.max(2, availableParallelism())
      await Promise.all([
        ...[held, rest].map((batch) => inBatches(batch, cpus, (r) => run(scenarios, r))),
        ...timed.map((r) => run(scenarios, r)),
      ])
    },
    /** Stops every merchant and host started. */
    close: () =>
      Promise.all(started.map(async ({ host, merchant }) => Promise.all([merchant?.stop(), host.close()]))),
  }
}

/** A scenario whose gateway holds an answer in real time until the merchant's client gives up. */
function holdsAnswer({ scenario }: LoadedScenario): boolean {
  return scenario.steps.some(
    (step) =>
      step.step === 'gateway.fault' &&
      ((step as { mode?: string }).mode === 'late' ||
        (step as { hold_seconds?: number }).hold_seconds !== undefined),
  )
}

/** A scenario with a callback time-out of its own, which a late-answering merchant waits out. */
function hasCallbackTimeout({ scenario }: LoadedScenario): boolean {
  return scenario.setup?.callback_timeout_seconds !== undefined
}
