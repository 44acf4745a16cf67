import { readdirSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadScenarios } from '../../src/conformance/load.js'
import { loadAdapter, type MerchantClient, startMerchant } from '../../src/conformance/merchant.js'
import { forMode, runScenarios } from '../../src/conformance/runner.js'
import { type SandboxHost, startSandboxHost } from '../../src/conformance/sandbox-host.js'
import type { LoadedScenario, RunSummary, StepResult } from '../../src/conformance/types.js'
import { compileReferenceMerchant, inBatches } from './compiled-reference.js'

/**
 * docs/conformance.md, Broken twins: "The test suite proves the reference passes every merchant
 * scenario and each twin fails at least one, with a message naming what is wrong and the interface
 * section that says so." Each merchant process starts once and runs its scenarios in parallel
 * through the runner: the reference every merchant scenario, each twin the scenario written to
 * catch its mistake (which the reference passes).
 *
 * Steady on a loaded 2-core machine: the reference merchant is compiled to JavaScript once and
 * each process runs it with plain node (the adapters' tsx command otherwise compiles it in every
 * process); at most as many merchants run at once as there are CPUs; readiness is /health polled.
 */

const root = join(import.meta.dirname, '..', '..')
const merchants = join(root, 'fixtures', 'merchants')

/**
 * Each twin, the scenarios that expose it (the first one written to catch it), and what that
 * failure must say. Together they cover every merchant scenario: each exposes at least one twin.
 */
const CAUGHT_BY: Record<string, { scenarios: string[]; says: RegExp; section: RegExp }> = {
  'no-callback-hash-check': {
    scenarios: [
      'merchant-forged-callback-hash',
      'merchant-unsigned-callback',
      'merchant-forged-callback-amount',
      'merchant-forged-callback-status',
    ],
    says: /forged callback was acknowledged: the merchant must verify hash/,
    section: /Events/,
  },
  '3ds-callback-as-paid': {
    scenarios: [
      'merchant-3ds-callback-is-not-payment',
      'merchant-3ds-then-decline',
      'merchant-redirect-callback-is-not-payment',
      'merchant-s2s-3ds-is-not-payment',
    ],
    says: /type=3ds callback .* taken as a payment/,
    section: /Events/,
  },
  'not-idempotent': {
    scenarios: [
      'merchant-duplicate-callback',
      'merchant-hpf-purchase-endpoint',
      'merchant-success-redirect-after-payment',
    ],
    says: /counted the payment again/,
    section: /decisions\.md 3/,
  },
  'sha1-of-binary-md5': {
    scenarios: ['merchant-session-hash-sha1-over-hex-md5'],
    says: /sha1 over the 32-character lowercase hex MD5/,
    section: /Authentication/,
  },
  'amount-with-comma': {
    scenarios: ['merchant-amount-dot-separator'],
    says: /dot separator/,
    section: /2\.1\.1/,
  },
  'wrong-decimals': {
    scenarios: ['merchant-amount-zero-decimal-currency', 'merchant-amount-three-decimal-currency'],
    says: /currency's decimals/,
    section: /2\.1\.1/,
  },
  'nested-order-number': {
    scenarios: ['merchant-callback-flat-keys'],
    says: /order_number \(not order\.number or order\[number\]\)/,
    section: /decisions\.md 3/,
  },
  'ignores-reversals': {
    scenarios: ['merchant-authorization-reversal', 'merchant-s2s-authorization-reversal'],
    says: /reversal .* was ignored/,
    section: /States and transitions/,
  },
  'paid-on-redirect': {
    scenarios: ['merchant-success-redirect-is-not-payment', 'merchant-tampered-success-redirect'],
    says: /marked paid because the payer opened success_url/,
    section: /Events/,
  },
  'non-2xx-ack': {
    scenarios: ['merchant-checkout-settled-callback-marks-paid', 'merchant-callback-retry'],
    says: /not answered with 2xx/,
    section: /decisions\.md 3/,
  },
  'never-captures-dms': {
    scenarios: ['merchant-dms-authorize-then-capture', 'merchant-dms-capture-declined'],
    says: /authorization .* booked as paid/,
    section: /States and transitions/,
  },
  'wrong-hpf-endpoint': {
    scenarios: ['merchant-hpf-debit-endpoint'],
    says: /must match the session operation/,
    section: /Endpoints/,
  },
  'out-of-order-regression': {
    scenarios: ['merchant-callbacks-out-of-order'],
    says: /arrived after settled moved the order back/,
    section: /States and transitions/,
  },
  's2s-ack-not-ok': {
    scenarios: ['merchant-s2s-callback-acknowledged-ok'],
    says: /not answered with the body OK/,
    section: /decisions\.md 3/,
  },
  'unicode-upper': {
    scenarios: ['merchant-hash-upper-ascii-only'],
    says: /upper-cases ASCII a-z only/,
    section: /Authentication/,
  },
  'refund-signs-order-amount': {
    scenarios: ['merchant-partial-refund', 'merchant-full-refund'],
    says: /refund hash must cover the amount exactly as sent/,
    section: /decisions\.md 1/,
  },
  'ignores-declines': {
    scenarios: ['merchant-decline-marks-failed'],
    says: /declined payment .* left the order as it was/,
    section: /Events/,
  },
  's2s-callback-hash-without-trans-id': {
    scenarios: ['merchant-s2s-callback-hash'],
    says: /with trans_id, unlike the SALE request/,
    section: /decisions\.md 1/,
  },
}

const twins = readdirSync(join(merchants, 'twins'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort()

let scenarios: LoadedScenario[] = []
let compiled: ReturnType<typeof compileReferenceMerchant>
const summaries = new Map<string, RunSummary>()
const started: { host: SandboxHost; merchant?: MerchantClient }[] = []

/** Starts one merchant (its own sandbox host: scenario slugs are its URL prefixes) and runs every scenario. */
async function run(name: string, file: string, only?: string[]): Promise<void> {
  const host = await startSandboxHost()
  const entry: (typeof started)[number] = { host }
  started.push(entry)
  const { adapter, dir } = loadAdapter(file)
  // The adapter's process, run from the compiled JavaScript (same MISTAKE, port and credentials).
  const proc = adapter.process
  if (!proc || proc.command.at(-1) !== 'fixtures/merchants/reference/main.ts')
    throw new Error(
      `${file}: expected the reference merchant's command, got ${JSON.stringify(proc?.command)}`,
    )
  const merchant = await startMerchant(
    {
      ...adapter,
      process: { ...proc, command: [process.execPath, compiled.main], ready_timeout_seconds: 60 },
    },
    dir,
  )
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
      reporters: [],
      target: name,
    }),
  )
  await merchant.stop()
}

beforeAll(async () => {
  const loaded = loadScenarios([join(root, 'scenarios')])
  expect(loaded.errors.map((e) => e.message)).toEqual([])
  scenarios = forMode(loaded.scenarios, 'merchant')
  compiled = compileReferenceMerchant()
  const all: [string, string, string[] | undefined][] = [
    ['reference', join(merchants, 'reference.json'), undefined],
    ...twins.map((twin): [string, string, string[] | undefined] => [
      twin,
      join(merchants, 'twins', `${twin}.json`),
      CAUGHT_BY[twin]?.scenarios,
    ]),
  ]
  await inBatches(all, Math.max(2, availableParallelism()), ([name, file, only]) => run(name, file, only))
}, 300_000)

afterAll(async () => {
  await Promise.all(started.map(async ({ host, merchant }) => Promise.all([merchant?.stop(), host.close()])))
  compiled?.dispose()
})

/** What a report shows for a failed step: the runner's finding, the step's own words, the sections. */
function report(slug: string, step: StepResult): string {
  const scenario = scenarios.find((s) => s.slug === slug)
  const own = scenario?.scenario.steps[step.index] as { description?: string } | undefined
  return `${step.label}: ${step.message}\n  ${own?.description ?? ''}\n  (interface: ${step.section ?? ''})`
}

describe('merchant scenarios', () => {
  it('number at least 20, each with a section and every expectation with a message', () => {
    const mine = scenarios.filter((s) => s.slug.startsWith('merchant-'))
    expect(mine.length).toBeGreaterThanOrEqual(20)
    for (const { slug, scenario } of mine) {
      expect(scenario.section, slug).toBeTruthy()
      for (const step of scenario.steps)
        if (step.step.startsWith('expect.'))
          expect((step as { description?: string }).description, `${slug} ${step.step}`).toMatch(
            /\(.*(decisions\.md|Events|States|Endpoints|Authentication|2\.1).*\)/,
          )
    }
  })
})

describe('the reference merchant', () => {
  it('passes every merchant scenario', () => {
    const summary = summaries.get('reference') as RunSummary
    const problems = summary.results
      .filter((r) => r.status !== 'passed')
      .map(
        (r) =>
          `${r.slug}: ${r.status} ${r.reason ?? ''}\n${r.steps
            .filter((s) => s.status !== 'passed')
            .map((s) => report(r.slug, s))
            .join('\n')}`,
      )
    expect(problems).toEqual([])
    expect(summary.passed).toBe(scenarios.length)
  })
})

describe('the broken twins', () => {
  it('are at least 12, each with a scenario written to catch it', () => {
    expect(twins.length).toBeGreaterThanOrEqual(12)
    expect(Object.keys(CAUGHT_BY).sort()).toEqual(twins)
  })

  it('together expose every merchant scenario', () => {
    const exposed = new Set(Object.values(CAUGHT_BY).flatMap((c) => c.scenarios))
    expect(
      scenarios.filter((s) => s.slug.startsWith('merchant-') && !exposed.has(s.slug)).map((s) => s.slug),
    ).toEqual([])
  })

  it.each(twins)('%s fails its scenarios, with a message naming the mistake and the section', (twin) => {
    const caught = CAUGHT_BY[twin] as (typeof CAUGHT_BY)[string]
    const results = summaries.get(twin)?.results ?? []
    for (const slug of caught.scenarios) {
      const result = results.find((r) => r.slug === slug)
      expect(result?.status, `${twin} did not fail ${slug}: ${JSON.stringify(result)}`).toBe('failed')
    }
    const [first] = caught.scenarios as [string]
    const failed = results
      .find((r) => r.slug === first)
      ?.steps.find((s) => s.status === 'failed') as StepResult
    expect(report(first, failed)).toMatch(caught.says)
    expect(failed.section ?? '').toMatch(caught.section)
  })
})
