import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { plainReporter } from '../../src/conformance/reporters/plain.js'
import { runScenarios } from '../../src/conformance/runner.js'
import { type SandboxHost, startSandboxHost } from '../../src/conformance/sandbox-host.js'
import type { GatewayTarget } from '../../src/conformance/scenario-context.js'
import type { LoadedScenario, Mode, RunSummary } from '../../src/conformance/types.js'
import type { MerchantClient } from '../../src/conformance/merchant.js'
import { scratchDir } from '../helpers/scratch.js'

/** A scenario written inline in a test, as the loader would hand it over (no file). */
export function inline(slug: string, scenario: Record<string, unknown>): LoadedScenario {
  return {
    slug,
    file: `${slug}.json`,
    scenario: { title: slug, section: 'Events', mode: 'gateway', ...scenario } as LoadedScenario['scenario'],
  }
}

/** Runs scenarios against the kit-hosted sandbox (or a given gateway/merchant); returns the summary and the plain report. */
export async function run(
  scenarios: LoadedScenario[],
  options: { mode?: Mode; gateway?: GatewayTarget; merchant?: MerchantClient; host?: SandboxHost } = {},
): Promise<{ summary: RunSummary; text: string }> {
  const host = options.host ?? (await startSandboxHost())
  let text = ''
  try {
    const summary = await runScenarios({
      scenarios,
      mode: options.mode ?? 'gateway',
      host,
      ...(options.gateway ? { gateway: options.gateway } : {}),
      ...(options.merchant ? { merchant: options.merchant } : {}),
      concurrency: 4,
      waitMs: 300,
      reporters: [plainReporter((t) => (text += t))],
      target: 'test',
    })
    return { summary, text }
  } finally {
    if (!options.host) await host.close()
  }
}

/** Writes scenario files into a fresh directory and returns it. */
export function scenarioDir(files: Record<string, unknown>): string {
  const dir = scratchDir('paysandbox-scenarios-')
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2))
  return dir
}

export const start = { step: 'merchant.start', api: 'checkout', order: { amount: '10.00', currency: 'EUR' } }
export const s2sSale = {
  step: 'merchant.start',
  api: 's2s-card',
  order: { amount: '10.00', currency: 'EUR' },
}

/** `${name}` as a scenario writes it (built, so the test's own strings hold no template syntax). */
export const ref = (name: string): string => `$${'{'}${name}}`
