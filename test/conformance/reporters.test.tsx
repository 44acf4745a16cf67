import { render } from 'ink-testing-library'
import { describe, expect, it } from 'vitest'
import { failureMessage } from '../../src/conformance/reporters/format.js'
import { jsonReporter } from '../../src/conformance/reporters/json.js'
import { classname, junitReporter, xml } from '../../src/conformance/reporters/junit.js'
import { LiveRun } from '../../src/conformance/reporters/live.js'
import { plainReporter } from '../../src/conformance/reporters/plain.js'
import type { Reporter, RunSummary, ScenarioResult } from '../../src/conformance/types.js'

const passed: ScenarioResult = {
  slug: 'ok-one',
  file: 'scenarios/ok-one.json',
  title: 'Passes',
  section: 'Events',
  tags: ['a'],
  mode: 'gateway',
  status: 'passed',
  steps: [{ index: 0, kind: 'merchant.start', label: '1. merchant.start', status: 'passed', ms: 3 }],
  ms: 12,
}
const failed: ScenarioResult = {
  ...passed,
  slug: 'bad-one',
  title: 'Fails <badly> & "loudly"',
  status: 'failed',
  steps: [
    {
      index: 1,
      kind: 'gateway.call',
      label: '2. refund',
      status: 'failed',
      message:
        'the answer to POST /api/v1/payment/refund:\n  - expected error 400 / 100000 / "Refund is not allowed", got 200',
      section: 'States and transitions',
      curl: 'curl -sS -X POST \'http://x/api\' --data-raw \'{"a":"<b>"}\'',
      ms: 4,
    },
  ],
}
const skipped: ScenarioResult = {
  ...passed,
  slug: 'skip-one',
  status: 'skipped',
  reason: 'skipped: needs payer control',
  steps: [],
}
const summary: RunSummary = { results: [passed, failed, skipped], passed: 1, failed: 1, skipped: 1, ms: 1234 }

async function drive(reporter: Reporter) {
  reporter.start({ total: 3, target: 'the built-in sandbox', mode: 'gateway' })
  for (const r of summary.results) reporter.scenarioFinished(r)
  await reporter.finish(summary)
}

/** Well-formedness without a parser: every tag closes in order, and no raw `<` or `&` sits in text. */
function wellFormed(text: string): boolean {
  const body = text.replace(/^<\?xml[^>]*\?>\s*/, '')
  const stack: string[] = []
  for (const m of body.matchAll(
    /<(\/?)([A-Za-z][A-Za-z-]*)((?:\s+[a-z]+="[^"<&]*(?:&(?:amp|lt|gt|quot|apos);[^"<&]*)*")*)\s*(\/?)>|<|&(?!(?:amp|lt|gt|quot|apos);)/g,
  )) {
    if (!m[2]) return false
    if (m[1]) {
      if (stack.pop() !== m[2]) return false
    } else if (!m[4]) stack.push(m[2])
  }
  return stack.length === 0
}

// Issue 7: "reporters: live progress in a terminal (ink), plain lines when not a TTY, JSON, and JUnit XML for CI;
// each failure prints a curl command reproducing the request involved".
describe('reporters', () => {
  it('plain: one line per scenario, the failure with its section and curl, a summary', async () => {
    let out = ''
    await drive(plainReporter((t) => (out += t)))
    expect(out).toContain('paysandbox test: 3 scenarios in gateway mode against the built-in sandbox')
    expect(out).toContain('PASS ok-one  Passes (0.01 s)')
    expect(out).toContain('FAIL bad-one')
    expect(out).toContain('step 2. refund:')
    expect(out).toContain('interface: States and transitions')
    expect(out).toContain("reproduce: curl -sS -X POST 'http://x/api'")
    expect(out).toContain('SKIP skip-one')
    expect(out).toContain('skipped: needs payer control')
    expect(out.trim().split('\n').at(-1)).toBe('3 scenarios: 1 passed, 1 failed, 1 skipped in 1.23 s')
    // Issue 16 point 3: what an external gateway lacks is said once, before the run.
    let noted = ''
    const reporter = plainReporter((t) => (noted += t))
    reporter.start({
      total: 1,
      target: 'g',
      mode: 'gateway',
      notes: ['gateway g: merchant m has no MOTO MID'],
    })
    expect(noted.split('\n')[1]).toBe('note: gateway g: merchant m has no MOTO MID')
  })

  it('json: the whole run as one document', async () => {
    let out = ''
    await drive(jsonReporter((t) => (out += t)))
    const doc = JSON.parse(out)
    expect(doc).toMatchObject({ target: 'the built-in sandbox', passed: 1, failed: 1, skipped: 1 })
    expect(doc.scenarios[1].steps[0].curl).toContain('curl')
  })

  it('junit: well-formed XML with a failure and a skipped test case', async () => {
    let out = ''
    await drive(junitReporter((t) => (out += t)))
    expect(wellFormed(out)).toBe(true)
    expect(out).toContain('<testsuites name="paysandbox" tests="3" failures="1" skipped="1" time="1.234">')
    expect(out).toContain('name="bad-one: Fails &lt;badly&gt; &amp; &quot;loudly&quot;"')
    // Issue 16 point 5: class and suite names without dots, which viewers split into packages.
    expect(out).toContain('<testsuite name="paysandbox_gateway_mode"')
    expect(out).toContain('classname="a"')
    expect(out).not.toMatch(/classname="[^"]*\./)
    expect(classname({ tags: ['checkout', 'refund', 'signature'], slug: 'merchant-partial-refund' })).toBe(
      'checkout_refund',
    )
    expect(classname({ tags: ['s2s-card', 'recurring'], slug: 'x' })).toBe('s2s_card_recurring')
    expect(classname({ tags: [], slug: 'errors-zero-amount' })).toBe('errors')
    expect(out).toMatch(
      /<failure message="the answer to POST \/api\/v1\/payment\/refund: \[step 2\. refund\] - expected error/,
    )
    expect(out).toContain('<skipped message="skipped: needs payer control"/>')
    expect(wellFormed('<a><b></a></b>')).toBe(false)
    expect(xml('a\u0001<&')).toBe('a&lt;&amp;')
  })

  it('live: running scenarios and counts while the run goes, failures explained, then the summary', () => {
    const state = {
      total: 3,
      target: 'sandbox',
      mode: 'gateway',
      running: [{ slug: 'skip-one', title: 'x', step: '1. merchant.start' }],
      finished: [passed, failed],
    }
    const { lastFrame, rerender } = render(<LiveRun state={state} />)
    const frame = lastFrame() ?? ''
    expect(frame).toContain('✔ ok-one')
    expect(frame).toContain('✘ bad-one')
    expect(frame).toContain('reproduce: curl')
    expect(frame).toContain('… skip-one  1. merchant.start')
    expect(frame).toContain('2/3 against sandbox · 1 passed · 1 failed · 0 skipped')
    rerender(<LiveRun state={{ ...state, notes: ['gateway g: merchant m has no MOTO MID'] }} />)
    expect(lastFrame()).toContain('note: gateway g: merchant m has no MOTO MID')
    rerender(<LiveRun state={{ ...state, running: [], finished: [passed, failed, skipped], summary }} />)
    expect(lastFrame()).toContain('3 scenarios: 1 passed, 1 failed, 1 skipped in 1.23 s')
  })

  // Issue 33 item 3: "the JUnit message starts with the cause and keeps Expected and Fix whole".
  it('junit: the failure message starts with the cause and keeps Expected and Fix whole, however long the middle', async () => {
    const long: ScenarioResult = {
      ...failed,
      steps: [
        {
          index: 3,
          kind: 'expect.merchant_request',
          label: '4. expect.merchant_request',
          status: 'failed',
          message: [
            'the merchant sent the refund twice: the gateway refused the second one (docs/rules.md#refunds)',
            '',
            'Causes observed, in the order the merchant made them (each reported before what it led to):',
            `1. refused refund of payment 1234`,
            `     request as sent: ${'x'.repeat(700)}`,
            `     the gateway's answer: ${'y'.repeat(400)}`,
            '     fix: ask the payment status before sending a refund again',
            'Expected at this step: one refund of 5.00 EUR',
            'What the merchant did:',
            ...Array.from({ length: 30 }, (_, i) => `  ${i}. POST /api/v1/payment/refund -> 400`),
          ].join('\n'),
          ms: 1,
        },
      ],
    }
    const message = failureMessage(long)
    expect(message.startsWith('the merchant sent the refund twice: the gateway refused the second one')).toBe(
      true,
    )
    expect(message).toContain('[step 4. expect.merchant_request]')
    expect(message).toContain('fix: ask the payment status before sending a refund again')
    expect(message).toContain('Expected at this step: one refund of 5.00 EUR')
    // The request, the answer and the merchant's story are what gives way, marked by an ellipsis.
    expect(message).toContain('…')
    expect(message).not.toContain('x'.repeat(700))
    expect(message.length).toBeLessThanOrEqual(600)
    let out = ''
    const reporter = junitReporter((t) => (out += t))
    reporter.start({ total: 1, target: 't', mode: 'merchant' })
    await reporter.finish({ results: [long], passed: 0, failed: 1, skipped: 0, ms: 1 })
    expect(out).toContain(`<failure message="${xml(message)}"`)
  })

  // Issue 33 item 3: "the summary lists the failed scenarios" (console, JSON and JUnit).
  it('the summary lists the failed scenarios by id and name in the plain, live, JSON and JUnit reports', async () => {
    let plain = ''
    await drive(plainReporter((t) => (plain += t)))
    expect(plain).toContain('failed (1):\n  bad-one  Fails <badly> & "loudly"\n3 scenarios: 1 passed')
    let json = ''
    await drive(jsonReporter((t) => (json += t)))
    expect(JSON.parse(json).failed_scenarios).toEqual([{ id: 'bad-one', name: 'Fails <badly> & "loudly"' }])
    let junit = ''
    await drive(junitReporter((t) => (junit += t)))
    expect(junit).toContain(
      '<system-out>failed (1):\n  bad-one  Fails &lt;badly&gt; &amp; &quot;loudly&quot;</system-out>',
    )
    const state = {
      total: 3,
      target: 'sandbox',
      mode: 'gateway',
      running: [],
      finished: summary.results,
      summary,
    }
    const { lastFrame } = render(<LiveRun state={state} />)
    expect(lastFrame()).toContain('  bad-one  Fails <badly> & "loudly"')
  })
})
