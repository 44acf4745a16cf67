import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import { cardPayment, inProcessClient, s2sSale, supportGateway } from './harness.js'
import { KEY, renderApp } from './render-app.js'

afterEach(() => cleanup())

async function threePayments() {
  const t = supportGateway()
  // A second apart, so "newest first" has one answer.
  const settled = await cardPayment(t, { order: 'order-settled', custom_data: { basket: 42 } })
  await t.clock.advance(1000)
  const threeDs = await cardPayment(t, { order: 'order-3ds', month: '05' })
  await t.clock.advance(1000)
  const s2s = await s2sSale(t)
  return { t, settled, threeDs, s2s }
}

describe('payments list', () => {
  it('lists every payment newest first with status, amount, method, order and merchant in 80 columns', async () => {
    const { t } = await threePayments()
    const ui = renderApp(inProcessClient(t))
    const frame = await ui.waitForText('order-settled')
    expect(frame).toContain('1-3 of 3')
    const rows = frame.split('\n').filter((l) => l.includes('demo-merchant'))
    expect(rows.map((r) => /(\w+)\s+([\d.]+) (\w{3}) (\w+)\s+(\S+)/.exec(r)?.slice(1))).toEqual([
      ['settled', '10.00', 'USD', 'card', 's2s-1'],
      ['3ds', '25.00', 'EUR', 'card', 'order-3ds'],
      ['settled', '25.00', 'EUR', 'card', 'order-settled'],
    ])
    expect(rows[0]).toMatch(/^> /)
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(80)
    expect(frame.split('\n').length).toBeLessThanOrEqual(23)
  })

  // Issue 14: "search and filters run on the server across all payments".
  it('filters by status, order, method and text on the sandbox', async () => {
    const { t } = await threePayments()
    const ui = renderApp(inProcessClient(t))
    await ui.waitForText('order-settled')
    await ui.press('/')
    await ui.waitForText('Filter payments')
    await ui.press('status:3ds', KEY.enter)
    let frame = await ui.waitForText('1-1 of 1')
    expect(frame).toContain('filter status:3ds')
    expect(frame).toContain('order-3ds')
    expect(frame).not.toContain('order-settled')
    await ui.press('x')
    frame = await ui.waitForText('1-3 of 3')
    expect(frame).toContain('filter none')
    await ui.press('/')
    await ui.waitForText('Filter payments')
    await ui.press('method:card settled', KEY.enter)
    frame = await ui.waitForText('1-1 of 1')
    expect(frame).toContain('order-settled')
    await ui.press('/')
    await ui.waitForText('Filter payments')
    expect(ui.frame()).toContain('> method:card settled_') // the prompt starts from the current filter
    await ui.press('\u0015', 'colour:red', KEY.enter) // Ctrl+U clears it first
    frame = await ui.waitForText('Unknown filter "colour"')
    expect(frame).toContain('1-1 of 1')
  })

  it('updates live when the sandbox reports a new payment', async () => {
    const { t } = await threePayments()
    const ui = renderApp(inProcessClient(t))
    await ui.waitForText('1-3 of 3')
    await cardPayment(t, { order: 'order-new' })
    const frame = await ui.waitForText('order-new')
    expect(frame).toContain('1-4 of 4')
  })
})

describe('payment detail', () => {
  it('opens the selected payment: order, masked card, 3DS data, custom_data, timeline, callbacks', async () => {
    const { t, threeDs } = await threePayments()
    await t.call('POST', `/sandbox/payments/${threeDs}/3ds`, { result: 'pass' })
    const ui = renderApp(inProcessClient(t))
    await ui.waitForText('order-3ds')
    await ui.press(KEY.down, KEY.enter)
    const frame = await ui.waitForText(`Payment ${threeDs}`)
    expect(frame).toContain('SETTLED')
    expect(frame).toContain('order-3ds  25.00 EUR  "Tea for two"')
    expect(frame).toContain('411111******1111  visa  05/2030')
    expect(frame).toMatch(/3DS\s+required, pass, challenge/)
    expect(frame).toContain('eci 05')
    expect(frame).toContain('success    https://shop.example/ok')
    await ui.press('G')
    const end = await ui.waitForText('Transactions (2)')
    expect(end).toMatch(/3ds\s+success\s+25\.00/)
    expect(end).toMatch(/sale\s+success\s+25\.00/)
    expect(end).toContain('Callbacks (')
    await ui.press(KEY.escape)
    await ui.waitForText('1-3 of 3')
  })

  it('shows custom_data and the page a waiting payer is on', async () => {
    const t = supportGateway()
    const id = await cardPayment(t, { month: '05', custom_data: { basket: 42 } })
    const ui = renderApp(inProcessClient(t))
    await ui.waitForText('3ds')
    await ui.press(KEY.enter)
    const frame = await ui.waitForText(`Payment ${id}`)
    expect(frame).toContain('custom     {"basket":42}')
    expect(frame).toContain(`payer at   http://sandbox.test/acs/${id}`)
  })
})
