import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadScenarios } from '../../src/conformance/load.js'
import { forMode } from '../../src/conformance/runner.js'
import type { LoadedScenario, RunSummary, Step } from '../../src/conformance/types.js'
import { compileReferenceMerchant } from './compiled-reference.js'
import { ref } from './helpers.js'
import { adapterNames, merchantRuns } from './merchant-runs.js'

/**
 * Issue 30 item 4 (docs/conformance.md, Judging outcomes): where the documents allow several
 * correct ways, the kit judges the outcome. Each correct alternative shop
 * (fixtures/merchants/alternatives/, the reference with ALTERNATIVE=<name>) passes every scenario
 * of the family whose recovery it does differently. Its "old recipe" probe (the scenario with the
 * expectation it used to prescribe) proves the shop really takes another way: the reference
 * passes the probe, the alternative fails it, and the scenario as bundled passes both.
 */

const root = join(import.meta.dirname, '..', '..')
const dir = join(root, 'fixtures', 'merchants', 'alternatives')

interface Family {
  /** The bundled scenarios of the family the alternative must pass. */
  scenarios: string[]
  /**
   * The scenario and the expectation it prescribed before: added at `at` (default the end), or
   * put in place of the step there (`replaces`).
   */
  oldRecipe: { scenario: string; steps: Record<string, unknown>[]; at?: number; replaces?: boolean }
}

const lookup = (fields: Record<string, unknown>) => ({
  step: 'expect.merchant_request',
  api: 'checkout',
  endpoint: { method: 'POST', path: '/api/v1/payment/status' },
  fields,
  within_seconds: 0.5,
  description: 'The recipe prescribed before (Endpoints).',
})

const FAMILIES: Record<string, Family> = {
  // The two false alarms of issue 30: a lookup with size after a lost Hosted Payment Fields answer…
  'order-lookup-with-size': {
    scenarios: [
      'merchant-fault-hpf-answer-lost',
      'merchant-order-lookup-without-size',
      'merchant-shared-order-number',
      'merchant-return-before-callback',
    ],
    oldRecipe: {
      scenario: 'merchant-fault-hpf-answer-lost',
      steps: [lookup({ '$.order_id': ref('order_number'), '$.size': { $exists: false } })],
    },
  },
  // …and a payer told nothing was charged instead of a second SALE.
  'tells-payer-not-charged': {
    scenarios: [
      'merchant-fault-sale-timeout',
      'merchant-fault-sale-answer-lost',
      'merchant-fault-hpf-answer-lost',
    ],
    oldRecipe: {
      scenario: 'merchant-fault-sale-timeout',
      steps: [
        {
          step: 'expect.merchant_order',
          fields: { '$.state': 'paid', '$.amount_paid': '10.00', '$.payments_count': 1 },
          description: 'The recipe prescribed before: an automatic second SALE (Gateway faults).',
        },
      ],
    },
  },
  'waits-for-callback': {
    scenarios: ['merchant-fault-sale-answer-lost', 'merchant-fault-hpf-answer-lost'],
    oldRecipe: {
      scenario: 'merchant-fault-sale-answer-lost',
      steps: [
        {
          step: 'expect.merchant_request',
          api: 's2s-card',
          endpoint: { action: 'GET_TRANS_STATUS_BY_ORDER' },
          within_seconds: 0.5,
          description: 'The recipe prescribed before: GET_TRANS_STATUS_BY_ORDER (Gateway faults).',
        },
      ],
    },
  },
  'lookup-by-payment-id': {
    scenarios: ['merchant-shared-order-number', 'merchant-order-lookup-without-size'],
    oldRecipe: {
      scenario: 'merchant-shared-order-number',
      steps: [lookup({ '$.order_id': ref('shared'), '$.size': { $exists: true } })],
      at: 7,
      replaces: true,
    },
  },
  'return-page-waits-for-callback': {
    scenarios: [
      'merchant-return-before-callback',
      'merchant-success-redirect-after-payment',
      'merchant-success-redirect-is-not-payment',
      'merchant-tampered-success-redirect',
    ],
    oldRecipe: { scenario: 'merchant-return-before-callback', steps: [lookup({})], at: 3 },
  },
  'cancels-with-amount': {
    scenarios: [
      'merchant-capture-then-void-same-day',
      'merchant-capture-cancelled-days-later',
      'merchant-capture-days-later-cancelled-after',
      'merchant-partial-refund-days-later',
      'merchant-held-authorization-across-days',
      'merchant-s2s-capture-then-void-same-day',
      'merchant-s2s-capture-cancelled-days-later',
      'merchant-s2s-capture-days-later-cancelled-after',
      'merchant-s2s-held-authorization-released',
    ],
    oldRecipe: {
      scenario: 'merchant-capture-cancelled-days-later',
      steps: [
        {
          step: 'expect.merchant_request',
          api: 'checkout',
          endpoint: { method: 'POST', path: '/api/v1/payment/refund' },
          fields: { '$.amount': { $exists: false } },
          description:
            'The recipe the reference takes: a refund without amount, the gateway refunds what remains (States and transitions).',
        },
      ],
      at: 8,
      replaces: true,
    },
  },
  'refund-resent-after-lookup': {
    scenarios: ['merchant-fault-refund-unavailable'],
    oldRecipe: {
      scenario: 'merchant-fault-refund-unavailable',
      steps: [
        {
          step: 'expect.merchant_order',
          fields: { '$.amount_refunded': '0.00' },
          description:
            'The recipe prescribed before: nothing refunded until the back office asks again (Gateway faults).',
        },
      ],
      at: 6,
    },
  },
  's2s-lookup-by-order': {
    scenarios: ['merchant-s2s-shared-order-number', 'merchant-fault-sale-answer-lost'],
    oldRecipe: {
      scenario: 'merchant-s2s-shared-order-number',
      steps: [
        {
          step: 'expect.no_merchant_request',
          endpoint: { action: 'GET_TRANS_STATUS_BY_ORDER' },
          description: 'The recipe the reference takes: the lookup by trans_id (Endpoints).',
        },
      ],
    },
  },
}

const alternatives = adapterNames(dir)
const probeSlug = (name: string) => `old-recipe-${name}`

let scenarios: LoadedScenario[] = []
let probes: LoadedScenario[] = []
let compiled: ReturnType<typeof compileReferenceMerchant>
const runs = merchantRuns({ process: (proc) => ({ ...proc, command: [process.execPath, compiled.main] }) })

/** The bundled scenario with the expectation it prescribed before. */
function oldRecipe(name: string, family: Family): LoadedScenario {
  const base = scenarios.find((s) => s.slug === family.oldRecipe.scenario) as LoadedScenario
  const steps = [...base.scenario.steps]
  const { at = steps.length, replaces = false } = family.oldRecipe
  steps.splice(at, replaces ? 1 : 0, ...(family.oldRecipe.steps as Step[]))
  return {
    ...base,
    slug: probeSlug(name),
    scenario: { ...base.scenario, steps } as LoadedScenario['scenario'],
  }
}

beforeAll(async () => {
  scenarios = forMode(loadScenarios([join(root, 'scenarios')]).scenarios, 'merchant')
  probes = Object.entries(FAMILIES).map(([name, family]) => oldRecipe(name, family))
  compiled = compileReferenceMerchant()
  await runs.runAll(
    [...scenarios, ...probes],
    [
      {
        name: 'reference',
        file: join(root, 'fixtures', 'merchants', 'reference.json'),
        only: probes.map((p) => p.slug),
      },
      ...alternatives.map((name) => ({
        name,
        file: join(dir, `${name}.json`),
        only: [...(FAMILIES[name]?.scenarios ?? []), probeSlug(name)],
      })),
    ],
  )
}, 300_000)

afterAll(async () => {
  await runs.close()
  compiled?.dispose()
})

const result = (name: string, slug: string) =>
  (runs.summaries.get(name) as RunSummary).results.find((r) => r.slug === slug)
const failure = (name: string, slug: string) =>
  result(name, slug)?.steps.find((s) => s.status === 'failed')?.message ?? ''

describe('the correct alternative shops', () => {
  it('are one for every scenario family that prescribes a recovery', () => {
    expect(alternatives).toEqual(Object.keys(FAMILIES).sort())
  })

  it.each(Object.keys(FAMILIES))('%s passes every scenario of its family', (name) => {
    for (const slug of FAMILIES[name]?.scenarios ?? [])
      expect(result(name, slug)?.status, `${name} on ${slug}: ${failure(name, slug)}`).toBe('passed')
  })

  it.each(Object.keys(FAMILIES))('%s takes another way than the reference (its old-recipe probe)', (name) => {
    const slug = probeSlug(name)
    expect(result('reference', slug)?.status, `reference on ${slug}: ${failure('reference', slug)}`).toBe(
      'passed',
    )
    expect(result(name, slug)?.status, `${name} on ${slug}`).toBe('failed')
  })
})
