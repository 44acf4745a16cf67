import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cleanup } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { callbacksOf } from '../../src/core/callbacks/index.js'
import { createSchedule, initialPayment, schedulesGateway } from '../schedules/helpers.js'
import { cardPayment, inProcessClient, supportGateway } from './harness.js'
import { KEY, renderApp } from './render-app.js'

afterEach(() => cleanup())

const CLEAR = '\u0015' // Ctrl+U

describe('callbacks view', () => {
  // docs/rules.md#callback-log: "Every attempt is logged and can be replayed."
  it('lists deliveries, opens one with its attempts and body, and replays it after confirmation', async () => {
    const t = supportGateway()
    await cardPayment(t, { order: 'order-cb' })
    await callbacksOf(t.gateway.ctx).idle()
    const ui = renderApp(inProcessClient(t))
    await ui.press('2')
    const list = await ui.waitForText('acknowledged')
    expect(list).toMatch(/acknowledged\s+sale\s+1\s+200\s+\w{8} order-cb/)
    await ui.press(KEY.enter)
    const detail = await ui.waitForText('Attempts (1)')
    expect(detail).toMatch(/1\. 2026-11-02 10:00:00\s+HTTP 200\s+acknowledged/)
    expect(detail).toContain('POST http://localhost:3000/payment/callback')
    // Issue 25 item 9: the merchant whole on its own row at 80 columns, never broken across two.
    expect(detail).toMatch(/^ {2}merchant +demo-merchant *$/m)
    await ui.press('G')
    expect(await ui.waitForText('order_number')).toMatch(/order_number\s+order-cb/)
    await ui.press('p')
    await ui.waitForText('Confirm: replay callback')
    await ui.press('y')
    // Issue 25 item 9: the notice follows the replay to its result, never "queued (queued)".
    const replayed = await ui.waitFor((f) => /Replay \S+: acknowledged \(HTTP 200\)\./.test(f), 20_000)
    expect(replayed).not.toContain('queued')
    await callbacksOf(t.gateway.ctx).idle()
    expect(t.store.list('deliveries').filter((d) => d.replay_of)).toHaveLength(1)
    expect(t.sent).toHaveLength(2)
  })

  it('shows a callbacks filter in its own words: state: and kind:, not status: and method:', async () => {
    const t = supportGateway()
    await cardPayment(t, { order: 'order-cb' })
    await callbacksOf(t.gateway.ctx).idle()
    const ui = renderApp(inProcessClient(t))
    await ui.press('2')
    await ui.waitForText('acknowledged')
    await ui.press('/')
    await ui.waitForText('Filter')
    await ui.press('state:acknowledged kind:sale', KEY.enter)
    const shown = await ui.waitForText('filter state:acknowledged kind:sale')
    expect(shown).not.toContain('status:acknowledged')
    expect(shown).toMatch(/acknowledged\s+sale/)
  })

  it('copies a callback as curl (OSC 52) and shows the command', async () => {
    const t = supportGateway()
    await cardPayment(t)
    await callbacksOf(t.gateway.ctx).idle()
    const written: string[] = []
    const ui = renderApp(inProcessClient(t), { writeRaw: (s) => written.push(s) })
    await ui.waitForText('order-1')
    await ui.press('2')
    await ui.waitForText('acknowledged')
    await ui.press('y')
    const frame = await ui.waitForText('curl: this callback')
    expect(frame).toContain("curl -s -X POST 'http://localhost:3000/payment/callback'")
    expect(written).toHaveLength(1)
    const copied = Buffer.from(
      /\]52;c;([A-Za-z0-9+/=]+)/.exec(written[0] ?? '')?.[1] ?? '',
      'base64',
    ).toString()
    expect(copied).toMatch(
      /^curl -s -X POST 'http:\/\/localhost:3000\/payment\/callback' -H 'content-type: application\/x-www-form-urlencoded; charset=utf-8' --data-raw 'id=/,
    )
  })
})

describe('schedules view', () => {
  it('shows state and next run, and pauses the selected schedule after confirmation', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { interval_length: '1', interval_unit: 'month' })
    const initial = await initialPayment(t, { schedule_id: id })
    const ui = renderApp(inProcessClient(t))
    await ui.press('3')
    const frame = await ui.waitForText('every 1 month')
    expect(frame).toMatch(new RegExp(`${id.slice(0, 8)}\\s+running\\s+2026-12-02 10:00:00\\s+demo-merchant`))
    expect(frame).toContain(
      `initial ${initial.id.slice(0, 8)} active       0 made  10.00 USD  next 2026-12-02 10:00:00`,
    )
    await ui.press('p')
    await ui.waitForText(`Confirm: pause schedule ${id}?`)
    await ui.press('y')
    await ui.waitForText(`Schedule ${id} is paused.`)
    expect(t.store.get('schedules', id)?.state).toBe('paused')
  })
})

describe('clock view', () => {
  it('advances the sandbox clock by a typed duration, after confirmation', async () => {
    const t = supportGateway()
    const ui = renderApp(inProcessClient(t))
    await ui.press('4')
    await ui.waitForText('virtual: time moves only when advanced')
    await ui.press('t')
    await ui.waitForText('Advance the sandbox clock by')
    await ui.press(CLEAR, '1d2h', KEY.enter)
    await ui.waitForText('Confirm: advance the clock by 1d 2h?')
    await ui.press('y')
    const frame = await ui.waitForText('now 2026-11-03 12:00:00 UTC')
    expect(frame).toContain('Clock advanced by 1d 2h: now 2026-11-03 12:00:00.')
    await ui.press('t')
    await ui.waitForText('Advance the sandbox clock by')
    await ui.press(CLEAR, 'soon', KEY.enter)
    await ui.waitForText('"soon" is not a duration')
    expect(t.clock.now()).toBe(Date.UTC(2026, 10, 3, 12))
  })
})

describe('merchants view', () => {
  it('shows MIDs and every Protocol Mapping flag, never the password', async () => {
    const t = supportGateway()
    const ui = renderApp(inProcessClient(t))
    await ui.press('5')
    const frame = await ui.waitForText('demo-merchant')
    expect(frame).toContain('callbacks  http://localhost:3000/payment/callback')
    expect(frame).toContain('demo-mid  SMS/DMS  moto off  card-on-file off  zero amount off')
    expect(frame).not.toContain('demo-password')
  })
})

describe('scenario runs view', () => {
  it('says why scenarios cannot run when the console has no runner', async () => {
    const t = supportGateway()
    const ui = renderApp(inProcessClient(t))
    await ui.press('6')
    const frame = await ui.waitForText('Scenario runs are not available in this console.')
    expect(frame).toContain('No runner in this test.')
  })
})

describe('export and import from the console', () => {
  it('writes a payment history file, and imports it into another sandbox where it opens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paysandbox-tui-'))
    const file = join(dir, 'ticket.json')
    const source = supportGateway()
    const id = await cardPayment(source, { order: 'order-ticket' })
    const ui = renderApp(inProcessClient(source))
    await ui.waitForText('order-ticket')
    await ui.press(KEY.enter)
    await ui.waitForText(`Payment ${id}`)
    await ui.press('e')
    await ui.waitForText(`> payment-${id}.json_`)
    await ui.press(CLEAR, file, KEY.enter)
    await ui.waitForText('Confirm: write the history')
    await ui.press('y')
    await ui.waitForText(`Wrote ${file}: 1 transactions`)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      format: 'paysandbox.payment-export',
      payment: { id },
    })
    ui.unmount()

    const target = supportGateway()
    const other = renderApp(inProcessClient(target))
    await other.waitForText('No payments yet.')
    await other.press('i')
    await other.waitForText('Import a payment export')
    await other.press(file, KEY.enter)
    const ask = await other.waitForText(`Confirm: import payment ${id}?`)
    expect(ask).toContain('merchant demo-merchant, order order-ticket, status settled')
    await other.press('y')
    await other.waitForText(`Imported payment ${id}.`)
    const opened = await other.waitForText(`Payment ${id}`)
    expect(opened).toContain('order-ticket  25.00 EUR')
    expect(target.store.get('payments', id)?.order_id).toBe('order-ticket')
    rmSync(dir, { recursive: true, force: true })
  })
})
