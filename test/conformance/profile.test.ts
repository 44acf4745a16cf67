import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadScenarios } from '../../src/conformance/load.js'
import type { MerchantClient } from '../../src/conformance/merchant.js'
import { flowsOf, notApplicable } from '../../src/conformance/profile.js'
import { jsonReporter } from '../../src/conformance/reporters/json.js'
import { junitReporter } from '../../src/conformance/reporters/junit.js'
import { forMode, runScenarios } from '../../src/conformance/runner.js'
import { type SandboxHost, startSandboxHost } from '../../src/conformance/sandbox-host.js'
import type { LoadedScenario } from '../../src/conformance/types.js'

/**
 * Merchant profile (issue 23, requirement 6; docs/conformance.md, adapter `flows`): the kit runs
 * the scenarios whose flows the merchant offers and reports the others as skipped, not
 * applicable, with the reason, in the JSON and JUnit reports.
 */

const root = join(import.meta.dirname, '..', '..')
let scenarios: LoadedScenario[] = []
let host: SandboxHost
beforeAll(async () => {
  scenarios = forMode(loadScenarios([join(root, 'scenarios')]).scenarios, 'merchant')
  host = await startSandboxHost()
})
afterAll(() => host.close())
const named = (slug: string) => scenarios.find((s) => s.slug === slug) as LoadedScenario

describe('the flows a scenario needs', () => {
  it('are read from its steps', () => {
    expect(flowsOf(named('merchant-partial-refund'))).toEqual(['checkout'])
    expect(flowsOf(named('merchant-hpf-debit-endpoint'))).toEqual(['hpf'])
    expect(flowsOf(named('merchant-s2s-recurring-charged-later'))).toEqual(['s2s-card', 'recurring'])
    expect(flowsOf(named('merchant-dms-authorize-then-capture'))).toEqual(['checkout', 'two-stage'])
    expect(flowsOf(named('merchant-s2s-apm-callback-hash'))).toEqual(['s2s-apm'])
  })

  it('decide whether a scenario applies, with the reason when it does not', () => {
    expect(notApplicable(named('merchant-partial-refund'), undefined)).toBeUndefined()
    expect(notApplicable(named('merchant-partial-refund'), ['checkout'])).toBeUndefined()
    expect(notApplicable(named('merchant-s2s-recurring-charged-later'), ['checkout', 's2s-card'])).toBe(
      "not applicable: the scenario needs recurring, which the merchant's adapter does not offer (flows: checkout, s2s-card)",
    )
  })
})

describe('a Checkout-only shop', () => {
  it('gets the S2S scenarios skipped as not applicable, with the reason in JSON and JUnit', async () => {
    const chosen = ['merchant-s2s-callback-acknowledged-ok', 'merchant-s2s-apm-callback-hash'].map(named)
    const calls: string[] = []
    const merchant = {
      name: 'checkout-only',
      baseUrl: 'http://127.0.0.1:9',
      notificationUrl: 'http://127.0.0.1:9/cb',
      credentials: { merchant_key: 'k', password: 'p-0123456789abcdef' },
      sequential: false,
      flows: ['checkout', 'hpf'],
      hasAction: true,
      hasInspect: true,
      startPayment: async () => {
        calls.push('start')
        return { status: 500, body: {}, text: '' }
      },
      action: async () => ({ status: 500, body: {}, text: '' }),
      inspect: async () => ({ status: 404, body: {}, text: '' }),
      stop: async () => {},
    } satisfies MerchantClient
    let json = ''
    let xml = ''
    const summary = await runScenarios({
      scenarios: chosen,
      mode: 'merchant',
      host,
      merchant,
      reporters: [jsonReporter((t) => (json += t)), junitReporter((t) => (xml += t))],
      target: 'checkout-only',
    })
    expect(calls).toEqual([])
    expect(summary.skipped).toBe(2)
    const report = JSON.parse(json) as {
      scenarios: { slug: string; status: string; reason: string; notApplicable: boolean }[]
    }
    expect(report.scenarios.map((s) => [s.slug, s.status, s.notApplicable])).toEqual([
      ['merchant-s2s-callback-acknowledged-ok', 'skipped', true],
      ['merchant-s2s-apm-callback-hash', 'skipped', true],
    ])
    expect(report.scenarios[0]?.reason).toMatch(
      /^not applicable: the scenario needs s2s-card, which the merchant's adapter does not offer \(flows: checkout, hpf\)$/,
    )
    expect(xml).toMatch(
      /<skipped message="not applicable: the scenario needs s2s-apm, which the merchant&apos;s adapter does not offer \(flows: checkout, hpf\)"\/>/,
    )
  })
})
