import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cleanup } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { createControlClient } from '../../src/ui/client.js'
import { type EmbeddedSandbox, startEmbedded } from '../../src/ui/in-process.js'
import { loadScenarioSource } from '../../src/ui/load-scenarios.js'
import type { ScenarioSource } from '../../src/ui/scenario-source.js'
import { inProcessClient, supportGateway } from './harness.js'
import { cleanupSized, KEY, renderApp } from './render-app.js'

const started: EmbeddedSandbox[] = []
afterEach(async () => {
  cleanup()
  cleanupSized()
  await Promise.all(started.splice(0).map((s) => s.close()))
})

/**
 * The console's embedded sandbox, as `paysandbox tui` starts it: it listens (the runner reaches
 * it over HTTP and receives its callbacks) while the console calls it in-process.
 */
async function embedded() {
  const sandbox = await startEmbedded({})
  started.push(sandbox)
  return { sandbox, client: createControlClient({ baseUrl: sandbox.baseUrl, fetch: sandbox.fetch }) }
}

// Issue 8.2: "scenario runs (start a scenario or a tag from the console, watch results live)"
describe('scenario runs view', () => {
  it("runs the selected scenario against the console's sandbox and shows its result as it comes", async () => {
    const { sandbox, client } = await embedded()
    const ui = renderApp(client, { scenarios: loadScenarioSource(client, sandbox.merchant) })
    await ui.press('6')
    const list = await ui.waitForText('apm-group-app-confirmation')
    expect(list).toMatch(/\d+ scenarios as .+ \(M to choose\) {2}none run yet/)
    await ui.press(KEY.enter)
    await ui.waitForText('Confirm: run scenario apm-group-app-confirmation')
    await ui.press('y')
    const done = await ui.waitForText('scenario apm-group-app-confirmation: 1 passed, 0 failed.')
    expect(done).toMatch(/> passed\s+apm-group-app-confirmation/)
    expect(done).toContain('1 passed')
    // What the scenario did is in this sandbox, so the other views show it.
    expect((await client.payments()).total).toBeGreaterThan(0)
  }, 60_000)

  it('over --url without credentials, signs as the demo merchant when the sandbox has it', async () => {
    const { client } = await embedded()
    const ui = renderApp(client, { scenarios: loadScenarioSource(client) })
    await ui.press('6')
    await ui.waitForText('apm-group-app-confirmation')
    await ui.press('T')
    await ui.waitForText('Run every scenario with the tag')
    await ui.press('no-such-tag', KEY.enter)
    await ui.waitForText('Confirm: run tag no-such-tag')
    await ui.press('y')
    await ui.waitForText('Failed: no gateway scenario has the tag "no-such-tag"')
  }, 60_000)

  it('says what to give when the sandbox has no demo merchant and no credentials were given', async () => {
    const { client } = await embedded()
    const noDemo = {
      ...client,
      merchants: async () => [
        { key: 'shop-1', notification_url: '', mids: [], protocol_mapping: {}, wallets: [] },
      ],
    }
    const source = loadScenarioSource(noDemo)
    await expect(source.run({ tag: 'status' }, () => {})).rejects.toThrow(
      'Scenario runs sign as a merchant: start the console with --key KEY --password PASSWORD (the sandbox has shop-1).',
    )
  })

  // Issue 33 item 4: "a wrong --key is blamed on the key" (it was blamed on the notification URL).
  it('blames a --key the sandbox does not have on the key, naming the merchants it has', async () => {
    const { client } = await embedded()
    const source = loadScenarioSource(client, {
      merchant_key: 'demo-merchnat',
      password: 'whatever-0123456789',
    })
    const run = source.run({ ids: ['checkout-refund-full'] }, () => {})
    await expect(run).rejects.toThrow(
      `The sandbox at ${client.baseUrl} has no merchant "demo-merchnat" (--key): it has demo-merchant. Start the console with --key of one of them.`,
    )
    await expect(run).rejects.not.toThrow(/notification_url/)
  })
})

// Issue 25, requirement 3: scenario runs from the console pass against the demo merchant as the
// CLI's do (the kit's own callback channel receives the callbacks; the scenarios that need it run
// as a merchant the kit creates for the run, as `paysandbox test --gateway` does), and a failure's
// reason is shown whole, wrapped, at 80 and 160 columns, in the panel the README describes.
describe('scenario runs as the demo merchant', () => {
  it("passes every refund scenario, says before the run which ones run as the kit's merchant and why, and removes it after", async () => {
    const { client } = await embedded()
    const source = loadScenarioSource(client)
    const results: { id: string; status: string; message?: string }[] = []
    const notes: string[][] = []
    let notesBeforeFirstResult = false
    await source.run(
      { tag: 'refund' },
      (r) => {
        if (r.status !== 'running') results.push(r)
        if (!results.length && notes.length) notesBeforeFirstResult = true
      },
      undefined,
      (n) => notes.push(n),
    )
    expect(results.length).toBeGreaterThanOrEqual(4)
    expect(results.filter((r) => r.status !== 'passed')).toEqual([])
    expect(notesBeforeFirstResult).toBe(true)
    expect(notes.flat().join(' ')).toMatch(
      /run as a merchant the kit created for this run, with callbacks to the kit \(demo-merchant's notification_url is http:\/\/localhost:3000\/payment\/callback, not the kit's http:\/\/127\.0\.0\.1:\d+\/callbacks/,
    )
    // The merchants the kit created are gone: the sandbox has the demo merchant alone again.
    expect((await client.merchants()).map((m) => m.key)).toEqual(['demo-merchant'])
  }, 120_000)
})

describe('a failure is shown whole', () => {
  const REASON =
    'step 3. expect.callback: no callback of kind sale arrived within 10 s at http://127.0.0.1:41234/callbacks; the sandbox tried http://localhost:3000/payment/callback 3 times (ECONNREFUSED each time): the merchant demo-merchant sends its callbacks elsewhere [interface 2.4]'
  const failing = (): ScenarioSource => ({
    list: async () => [{ id: 'checkout-refund-full', title: 'A full refund', tags: ['refund'] }],
    run: async (_selection, onUpdate, _merchant, onNotes) => {
      onNotes?.(['1 of 1 scenario(s) run as a merchant the kit created for this run.'])
      onUpdate({ id: 'checkout-refund-full', status: 'running' })
      onUpdate({ id: 'checkout-refund-full', status: 'failed', message: REASON })
    },
  })
  /** The frame's words in order, lines joined (wrapping puts a line break between two words; box sides dropped). */
  const words = (frame: string) =>
    frame
      .split('\n')
      .map((l) => l.replace(/^[\s║│]+|[\s║│]+$/g, ''))
      .join(' ')
      .replace(/\s+/g, ' ')

  it.each([80, 160])(
    'at %i columns: in a panel after the run, and wrapped under the list',
    async (columns) => {
      const client = inProcessClient(supportGateway())
      const ui = renderApp(client, { scenarios: failing(), size: { columns, rows: 24 } })
      await ui.press('6')
      await ui.waitForText('checkout-refund-full')
      await ui.press('M')
      await ui.waitForText('Run scenarios as the merchant')
      await ui.press('demo-merchant', KEY.enter)
      await ui.waitForText('scenarios as demo-merchant')
      await ui.press(KEY.enter)
      // Issue 25 item 9: the confirmation names the merchant and the sandbox whole, wrapped.
      const confirm = await ui.waitForText('Confirm: run scenario checkout-refund-full')
      expect(words(confirm)).toContain(
        'Confirm: run scenario checkout-refund-full as demo-merchant against http://sandbox.test?',
      )
      expect(confirm).not.toContain('…')
      await ui.press('y')
      // The panel opens by itself, with the reason whole.
      const panel = await ui.waitForText('Esc, Enter or q closes')
      expect(panel).toContain('scenario checkout-refund-full: 0 passed, 1 failed.')
      expect(words(panel)).toContain(REASON)
      for (const line of panel.split('\n')) expect(line.length).toBeLessThanOrEqual(columns)
      await ui.press(KEY.escape)
      // Under the list: the note said before the run, and the reason wrapped, every word of it.
      const view = await ui.waitForText('> failed')
      expect(view).toContain('run as a merchant the kit created for this run.')
      expect(words(view)).toContain(REASON)
      // `o` opens it again.
      await ui.press('o')
      expect(words(await ui.waitForText('Esc, Enter or q closes'))).toContain(REASON)
    },
    60_000,
  )
})

describe('a failure names its step once', () => {
  it('"step 3. expect.callback: …", not "step 3 3."', async () => {
    const { failure } = await import('../../src/ui/conformance-source.js')
    const { stepLabel } = await import('../../src/conformance/runner.js')
    const label = stepLabel({ step: 'expect.callback' } as never, 2)
    const message = failure({
      slug: 's',
      file: 'f',
      title: 't',
      section: '2.4',
      tags: [],
      mode: 'gateway',
      status: 'failed',
      steps: [
        {
          index: 2,
          kind: 'expect.callback',
          label,
          status: 'failed',
          message: 'none arrived',
          section: '2.4',
          ms: 1,
        },
      ],
      ms: 1,
    })
    expect(message).toBe('step 3. expect.callback: none arrived [interface 2.4]')
  })
})

describe('when the sandbox does not let the kit create its merchant', () => {
  it('says before the run why and what to configure, and skips those scenarios with the reason', async () => {
    const { conformanceSource } = await import('../../src/ui/conformance-source.js')
    const dir = mkdtempSync(join(tmpdir(), 'tui-token-'))
    const file = join(dir, 'config.json')
    const demo = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../fixtures/config/demo.json'), 'utf8'),
    )
    writeFileSync(file, JSON.stringify({ ...demo, control_token: 'a-control-token-0123456789' }))
    const sandbox = await startEmbedded({ configFile: file })
    started.push(sandbox)
    rmSync(dir, { recursive: true, force: true })
    const source = conformanceSource(
      sandbox.baseUrl,
      async () => ({ merchant_key: 'demo-merchant', password: 'demo-password-0123456789abcdef' }),
      {
        merchant: async () => ({
          key: 'demo-merchant',
          notification_url: 'http://localhost:3000/payment/callback',
          mids: [{ moto: false, zero_amount: false }],
        }),
      },
    )
    const notes: string[] = []
    const results: { id: string; status: string; message?: string }[] = []
    await source.run(
      { ids: ['checkout-refund-full'] },
      (r) => {
        if (r.status !== 'running') results.push(r)
      },
      undefined,
      (n) => notes.push(...n),
    )
    expect(notes.join(' ')).toMatch(
      /^1 of 1 scenario\(s\) will be skipped: demo-merchant's notification_url is http:\/\/localhost:3000\/payment\/callback, not the kit's http:\/\/127\.0\.0\.1:\d+\/callbacks, so its callbacks never reach the console, and the sandbox did not let the kit create a merchant of its own \(POST .* answered HTTP 401 \(give its control token: --control-token\).*\)\. To run them, start the console with the sandbox's control token \(--control-token\)/,
    )
    expect(results).toHaveLength(1)
    expect(results[0]).toMatchObject({ id: 'checkout-refund-full', status: 'skipped' })
    expect(results[0]?.message).toContain('did not let the kit create a merchant of its own')
  }, 60_000)
})
