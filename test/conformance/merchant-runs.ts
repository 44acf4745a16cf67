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
 * (two at least); readiness is polled, and each hook answer waited for, up to 60 s on a loaded machine. `process` may change
 * how an adapter's process starts (the compiled reference merchant).
 */
export function merchantRuns(options: { process?: (proc: Process, file: string) => Process } = {}) {
  const started: { host: SandboxHost; merchant?: MerchantClient }[] = []
  const summaries = new Map<string, RunSummary>()

  async function run(scenarios: LoadedScenario[], { name, file, only, reporters = [] }: MerchantRun) {
    const host = await startSandboxHost()
    const entry: (typeof started)[number] = { host }
    started.push(entry)
    const { adapter, dir } = loadAdapter(file)
    const proc = adapter.process
      ? {
          ...(options.process ? options.process(adapter.process, file) : adapter.process),
          ready_timeout_seconds: 60,
        }
      : undefined
    // A hook answer waits as long as readiness does: on a loaded machine a merchant is slow, not gone.
    const timeouts = { ...adapter.timeouts, hook_seconds: Math.max(adapter.timeouts?.hook_seconds ?? 0, 60) }
    const merchant = await startMerchant({ ...adapter, timeouts, ...(proc ? { process: proc } : {}) }, dir)
    entry.merchant = merchant
    const chosen = only ? scenarios.filter((s) => only.includes(s.slug)) : scenarios
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
    /** Runs every merchant over `scenarios` (each its `only`), in batches. */
    runAll: (scenarios: LoadedScenario[], runs: MerchantRun[]) =>
      inBatches(runs, Math.max(2, availableParallelism()), (r) => run(scenarios, r)),
    /** Stops every merchant and host started. */
    close: () =>
      Promise.all(started.map(async ({ host, merchant }) => Promise.all([merchant?.stop(), host.close()]))),
  }
}
