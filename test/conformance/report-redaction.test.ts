import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toCurl } from '../../src/conformance/curl.js'
import { jsonReporter } from '../../src/conformance/reporters/json.js'
import { junitReporter } from '../../src/conformance/reporters/junit.js'
import { liveReporter } from '../../src/conformance/reporters/live.js'
import { plainReporter } from '../../src/conformance/reporters/plain.js'
import { reportText } from '../../src/conformance/reporters/redact.js'
import { runScenarios } from '../../src/conformance/runner.js'
import { type SandboxHost, startSandboxHost } from '../../src/conformance/sandbox-host.js'
import type { Reporter, RunSummary, ScenarioResult } from '../../src/conformance/types.js'
import { inline, ref } from './helpers.js'

/**
 * Issue 32 point 7, docs/rules.md#request-log ("a card number only masked (first 6, last 4), no
 * security code"): every kit report (plain, live, JSON, JUnit, the curl reproductions, a reporter
 * the runner is handed, such as the console's) masks card numbers, the published test cards too
 * (docs/rules.md#test-cards), and never holds a CVV value.
 */

const CARDS = ['4111111111111111', '4601541833776519', '1111222233334444', '4601541833776527']
const CVVS = ['123', '987']
/** A CVV value next to its key, in any spelling a report could hold it. */
const cvvShown = (text: string, cvv: string) =>
  new RegExp(`cvv2?\\W{0,6}${cvv}(?!\\d)|cvv2?\\\\?"\\s*:\\s*\\\\?"${cvv}`, 'i').test(text)

const personal = {
  payer_first_name: 'John',
  payer_last_name: 'Doe',
  payer_email: 'doe@example.com',
  payer_phone: '5551234567',
  payer_ip: '203.0.113.10',
  term_url_3ds: 'https://shop.example/3ds',
}

/** Two SALEs and a CARD2CARD that send cards and CVVs, each expecting what the gateway does not answer. */
const scenarios = [
  inline('card-sale-fails', {
    steps: [
      {
        step: 'gateway.call',
        api: 's2s-card',
        action: 'SALE',
        body: {
          // The CVV first: a form body's first field has no `&` before it.
          card_cvv2: '123',
          order_id: `red-${ref('run_id')}`,
          order_amount: '10.00',
          order_currency: 'EUR',
          order_description: 'redaction',
          card_number: '4111111111111111',
          card_exp_month: '01',
          card_exp_year: '2030',
          ...personal,
        },
        expect: { fields: { '$.result': 'DECLINED' } },
      },
    ],
  }),
  inline('card2card-fails', {
    steps: [
      {
        step: 'gateway.call',
        api: 's2s-card',
        action: 'CARD2CARD',
        body: {
          order_id: `c2c-${ref('run_id')}`,
          order_amount: '10.00',
          order_currency: 'EUR',
          order_description: 'redaction',
          payer_card_number: '4601541833776527',
          payer_card_exp_month: '01',
          payer_card_exp_year: '2030',
          payer_card_cvv2: '987',
          payee_card_number: '4601541833776519',
          ...personal,
        },
        expect: { fields: { '$.result': 'DECLINED' } },
      },
    ],
  }),
  inline('brand-sale-fails', {
    steps: [
      {
        step: 'gateway.call',
        api: 's2s-card',
        action: 'SALE',
        body: {
          order_id: `brand-${ref('run_id')}`,
          order_amount: '10.00',
          order_currency: 'EUR',
          order_description: 'redaction',
          card_number: '1111222233334444',
          card_exp_month: '01',
          card_exp_year: '2030',
          card_cvv2: '123',
          ...personal,
        },
        expect: { fields: { '$.result': 'SUCCESS', '$.card': '1111222233334444' } },
      },
    ],
  }),
]

/** A terminal ink can draw on: what it writes, kept. */
function terminal(): { stream: NodeJS.WriteStream; text: () => string } {
  let out = ''
  const stream = new Writable({
    write(chunk, _encoding, done) {
      out += String(chunk)
      done()
    },
  }) as unknown as NodeJS.WriteStream
  Object.assign(stream, { columns: 400, rows: 200, isTTY: false })
  return { stream, text: () => out }
}

describe('kit reports hold no card number and no CVV', () => {
  let host: SandboxHost
  const out = { plain: '', json: '', junit: '', own: '' }
  const live = terminal()
  let summary: RunSummary

  beforeAll(async () => {
    host = await startSandboxHost()
    // A reporter the runner is handed (the console's is one): it sees what the others see.
    const own: Reporter = {
      start: (info) => {
        out.own += JSON.stringify(info)
      },
      stepFinished: (_s, step) => {
        out.own += JSON.stringify(step)
      },
      scenarioFinished: (result: ScenarioResult) => {
        out.own += JSON.stringify(result)
      },
      finish: (s) => {
        out.own += JSON.stringify(s)
      },
    }
    summary = await runScenarios({
      scenarios,
      mode: 'gateway',
      host,
      concurrency: 1,
      waitMs: 300,
      target: 'test',
      reporters: [
        plainReporter((t) => (out.plain += t), { verbose: true }),
        jsonReporter((t) => (out.json += t)),
        junitReporter((t) => (out.junit += t)),
        liveReporter(live.stream),
        own,
      ],
    })
  })
  afterAll(async () => {
    await host?.close()
  })

  it('the scenarios failed with a reproduction, so the reports carry the requests', () => {
    expect(summary.failed).toBe(3)
    for (const result of summary.results) expect(result.steps.at(-1)?.curl).toMatch(/^curl /)
  })

  it.each(['plain', 'json', 'junit', 'live', 'own'] as const)('%s: cards masked, no CVV', (name) => {
    const text = name === 'live' ? live.text() : out[name]
    expect(text.length).toBeGreaterThan(200)
    for (const card of CARDS) expect(text).not.toContain(card)
    for (const cvv of CVVS) expect(cvvShown(text, cvv)).toBe(false)
    // The masked forms are there: first 6, last 4.
    expect(text).toContain('411111******1111')
    if (name !== 'live' && name !== 'plain' && name !== 'junit') {
      // The whole results (JSON) hold every step's curl: every card, masked.
      expect(text).toContain('460154******6527')
      expect(text).toContain('460154******6519')
      expect(text).toContain('111122******4444')
    }
    expect(text).toMatch(/card_cvv2=\[removed\]/)
  })

  it('the curl reproduction itself: masked card, CVV key kept without its value, no secret header', () => {
    const curl = toCurl({
      method: 'POST',
      url: 'http://h/post',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-sandbox-control-token': 'secret-t' },
      body: 'card_cvv2=123&card_number=4111111111111111&payer_card_cvv2=987&card[cvv]=555',
    })
    expect(curl).toBe(
      "curl -sS -X POST 'http://h/post' -H 'content-type: application/x-www-form-urlencoded' -H 'x-sandbox-control-token: [removed]' --data-raw 'card_cvv2=[removed]&card_number=411111******1111&payer_card_cvv2=[removed]&card[cvv]=[removed]'",
    )
  })

  it('free text: JSON, escaped JSON, messages; ids and amounts stay', () => {
    expect(reportText('{"card_number":"1111222233334444","card_cvv2":"123","amount":"10.00"}')).toBe(
      '{"card_number":"111122******4444","card_cvv2":"[removed]","amount":"10.00"}',
    )
    expect(reportText('sent {\\"cvv\\":\\"123\\"}')).toBe('sent {\\"cvv\\":\\"[removed]\\"}')
    expect(reportText('expected payer_card_cvv2: 987, card_number:4111111111111111')).toBe(
      'expected payer_card_cvv2: [removed], card_number:411111******1111',
    )
    expect(reportText('trans_id=00000000-0000-4000-8000-000000000000 ts=1234567890123')).toBe(
      'trans_id=00000000-0000-4000-8000-000000000000 ts=1234567890123',
    )
  })
})
