import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CAPABILITIES,
  CONTRACT_VERSIONS,
  declarationOf,
  needName,
  parseNeed,
  SUPPORTS_NAMES,
} from '../../src/conformance/contract.js'
import { loadScenarios } from '../../src/conformance/load.js'
import { AdapterError, loadAdapter, type MerchantClient } from '../../src/conformance/merchant.js'
import { needsOf, notRunFor } from '../../src/conformance/profile.js'
import { jsonReporter } from '../../src/conformance/reporters/json.js'
import { junitReporter } from '../../src/conformance/reporters/junit.js'
import { plainReporter } from '../../src/conformance/reporters/plain.js'
import { forMode, runScenarios } from '../../src/conformance/runner.js'
import { type SandboxHost, startSandboxHost } from '../../src/conformance/sandbox-host.js'
import type { LoadedScenario } from '../../src/conformance/types.js'
import { scenarioDir } from './helpers.js'

/**
 * The merchant contract (issue 30 item 3; docs/conformance.md, The merchant contract): adapters
 * declare the version they were written to and what they implement; scenarios need what their
 * steps use; a scenario whose needs an adapter does not declare is not run, with the need's name,
 * and the kit calls nothing of it.
 */

const root = join(import.meta.dirname, '..', '..')
let scenarios: LoadedScenario[] = []
let host: SandboxHost
beforeAll(async () => {
  scenarios = forMode(loadScenarios([join(root, 'scenarios')]).scenarios, 'merchant')
  host = await startSandboxHost()
}, 60_000)
afterAll(() => host.close())
const named = (slug: string) => scenarios.find((s) => s.slug === slug) as LoadedScenario
const needs = (slug: string) => needsOf(named(slug)).map(needName).sort()

const hooks = { merchant_action: { path: '/a' }, inspect: { path: '/o/{order_id}' } }

describe('the contract catalogue', () => {
  it('reads a need with or without its contract version, and refuses what does not exist', () => {
    expect(parseNeed('void')).toEqual({ id: 'void', version: 1 })
    expect(parseNeed('void@2')).toEqual({ id: 'void', version: 2 })
    expect(parseNeed('handoff')).toEqual({ id: 'handoff', version: 2 })
    expect(parseNeed('handoff@1')).toBeUndefined()
    expect(parseNeed('void@3')).toBeUndefined()
    expect(parseNeed('teleport')).toBeUndefined()
  })

  it('is the list the adapter and scenario schemas take', () => {
    const adapter = JSON.parse(
      readFileSync(join(root, 'schemas', 'sandbox', 'merchant-adapter.schema.json'), 'utf8'),
    )
    expect(adapter.properties.contract.enum).toEqual([...CONTRACT_VERSIONS])
    expect([...adapter.properties.supports.items.enum].sort()).toEqual([...SUPPORTS_NAMES].sort())
    const scenario = JSON.parse(
      readFileSync(join(root, 'schemas', 'sandbox', 'scenario.schema.json'), 'utf8'),
    )
    const pattern = new RegExp(scenario.properties.needs.items.pattern)
    for (const id of Object.keys(CAPABILITIES)) expect(pattern.test(id), id).toBe(true)
    expect(pattern.test('void@2')).toBe(true)
    expect(pattern.test('teleport')).toBe(false)
  })
})

describe("an adapter's declaration", () => {
  it('without contract is contract 1: what contract 1 describes, and its hooks by their keys', () => {
    const { declaration, problems } = declarationOf({ ...hooks })
    expect(problems).toEqual([])
    expect(declaration.contract).toBe(1)
    expect([...declaration.supports].sort()).toEqual(
      [
        'capture',
        'inspect',
        'merchant_action',
        'recurring',
        'refund',
        'return_pages',
        'status',
        'void',
      ].sort(),
    )
    expect(declarationOf({}).declaration.supports.has('inspect')).toBe(false)
  })

  it('with contract 2 and supports is exactly what it lists, payouts by its flows', () => {
    const { declaration } = declarationOf({ contract: 2, supports: ['refund', 'handoff'], ...hooks })
    expect([...declaration.supports].sort()).toEqual(
      ['handoff', 'inspect', 'merchant_action', 'payouts', 'refund'].sort(),
    )
  })

  it('refuses a supports name newer than its contract, naming the version that has it', () => {
    const dir = scenarioDir({
      'merchant.json': {
        name: 'm',
        credentials: { merchant_key: 'k', password: 'password-1234' },
        base_url: 'http://127.0.0.1:1',
        start_payment: { path: '/s' },
        notification_path: '/cb',
        supports: ['refund', 'handoff'],
      },
    })
    const file = join(dir, 'merchant.json')
    expect(() => loadAdapter(file)).toThrow(AdapterError)
    expect(() => loadAdapter(file)).toThrow(
      /supports: "handoff" is in contract 2; this adapter declares contract 1 \(set "contract": 2\)/,
    )
    const adapter = JSON.parse(readFileSync(file, 'utf8'))
    writeFileSync(file, JSON.stringify({ ...adapter, contract: 2 }))
    expect(loadAdapter(file).adapter.contract).toBe(2)
  })
})

describe("a scenario's needs", () => {
  it('are read from its steps', () => {
    expect(needs('merchant-partial-refund')).toEqual(['inspect', 'merchant_action', 'refund'])
    expect(needs('merchant-s2s-3ds-is-not-payment')).toEqual(['handoff', 'inspect'])
    expect(needs('merchant-checkout-card-credit')).toEqual(['inspect', 'payouts'])
    expect(needs('merchant-non-recurring-stays-non-recurring')).toEqual([
      'inspect',
      'inspect.recurring_token',
    ])
    expect(needs('merchant-success-redirect-after-payment')).toEqual(['inspect', 'return_pages'])
    expect(needs('merchant-s2s-shared-order-number')).toContain('inspect.payment_id')
    // An alternative of `any_of` reads its fields too.
    const alternative = {
      ...named('merchant-partial-refund'),
      scenario: {
        ...named('merchant-partial-refund').scenario,
        steps: [{ step: 'expect.merchant_order', any_of: [{ '$.state': 'paid' }, { '$.payment_id': 'x' }] }],
      },
    } as LoadedScenario
    expect(needsOf(alternative).map(needName).sort()).toEqual(['inspect', 'inspect.payment_id'])
  })

  it('add what its file declares: the contract-2 meaning of void and status', () => {
    expect(needs('merchant-capture-cancelled-days-later')).toEqual([
      'capture',
      'inspect',
      'merchant_action',
      'void@2',
    ])
    expect(needs('merchant-capture-then-void-same-day')).toContain('void')
    expect(needs('merchant-shared-order-number')).toContain('status@2')
  })

  it('decide whether it runs, with the reason', () => {
    const c1 = declarationOf({ ...hooks }).declaration
    const c2 = declarationOf({ contract: 2, supports: ['capture', 'refund'], ...hooks }).declaration
    expect(notRunFor(named('merchant-partial-refund'), { declaration: c1 })).toBeUndefined()
    expect(notRunFor(named('merchant-capture-then-void-same-day'), { declaration: c1 })).toBeUndefined()
    expect(notRunFor(named('merchant-capture-cancelled-days-later'), { declaration: c1 })?.reason).toBe(
      'not run: the scenario needs the `void` action as contract 2 describes it (it cancels the payment on any day: VOID on its financial day, a refund after, a held authorization released by a refund); your adapter is written to contract 1',
    )
    expect(notRunFor(named('merchant-capture-then-void-same-day'), { declaration: c2 })).toEqual({
      reason: 'not run: your adapter declares no `void` action',
      missing: [
        {
          need: 'void',
          reason: 'your adapter declares no `void` action',
          label: 'your adapter declares no `void` action',
        },
      ],
    })
    // Flows first, in their own words.
    expect(
      notRunFor(named('merchant-s2s-capture-then-void-same-day'), { flows: ['checkout'], declaration: c2 })
        ?.reason,
    ).toMatch(/^not applicable: the scenario needs s2s-card, two-stage/)
  })
})

describe('a run against an adapter that declares less', () => {
  it('calls nothing it does not declare, and reports what was not run and why (plain, JSON, JUnit)', async () => {
    const chosen = [
      'merchant-capture-then-void-same-day',
      'merchant-s2s-held-authorization-released',
      'merchant-s2s-3ds-is-not-payment',
      'merchant-capture-cancelled-days-later',
    ].map(named)
    const calls: string[] = []
    const never = async (what: string) => {
      calls.push(what)
      return { status: 500, body: {}, text: '' }
    }
    const merchant = {
      name: 'declares little',
      baseUrl: 'http://127.0.0.1:9',
      notificationUrl: 'http://127.0.0.1:9/cb',
      credentials: { merchant_key: 'k', password: 'p-0123456789abcdef' },
      sequential: false,
      hasAction: true,
      hasInspect: true,
      // Contract 1 (no `contract`), declaring the capture action and its hooks only.
      declaration: declarationOf({ supports: ['capture'], ...hooks }).declaration,
      startPayment: () => never('start'),
      action: () => never('action'),
      inspect: () => never('inspect'),
      stop: async () => {},
    } satisfies MerchantClient
    const written = { plain: '', json: '', junit: '' }
    const summary = await runScenarios({
      scenarios: chosen,
      mode: 'merchant',
      host,
      merchant,
      reporters: [
        plainReporter((t) => (written.plain += t)),
        jsonReporter((t) => (written.json += t)),
        junitReporter((t) => (written.junit += t)),
      ],
      target: 'declares little',
    })
    expect(calls).toEqual([])
    expect(summary.skipped).toBe(4)
    expect(summary.notRun).toEqual([
      {
        need: 'void',
        reason: 'your adapter declares no `void` action',
        scenarios: ['merchant-capture-then-void-same-day'],
      },
      {
        need: 'void@2',
        reason: '`void` action of contract 2 (your adapter: contract 1)',
        scenarios: ['merchant-s2s-held-authorization-released', 'merchant-capture-cancelled-days-later'],
      },
      {
        need: 'handoff',
        reason:
          '`redirect_method` and `redirect_params` in the start_payment answer of contract 2 (your adapter: contract 1)',
        scenarios: ['merchant-s2s-3ds-is-not-payment'],
      },
    ])
    expect(written.plain).toMatch(
      /^note: the adapter is written to contract 1 \(no "contract": 2\): scenarios that need what contract 2 added are not run/m,
    )
    expect(written.plain).toMatch(
      /SKIP merchant-capture-then-void-same-day .*\n {5}not run: your adapter declares no `void` action\n/,
    )
    expect(written.plain).toMatch(
      /not run, and why:\n {2}your adapter declares no `void` action \(1\): merchant-capture-then-void-same-day\n {2}`void` action of contract 2 \(your adapter: contract 1\) \(2\): merchant-s2s-held-authorization-released, merchant-capture-cancelled-days-later\n/,
    )
    const json = JSON.parse(written.json) as {
      not_run: unknown[]
      scenarios: { slug: string; status: string; missing?: { need: string }[] }[]
    }
    expect(json.not_run).toEqual(summary.notRun)
    expect(json.scenarios.find((s) => s.slug === 'merchant-capture-cancelled-days-later')?.missing).toEqual([
      expect.objectContaining({ need: 'void@2' }),
    ])
    expect(written.junit).toMatch(/<skipped message="not run: your adapter declares no `void` action"\/>/)
    expect(written.junit).toMatch(
      /<system-out>not run, and why:\n {2}your adapter declares no `void` action \(1\)/,
    )
  })
})
