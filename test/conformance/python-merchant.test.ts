import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadScenarios } from '../../src/conformance/load.js'
import { loadAdapter } from '../../src/conformance/merchant.js'
import { type Flow, flowsOf } from '../../src/conformance/profile.js'
import { jsonReporter } from '../../src/conformance/reporters/json.js'
import { junitReporter } from '../../src/conformance/reporters/junit.js'
import { forMode } from '../../src/conformance/runner.js'
import type { LoadedScenario, RunSummary, StepResult } from '../../src/conformance/types.js'
import { adapterNames, merchantRuns } from './merchant-runs.js'

/**
 * The Python reference shop (fixtures/merchants/python/, standard library only; adapter
 * fixtures/merchants/python.json) through the kit's runner, as `paysandbox test --merchant` runs it:
 * - docs/conformance.md, adapter `flows` (the merchant profile): the shop offers Checkout and
 *   two-stage; every merchant scenario whose flows it offers passes, every other one is reported
 *   skipped, not applicable, with its reason;
 * - its broken twins (fixtures/merchants/python-twins/, MISTAKE=<name>): each fails the scenario
 *   written to catch its mistake, headed (docs/conformance.md, Cause first) by the cause.
 * python3 must be on the machine: without it this file fails, it never skips.
 */

const root = join(import.meta.dirname, '..', '..')
const merchants = join(root, 'fixtures', 'merchants')

/**
 * Each twin, the scenarios that expose it, what the headline (the first line of the first failure,
 * after its step) says and, for a refused request, the rule and fix the finding gives.
 */
const CAUGHT_BY: Record<string, { scenarios: string[]; says: RegExp; advice?: RegExp }> = {
  'callback-parsed-as-json': {
    scenarios: ['merchant-checkout-settled-callback-marks-paid'],
    says: /^\d+\. [^\n]*: the merchant's callback handler failed on the callback \(HTTP 5xx\); callbacks are form-encoded \(application\/x-www-form-urlencoded\), read them as a form \(docs\/rules\.md#callback-format\): it did not acknowledge #0 sale\/settled \(success\): attempt 1: HTTP 500/,
  },
  'no-callback-hash-check': {
    scenarios: ['merchant-forged-callback-hash', 'merchant-forged-callback-status'],
    says: /^\d+\. [^\n]*acknowledged #\d+ [^\n]*\[forged\] \(signed with another password[^\n]*its order changed: state "failed" → "paid"/,
  },
  'amount-as-float': {
    scenarios: ['merchant-checkout-settled-callback-marks-paid'],
    says: /^1\. merchant\.start checkout: the merchant sent order\.amount: 10\.0 EUR, where the platform documents [^\n]* \(POST \/api\/v1\/session; docs\/rules\.md#amounts\): the gateway served it with a Sandbox-Warning/,
  },
  'amount-thousands-separator': {
    scenarios: ['merchant-amount-dot-separator'],
    says: /^1\. merchant\.start checkout: the merchant sent order\.amount "1,234\.50", with a comma as a thousands separator \(POST \/api\/v1\/session\) \(docs\/rules\.md#amounts\): the gateway refused it \(HTTP 400: order\.amount: [^\n]*a dot separator[^\n]*\)$/,
    advice: /fix: leave the thousands separators out: "1234\.50"/,
  },
  'sha1-of-md5-bytes': {
    scenarios: ['merchant-session-hash-sha1-over-hex-md5', 'merchant-checkout-settled-callback-marks-paid'],
    says: /^1\. merchant\.start checkout: the merchant's hash is sha1 of the binary md5 digest; the formula takes md5's hex digest \(POST \/api\/v1\/session, checkout\.session\) \(docs\/rules\.md#checkout-signatures\): the gateway refused it \(HTTP 400: hash: Hash is not valid\.\)$/,
    advice:
      /rule: checkout\.session: sha1\(md5\(upper\(order\.number[\s\S]*fix: hash md5's 32-character lower-case hex digest with sha1, not its 16 raw bytes \([^\n]*Python \.digest\(\)[^\n]*\): for this request [0-9a-f]{40}/,
  },
  'refund-signs-order-amount': {
    scenarios: ['merchant-partial-refund'],
    says: /^\d+\. merchant\.action refund: the merchant's hash is over amount "10\.00" \(order\.amount of its POST \/api\/v1\/session\) where the request sent amount "4\.00" \(POST \/api\/v1\/payment\/refund, checkout\.amount-operation\) \(docs\/rules\.md#checkout-signatures\): the gateway refused it \(HTTP 400: hash: Hash is not valid\.\)$/,
    advice:
      /"amount": ?"4\.00"[\s\S]*rule: checkout\.amount-operation: sha1\(md5\(upper\(payment_id \+ amount \+ password\)\)\), amount only when sent, exactly as sent[\s\S]*fix: sign the amount the request sends \("4\.00"\): for this request [0-9a-f]{40}/,
  },
  'acknowledges-with-redirect': {
    scenarios: ['merchant-checkout-settled-callback-marks-paid', 'merchant-callback-retry'],
    says: /^\d+\. [^\n]*: the merchant's callback URL answers with a redirect: a redirect is not an acknowledgement: the callback URL itself answers a 2xx, and the kit does not follow it \(docs\/rules\.md#acknowledgement\): it did not acknowledge #0 sale\/settled \(success\): attempt 1: HTTP 302/,
  },
}

const twins = adapterNames(join(merchants, 'python-twins'))

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' })
const pythonVersion = python.status === 0 ? `${python.stdout}${python.stderr}`.trim() : undefined

let scenarios: LoadedScenario[] = []
let offered: Flow[] = []
/** The Python shop's run as the JSON and JUnit reporters wrote it. */
const written = { json: '', junit: '' }
const runs = merchantRuns()
const summaries = runs.summaries

beforeAll(async () => {
  offered = (loadAdapter(join(merchants, 'python.json')).adapter.flows ?? []) as Flow[]
  if (!pythonVersion) return
  const loaded = loadScenarios([join(root, 'scenarios')])
  expect(loaded.errors.map((e) => e.message)).toEqual([])
  scenarios = forMode(loaded.scenarios, 'merchant')
  await runs.runAll(scenarios, [
    {
      name: 'python',
      file: join(merchants, 'python.json'),
      reporters: [
        jsonReporter((text) => (written.json += text)),
        junitReporter((text) => (written.junit += text)),
      ],
    },
    ...twins.map((twin) => ({
      name: twin,
      file: join(merchants, 'python-twins', `${twin}.json`),
      ...(CAUGHT_BY[twin] ? { only: CAUGHT_BY[twin].scenarios } : {}),
    })),
  ])
}, 240_000)

afterAll(() => runs.close())

function summaryOf(name: string): RunSummary {
  const summary = summaries.get(name)
  if (!summary)
    throw new Error(
      pythonVersion
        ? `${name}: the run did not finish`
        : 'python3 is missing: nothing was run (see the first test)',
    )
  return summary
}

/** The first line of a failed step's message, as the reports print it after the step's label. */
const headline = (step: StepResult) => `${step.label}: ${(step.message ?? '').split('\n')[0]}`

describe('the Python reference shop', () => {
  it('runs on this machine: python3 3.11 or later is installed (.ci/run installs it)', () => {
    expect(
      pythonVersion ?? 'no python3',
      `the Python reference shop needs python3, 3.11 or later, on PATH (found: ${pythonVersion ?? 'none'}); Debian: apt-get install python3`,
    ).toMatch(/^Python 3\.(1[1-9]|[2-9]\d)/)
  })

  it('offers Checkout and two-stage in its profile (adapter flows)', () => {
    expect(offered).toEqual(['checkout', 'two-stage'])
  })

  it('passes every merchant scenario whose flows it offers', () => {
    const summary = summaryOf('python')
    const applicable = scenarios.filter((s) => flowsOf(s).every((f) => offered.includes(f)))
    expect(applicable.length).toBeGreaterThanOrEqual(35)
    const problems = summary.results
      .filter((r) => applicable.some((s) => s.slug === r.slug) && r.status !== 'passed')
      .map(
        (r) =>
          `${r.slug}: ${r.status} ${r.reason ?? ''}\n${r.steps
            .filter((s) => s.status !== 'passed')
            .map((s) => `${s.label}: ${s.message}`)
            .join('\n')}`,
      )
    expect(problems).toEqual([])
    expect(summary.passed).toBe(applicable.length)
  })

  it('has every other scenario reported skipped, not applicable, with the flows it needs', () => {
    const summary = summaryOf('python')
    const others = scenarios.filter((s) => !flowsOf(s).every((f) => offered.includes(f)))
    // HPF, S2S CARD, S2S APM, payouts and recurring scenarios exist: the profile has something to skip.
    expect(others.length).toBeGreaterThanOrEqual(15)
    for (const loaded of others) {
      const result = summary.results.find((r) => r.slug === loaded.slug)
      const missing = flowsOf(loaded).filter((f) => !offered.includes(f))
      expect(result, loaded.slug).toMatchObject({ status: 'skipped', notApplicable: true, steps: [] })
      expect(result?.reason).toBe(
        `not applicable: the scenario needs ${missing.join(', ')}, which the merchant's adapter does not offer (flows: checkout, two-stage)`,
      )
    }
    expect(summary.skipped).toBe(others.length)
    expect(summary.failed).toBe(0)
  })

  it('shows them skipped with the reason in the JSON and JUnit reports', () => {
    const json = JSON.parse(written.json) as {
      skipped: number
      scenarios: { slug: string; status: string; notApplicable?: boolean; reason?: string }[]
    }
    const skipped = json.scenarios.filter((s) => s.status === 'skipped')
    expect(skipped.length).toBe(summaryOf('python').skipped)
    expect(json.skipped).toBe(skipped.length)
    for (const s of skipped) {
      expect(s.notApplicable, s.slug).toBe(true)
      expect(s.reason, s.slug).toMatch(
        /^not applicable: the scenario needs .*\(flows: checkout, two-stage\)$/,
      )
    }
    expect(written.junit).toContain(`skipped="${skipped.length}"`)
    expect(written.junit.match(/<skipped message="not applicable: the scenario needs [^"]*"/g)?.length).toBe(
      skipped.length,
    )
  })
})

describe('the Python broken twins', () => {
  it('are at least four, each with the scenarios written to catch it', () => {
    expect(twins.length).toBeGreaterThanOrEqual(4)
    expect(Object.keys(CAUGHT_BY).sort()).toEqual(twins)
  })

  it.each(twins)('%s fails its scenarios, headed by its cause', (twin) => {
    const caught = CAUGHT_BY[twin] as (typeof CAUGHT_BY)[string]
    const results = summaryOf(twin).results
    for (const slug of caught.scenarios) {
      const result = results.find((r) => r.slug === slug)
      expect(result?.status, `${twin} did not fail ${slug}: ${JSON.stringify(result)}`).toBe('failed')
    }
    const [first] = caught.scenarios as [string]
    const failed = results
      .find((r) => r.slug === first)
      ?.steps.find((s) => s.status === 'failed') as StepResult
    expect(headline(failed)).toMatch(caught.says)
    if (caught.advice) expect(failed.message).toMatch(caught.advice)
  })
})
