import { cleanup } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { listFaults } from '../../src/core/faults/index.js'
import { inProcessClient, supportGateway } from './harness.js'
import { KEY, renderApp } from './render-app.js'

afterEach(() => cleanup())

const CLEAR = '\u0015'

/** Gateway faults from the console (docs/conformance.md, Gateway faults): key f in the clock view. */
describe('clock view: gateway fault', () => {
  it('sets a fault on the next SALE after confirmation, and refuses an unknown mode', async () => {
    const t = supportGateway()
    const ui = renderApp(inProcessClient(t))
    await ui.press('4')
    await ui.waitForText('virtual: time moves only when advanced')
    await ui.press('f')
    await ui.waitForText('Fail the next gateway request')
    await ui.press(CLEAR, 'lost SALE', KEY.enter)
    await ui.waitForText('Confirm: make the next SALE request lose its answer?')
    await ui.press('y')
    await ui.waitForText('the next matching request will lose its answer.')
    expect(listFaults(t.gateway.ctx).map((f) => [f.mode, f.match])).toEqual([['lost', { action: 'SALE' }]])
    await ui.press('f')
    await ui.waitForText('Fail the next gateway request')
    await ui.press(CLEAR, 'explode', KEY.enter)
    await ui.waitForText('"explode" is not a fault')
    expect(listFaults(t.gateway.ctx)).toHaveLength(1)
  })
})
