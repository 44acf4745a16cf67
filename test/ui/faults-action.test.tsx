import { cleanup } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { listFaults } from '../../src/core/faults/index.js'
import { BINDINGS } from '../../src/ui/keys.js'
import { describeFault, parseFault } from '../../src/ui/faults.js'
import { inProcessClient, supportGateway } from './harness.js'
import { KEY, renderApp } from './render-app.js'

afterEach(() => cleanup())

const CLEAR = '\u0015'

/**
 * Gateway faults from the console (docs/conformance.md, Gateway faults): `F` in any view (issue 33:
 * `f` is refund in a payment, so one letter never means both); the clock view lists the rules
 * still to happen, and `X` there forgets them.
 */
describe('console: gateway faults', () => {
  it('F sets a fault by kind; the clock view lists it; X forgets it', async () => {
    const t = supportGateway()
    const ui = renderApp(inProcessClient(t))
    await ui.press('4')
    await ui.waitForText('none: every request is answered')
    await ui.press('F')
    await ui.waitForText('Fail the next gateway request')
    await ui.press(CLEAR, 'lost 503 refund x2', KEY.enter)
    await ui.waitForText('set a gateway fault: the next 2 refund requests will be done')
    await ui.press('y')
    await ui.waitForText('Gateway fault fault-1 set')
    expect(listFaults(t.gateway.ctx).map((f) => [f.mode, f.match, f.remaining, f.status])).toEqual([
      ['lost', { kind: 'refund' }, 2, 503],
    ])
    await ui.waitForText('fault-1 lost: the next 2 refund requests will be done')
    await ui.press('X')
    await ui.waitForText('forget every gateway fault still to happen?')
    await ui.press('y')
    await ui.waitForText('1 gateway fault forgotten.')
    await ui.waitForText('none: every request is answered')
    expect(listFaults(t.gateway.ctx)).toEqual([])
  })

  it('F in the clock view sets a fault by S2S action, and an unknown mode sets nothing', async () => {
    const t = supportGateway()
    const ui = renderApp(inProcessClient(t))
    await ui.press('4')
    await ui.waitForText('virtual: time moves only when advanced')
    await ui.press('F')
    await ui.waitForText('Fail the next gateway request')
    await ui.press(CLEAR, 'late SALE 3s', KEY.enter)
    await ui.press('y')
    await ui.waitForText('Gateway fault fault-1 set')
    expect(listFaults(t.gateway.ctx).map((f) => [f.mode, f.match, f.hold_seconds])).toEqual([
      ['late', { action: 'SALE' }, 3],
    ])
    await ui.press('F')
    await ui.waitForText('Fail the next gateway request')
    await ui.press(CLEAR, 'explode', KEY.enter)
    await ui.waitForText('"explode" is not a fault')
    expect(listFaults(t.gateway.ctx)).toHaveLength(1)
  })

  // Issue 33 item 4: "a fault key; make keys unambiguous and shown in the help line".
  it('the help lists the fault keys, and f means refund only, F a fault only', () => {
    expect(BINDINGS.filter((b) => /fault/.test(b.does)).map((b) => `${b.keys} ${b.scope}`)).toEqual([
      'F everywhere',
      'X clock',
    ])
    const meanings = (key: string) =>
      new Set(BINDINGS.filter((b) => b.keys.split(' ').includes(key)).map((b) => b.does))
    expect([...meanings('f')]).toEqual(['refund'])
    expect([...meanings('F')]).toEqual(['gateway fault'])
  })

  it('F opens the fault prompt from any view, the help line shows it at 80 columns, f in the clock view does nothing', async () => {
    const t = supportGateway()
    const ui = renderApp(inProcessClient(t))
    const payments = await ui.waitForText('No payments yet.')
    expect(payments.split('\n').at(-1)).toContain('x clear  [ ] pages  F fault  ? help  q quit')
    await ui.press('F')
    await ui.waitForText('Fail the next gateway request')
    await ui.press(KEY.escape)
    await ui.press('4')
    const clock = await ui.waitForText('none: every request is answered')
    expect(clock).toContain('F gateway fault  X forget faults')
    await ui.press('f')
    await ui.press('m')
    // `f` opened nothing: the next key, m, is the clock's +1 minute.
    await ui.waitForText('advance the clock by 1m?')
    expect(ui.frame()).not.toContain('Fail the next gateway request')
  })
})

describe('the fault line', () => {
  it.each([
    ['lost SALE', { mode: 'lost', match: { action: 'SALE' } }],
    ['lost 502 capture', { mode: 'lost', status: 502, match: { kind: 'capture' } }],
    ['error 503 lookup x3', { mode: 'error', status: 503, count: 3, match: { kind: 'lookup' } }],
    [
      'late /api/v1/payment/refund 4s',
      { mode: 'late', hold_seconds: 4, match: { path: '/api/v1/payment/refund' } },
    ],
    ['timeout 45s', { mode: 'timeout', seconds: 45 }],
    ['drop', { mode: 'drop' }],
  ])('%s', (text, rule) => {
    expect(parseFault(text)).toEqual({ rule })
  })

  it('names what it does not understand', () => {
    expect(parseFault('slow')).toEqual({ problem: expect.stringContaining('"slow" is not a fault') })
    expect(parseFault('lost soon')).toEqual({
      problem: expect.stringContaining('"soon" is not part of a fault'),
    })
  })

  it('describes a rule', () => {
    expect(describeFault({ mode: 'late', match: { kind: 'lookup' }, hold_seconds: 5 })).toBe(
      'the next lookup request will be done, its answer held until the client gives up (held up to 5 s)',
    )
  })
})
