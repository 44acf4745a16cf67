import { cleanup } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { createControlClient } from '../../src/ui/client.js'
import { type EmbeddedSandbox, startEmbedded } from '../../src/ui/in-process.js'
import { loadScenarioSource } from '../../src/ui/load-scenarios.js'
import { KEY, renderApp } from './render-app.js'

const started: EmbeddedSandbox[] = []
afterEach(async () => {
  cleanup()
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
    const list = await ui.waitForText('apm-group-app-confirmation', 15_000)
    expect(list).toMatch(/\d+ scenarios as .+ \(M to choose\) {2}none run yet/)
    await ui.press(KEY.enter)
    await ui.waitForText('Confirm: run scenario apm-group-app-confirmation')
    await ui.press('y')
    const done = await ui.waitForText('scenario apm-group-app-confirmation: 1 passed, 0 failed.', 30_000)
    expect(done).toMatch(/> passed\s+apm-group-app-confirmation/)
    expect(done).toContain('1 passed')
    // What the scenario did is in this sandbox, so the other views show it.
    expect((await client.payments()).total).toBeGreaterThan(0)
  }, 60_000)

  it('over --url without credentials, signs as the demo merchant when the sandbox has it', async () => {
    const { client } = await embedded()
    const ui = renderApp(client, { scenarios: loadScenarioSource(client) })
    await ui.press('6')
    await ui.waitForText('apm-group-app-confirmation', 15_000)
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
})
