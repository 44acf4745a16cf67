import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CAPABILITIES } from '../../src/conformance/contract.js'
import { loadScenarios } from '../../src/conformance/load.js'
import { loadAdapter } from '../../src/conformance/merchant.js'
import { needsOf } from '../../src/conformance/profile.js'
import { forMode } from '../../src/conformance/runner.js'
import type { LoadedScenario, RunSummary } from '../../src/conformance/types.js'
import { compileReferenceMerchant } from './compiled-reference.js'
import { merchantRuns } from './merchant-runs.js'

/**
 * Issue 30 item 3 (docs/conformance.md, The merchant contract): shops whose test hooks are held
 * to one contract (fixtures/merchants/reference/contract.ts: anything else they are sent is
 * refused with HTTP 400, and they answer and show only what it includes) through the whole bundle:
 * - contract-1.json: the hooks as docs/conformance.md described them a release ago (`void` sends
 *   VOID, `status` looks the payment up, no payouts, no redirect_method/redirect_params, no
 *   payment_id in inspect), adapter without `contract`: every scenario passes or is not run;
 * - today's contract, everything declared: the reference merchant itself (reference.json sets
 *   CONTRACT=2), which twins.test.ts runs through the whole bundle (every scenario passes); a
 *   third full run here would check the same shop with the same scenarios;
 * - contract-2-partial.json: contract 2 declaring some actions and flows: passes or is not run,
 *   with the name of what it does not declare.
 */

const root = join(import.meta.dirname, '..', '..')
const merchants = join(root, 'fixtures', 'merchants')

let scenarios: LoadedScenario[] = []
let compiled: ReturnType<typeof compileReferenceMerchant>
const runs = merchantRuns({ process: (proc) => ({ ...proc, command: [process.execPath, compiled.main] }) })

beforeAll(async () => {
  scenarios = forMode(loadScenarios([join(root, 'scenarios')]).scenarios, 'merchant')
  compiled = compileReferenceMerchant()
  await runs.runAll(scenarios, [
    { name: 'contract-1', file: join(merchants, 'contract-1.json') },
    { name: 'contract-2-partial', file: join(merchants, 'contract-2-partial.json') },
  ])
}, 300_000)

afterAll(async () => {
  await runs.close()
  compiled?.dispose()
})

const summary = (name: string) => runs.summaries.get(name) as RunSummary
/** Failed scenarios, each with its failed step's message (what a broken contract looks like). */
const failures = (name: string) =>
  summary(name)
    .results.filter((r) => r.status === 'failed')
    .map((r) => `${r.slug}: ${r.steps.find((s) => s.status === 'failed')?.message ?? ''}`)
const slugs = (name: string, status: string) =>
  summary(name)
    .results.filter((r) => r.status === status)
    .map((r) => r.slug)
    .sort()

describe('a shop written to contract 1 (the document a release ago), on this release', () => {
  it('passes every scenario it can run and fails none', () => {
    expect(failures('contract-1')).toEqual([])
    expect(summary('contract-1').passed).toBeGreaterThanOrEqual(45)
  })

  it('is not run exactly on the scenarios that need what contract 2 added, each saying what', () => {
    const newer = scenarios
      .filter((s) => needsOf(s).some((n) => n.version > 1 || CAPABILITIES[n.id].since > 1))
      .map((s) => s.slug)
      .sort()
    expect(slugs('contract-1', 'skipped')).toEqual(newer)
    for (const r of summary('contract-1').results.filter((r) => r.status === 'skipped'))
      expect(r.reason, r.slug).toMatch(
        /^not run: the scenario needs .*contract 2.*; your adapter is written to contract 1/,
      )
    const voids = summary('contract-1').notRun?.find((g) => g.need === 'void@2')
    expect(voids?.scenarios.sort()).toEqual([
      'merchant-capture-cancelled-days-later',
      'merchant-capture-days-later-cancelled-after',
      'merchant-held-authorization-across-days',
      'merchant-partial-refund-days-later',
      'merchant-s2s-capture-cancelled-days-later',
      'merchant-s2s-capture-days-later-cancelled-after',
      'merchant-s2s-held-authorization-released',
    ])
    // Contract 1's own `void` (VOID on the financial day) still runs.
    expect(slugs('contract-1', 'passed')).toContain('merchant-capture-then-void-same-day')
  })
})

describe('a shop written to contract 2, everything declared', () => {
  // twins.test.ts ("the reference merchant passes every merchant scenario") runs it.
  it('is the reference merchant: its adapter declares contract 2 and its hooks are held to it', () => {
    const reference = loadAdapter(join(merchants, 'reference.json')).adapter
    expect(reference.contract).toBe(2)
    expect(reference.process?.env?.CONTRACT).toBe('2')
    expect(reference.process?.env?.SUPPORTS).toBeUndefined()
    expect(reference.process?.command.at(-1)).toBe('fixtures/merchants/reference/main.ts')
  })
})

describe('a shop written to contract 2 that declares part of it', () => {
  it('passes or is not run, never fails, and names what it does not declare', () => {
    expect(failures('contract-2-partial')).toEqual([])
    const groups = Object.fromEntries((summary('contract-2-partial').notRun ?? []).map((g) => [g.need, g]))
    expect(groups.void?.reason).toBe('your adapter declares no `void` action')
    expect(groups.void?.scenarios).toContain('merchant-capture-then-void-same-day')
    expect(groups.handoff?.reason).toBe(
      'your adapter declares no `redirect_method` and `redirect_params` in the start_payment answer',
    )
    expect(groups.return_pages?.scenarios).toContain('merchant-return-before-callback')
    expect(groups['flow:s2s-apm']?.reason).toBe('flow s2s-apm not offered (flows)')
    expect(slugs('contract-2-partial', 'passed')).toEqual(
      expect.arrayContaining([
        'merchant-partial-refund',
        'merchant-shared-order-number',
        'merchant-fault-sale-timeout',
      ]),
    )
  })
})
