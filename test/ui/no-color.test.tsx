import { cleanup } from 'ink-testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { colorsWanted } from '../../src/ui/theme.js'
import { cardPayment, inProcessClient, supportGateway } from './harness.js'
import { renderApp } from './render-app.js'

// Before ink (and its colour library) load: this test compares the console with and without colours.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1'
})

afterEach(() => cleanup())

/** An SGR foreground colour (30-38, 90-97): what NO_COLOR must leave out. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[(3[0-8]|9[0-7])(;[0-9;]*)?m`)

describe('colours', () => {
  it('follows NO_COLOR, FORCE_COLOR=0 and TERM=dumb', () => {
    expect(colorsWanted({})).toBe(true)
    expect(colorsWanted({ NO_COLOR: '1' })).toBe(false)
    expect(colorsWanted({ NO_COLOR: '' })).toBe(true)
    expect(colorsWanted({ FORCE_COLOR: '0' })).toBe(false)
    expect(colorsWanted({ TERM: 'dumb' })).toBe(false)
  })

  it('colours statuses by meaning when on, and reads the same without any colour', async () => {
    const t = supportGateway()
    await cardPayment(t, { order: 'order-ok' })
    await cardPayment(t, { order: 'order-no', month: '02' })
    const coloured = renderApp(inProcessClient(t), { colors: true })
    const withColour = await coloured.waitForText('order-no')
    expect(withColour).toContain('\x1b[32msettled') // green
    expect(withColour).toContain('\x1b[31mdecline') // red
    coloured.unmount()
    const plain = renderApp(inProcessClient(t), { colors: false })
    const without = await plain.waitForText('order-no')
    expect(without).not.toMatch(COLOUR)
    expect(without).toMatch(/settled\s+25\.00 EUR card\s+order-ok/)
    expect(without).toMatch(/decline\s+25\.00 EUR card\s+order-no/)
    expect(without).toContain('> ') // the selection is marked by a sign, not only by colour
    expect(without).toContain('[1 Payments]') // so is the open view
  })
})
