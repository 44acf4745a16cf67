import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runRepro } from '../../cli/commands/repro.js'
import { UsageError } from '../../cli/exit-codes.js'
import { jsonReporter } from '../../src/conformance/reporters/json.js'
import { findFailure, reproCommands } from '../../src/conformance/reproduction.js'
import { runScenarios } from '../../src/conformance/runner.js'
import { luhnValid } from '../../src/core/payments/card.js'
import { SCENARIO_START_MS, startSandboxHost } from '../../src/conformance/sandbox-host.js'
import type { ScenarioResult } from '../../src/conformance/types.js'
import { inline, ref, s2sSale, start } from './helpers.js'
import { scratchDir } from '../helpers/scratch.js'

/**
 * Issue 33 item 3: "a failure's reproduction can be run after the run ended". The JSON report keeps
 * the kit's sandbox of a failed scenario as the failing step began (configuration, the requests
 * it had received, clock, armed faults); `paysandbox repro REPORT SCENARIO` starts it again on a
 * port of its own, after the kit's server has closed, and the failing request gets the same answer.
 */

const status = (expected: string) => ({
  step: 'gateway.call',
  api: 's2s-card',
  action: 'GET_TRANS_STATUS',
  body: { trans_id: ref('trans_id') },
  expect: { fields: { '$.status': expected } },
})

interface ReportDoc {
  scenarios: ScenarioResult[]
  failed_scenarios: { id: string; name: string }[]
}

/** Runs the scenarios on the kit's own sandbox, closes it, and writes the JSON report to a file. */
async function reportOf(scenarios: ReturnType<typeof inline>[]): Promise<{ file: string; doc: ReportDoc }> {
  const host = await startSandboxHost()
  let text = ''
  try {
    await runScenarios({
      scenarios,
      mode: 'gateway',
      host,
      concurrency: 2,
      waitMs: 300,
      reporters: [jsonReporter((t) => (text += t))],
      target: 'test',
    })
  } finally {
    await host.close()
  }
  const file = join(scratchDir('paysandbox-repro-'), 'report.json')
  writeFileSync(file, text)
  return { file, doc: JSON.parse(text) }
}

const stateful = inline('sale-then-status', {
  steps: [s2sSale, { step: 'clock.advance', seconds: 3600 }, status('DECLINED')],
})
const faulted = inline('status-faulted', {
  steps: [
    s2sSale,
    { step: 'gateway.fault', mode: 'error', status: 503, match: { action: 'GET_TRANS_STATUS' } },
    status('SETTLED'),
  ],
})

describe('paysandbox repro REPORT SCENARIO', () => {
  it('starts the failed scenario sandbox after the run, with its state and clock, and the failing request gets the same answer', async () => {
    const { file, doc } = await reportOf([stateful])
    const result = doc.scenarios[0] as ScenarioResult
    expect(result.status).toBe('failed')
    expect(result.reproduction?.before).toHaveLength(1)
    expect(result.reproduction?.clock_ms).toBe(SCENARIO_START_MS + 3600_000)
    let out = ''
    await runRepro({ report: file, scenario: 'sale-then-status', run: true }, (t) => (out += t))
    expect(out).toContain('paysandbox repro: sale-then-status')
    expect(out).toContain('1 earlier request sent again, 0 faults armed')
    expect(out).toContain(`clock ${new Date(SCENARIO_START_MS + 3600_000).toISOString()} (virtual)`)
    // The curl points at the repro's own sandbox, not the kit's closed port.
    const curl = /reproduce:\n {2}(curl .*)/.exec(out)?.[1] ?? ''
    const kitUrl = /'(http:\/\/127\.0\.0\.1:\d+)\/run\//.exec(result.steps[2]?.curl ?? '')?.[1]
    expect(curl).toMatch(/^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/run\/sale-then-status\//)
    expect(kitUrl).toBeDefined()
    expect(curl).not.toContain(kitUrl)
    // Same seeded ids: the earlier sale exists again, so the status lookup finds it, settled.
    expect(out).toMatch(/answer: HTTP 200\n.*"status":"SETTLED"/)
  })

  it('arms the faults that were armed when the failing step began', async () => {
    const { file } = await reportOf([faulted])
    let out = ''
    await runRepro({ report: file, scenario: 'status-faulted', run: true }, (t) => (out += t))
    expect(out).toContain('1 fault armed: error')
    expect(out).toContain('answer: HTTP 503')
  })

  it('serves until stopped when not told to --run, and names the failed scenarios when the one asked for is not among them', async () => {
    const { file, doc } = await reportOf([stateful, inline('passes', { steps: [s2sSale] })])
    let out = ''
    const served = await runRepro({ report: file, scenario: 'sale-then', run: false }, (t) => (out += t))
    try {
      const base = /sandbox: (\S+)/.exec(out)?.[1]
      expect(out).toContain('serving until Ctrl-C')
      const health = await fetch(`${base}/sandbox/health`)
      expect(health.status).toBe(200)
    } finally {
      await served.close()
    }
    await expect(runRepro({ report: file, scenario: 'passes', run: true })).rejects.toThrow(
      new UsageError('passes did not fail (passed); failed in this report: sale-then-status'),
    )
    await expect(runRepro({ report: file, scenario: 'nothing-like-it', run: true })).rejects.toThrow(
      /no failed scenario "nothing-like-it"; failed in this report: sale-then-status/,
    )
    expect(() => findFailure({ passed: 1 }, 'x')).toThrow(/not a report of `paysandbox test --reporter json`/)
    expect(
      reproCommands({ results: doc.scenarios, passed: 1, failed: 1, skipped: 0, ms: 0 }, 'out/report.json'),
    ).toEqual(['paysandbox repro out/report.json sale-then-status'])
    expect(doc.failed_scenarios).toEqual([{ id: 'sale-then-status', name: 'sale-then-status' }])
  })
})

describe('a reproduction sends a redacted request again (docs/rules.md#test-cards, #request-log)', () => {
  it('puts back the card number its mask names and a security code the test cards accept', async () => {
    const { restoreRedacted } = await import('../../src/conformance/reproduction.js')
    expect(restoreRedacted('card_number=411111******1111&card_cvv2=[removed]&x=1')).toBe(
      'card_number=4111111111111111&card_cvv2=123&x=1',
    )
    expect(restoreRedacted('{"payer_card_number":"460154******6519","payer_card_cvv2":"[removed]"}')).toBe(
      '{"payer_card_number":"4601541833776519","payer_card_cvv2":"123"}',
    )
    // Another card: a Luhn-valid number with the same first 6 and last 4 (its expiry gives the outcome).
    const other = /card_number=(\d+)/.exec(restoreRedacted('card_number=400000******0002'))?.[1] ?? ''
    expect(other).toMatch(/^400000\d{6}0002$/)
    expect(luhnValid(other)).toBe(true)
  })
})

describe('a reproduction replays the payer too (issue 33: the failing request gets the same answer)', () => {
  it('sends the payer actions of the kit again through the in-process door, so a paid checkout payment is paid again', async () => {
    // The payer pays by card in-process (no HTTP request the sandbox saw); the capture the step
    // expects to be refused is accepted, so the scenario fails at the capture.
    const paid = inline('checkout-paid-then-capture', {
      steps: [
        { ...start, fields: { auth: true } },
        { step: 'payer.card', outcome: 'success' },
        {
          step: 'gateway.call',
          api: 'checkout',
          name: 'capture',
          path: '/api/v1/payment/capture',
          body: { payment_id: ref('payment_id') },
          expect: { fields: { '$.result': 'ERROR' } },
        },
      ],
    })
    const { file, doc } = await reportOf([paid])
    const result = doc.scenarios[0] as ScenarioResult
    expect(result.status).toBe('failed')
    const payer = result.reproduction?.before.filter((r) => r.door === 'in-process') ?? []
    expect(payer).toHaveLength(1)
    // The report holds the card masked and no security code (docs/rules.md#request-log).
    expect(payer[0]?.body).not.toMatch(/4111111111111111/)
    let out = ''
    await runRepro({ report: file, scenario: 'checkout-paid-then-capture', run: true }, (t) => (out += t))
    // Without the payer's card the capture would be refused (no authorised payment); with it, accepted.
    expect(out).toMatch(/HTTP 200/)
    expect(out).toContain('1 earlier request and 1 payer action sent again')
    expect(out).toMatch(/answer: HTTP 200\n\{"payment_id":"[^"]+","status":"settled"/)
  })
})
