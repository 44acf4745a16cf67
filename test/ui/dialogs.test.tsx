import { cleanup } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import qs from 'qs'
import { saleForm } from '../s2s-apm/helpers.js'
import { cardPayment, inProcessClient, supportGateway } from './harness.js'
import { KEY, renderApp } from './render-app.js'

afterEach(() => cleanup())

describe('help overlay', () => {
  it('lists the keys of every view within 80x24 and closes on any key', async () => {
    const t = supportGateway()
    const ui = renderApp(inProcessClient(t))
    await ui.waitForText('No payments yet.')
    await ui.press('?')
    const frame = await ui.waitForText('Keys (any key closes this help)')
    for (const words of [
      '/ filter',
      'a approve APM',
      'c capture  f refund  v void',
      'p replay',
      'p pause  s run',
      't advance',
    ])
      expect(frame).toContain(words)
    expect(frame.split('\n').length).toBeLessThanOrEqual(23)
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(80)
    await ui.press('z')
    await ui.waitForText('No payments yet.')
  })
})

describe('confirm dialog', () => {
  it('asks before a payer action; n cancels and the payment is unchanged', async () => {
    const t = supportGateway()
    const id = await cardPayment(t, { month: '05' })
    const ui = renderApp(inProcessClient(t))
    await ui.waitForText('3ds')
    await ui.press(KEY.enter)
    await ui.waitForText(`Payment ${id}`)
    await ui.press('a')
    const frame = await ui.waitForText('Confirm: pass 3DS for the payer?')
    expect(frame).toContain('[y] yes, do it   [n] no, cancel')
    expect(t.store.get('payments', id)?.status).toBe('3ds')
    await ui.press('n')
    await ui.waitForText('Cancelled: pass 3DS for the payer?')
    expect(t.store.get('payments', id)?.status).toBe('3ds')
  })

  it('acts on y: the 3DS passes, the notice says so and the detail shows the new status', async () => {
    const t = supportGateway()
    const id = await cardPayment(t, { month: '05' })
    const ui = renderApp(inProcessClient(t))
    await ui.waitForText('3ds')
    await ui.press(KEY.enter)
    await ui.waitForText(`Payment ${id}`)
    await ui.press('a')
    await ui.waitForText('Confirm:')
    await ui.press('y')
    const frame = await ui.waitForText('Payment is now settled.')
    await ui.waitForText('SETTLED')
    expect(frame).not.toContain('Confirm:')
    expect(t.store.get('payments', id)?.status).toBe('settled')
  })

  it("captures as the merchant would: amount prompt, the signed request shown, then the gateway's answer", async () => {
    const t = supportGateway()
    const id = await cardPayment(t, { auth: true })
    const ui = renderApp(inProcessClient(t))
    await ui.waitForText('pending')
    await ui.press(KEY.enter)
    await ui.waitForText(`Payment ${id}`)
    await ui.press('c')
    await ui.waitForText('capture amount in EUR')
    await ui.press('20.00', KEY.enter)
    const frame = await ui.waitForText('Confirm: capture 20.00 EUR as demo-merchant?')
    expect(frame).toContain('POST /api/v1/payment/capture  (application/json)')
    expect(frame).toContain('"amount":"20.00"')
    await ui.press('y')
    await ui.waitForText('capture: HTTP 200, status settled, trans_status SUCCESS')
    expect(t.store.get('payments', id)).toMatchObject({ status: 'settled', amount_captured: '20.00' })
  })

  it("reports the gateway's refusal in its own words", async () => {
    const t = supportGateway()
    const id = await cardPayment(t, { auth: true })
    const ui = renderApp(inProcessClient(t))
    await ui.waitForText('pending')
    await ui.press(KEY.enter)
    await ui.waitForText(`Payment ${id}`)
    await ui.press('v')
    await ui.waitForText('Confirm: void the full amount')
    await ui.press(KEY.enter)
    // Interface, States and transitions: "PENDING | VOID | Not allowed | unchanged | Error `Void is not allowed.`"
    await ui.waitForText('Failed: the gateway refused the void (HTTP 400): Void is not allowed.')
    expect(t.store.get('payments', id)?.status).toBe('pending')
  })

  // docs/rules.md#simulated-connectors (sandbox): the payer "choose[s] the outcome on the simulator page: approve, decline, leave pending, or let it expire"
  it('lets an APM payment waiting on its simulator page expire, as the payer would', async () => {
    const t = supportGateway()
    const sale = await t.call(
      'POST',
      '/post-va',
      qs.stringify(saleForm({ identifier: 'someone@example.com' })),
    )
    const id = sale.body.trans_id as string
    expect(t.store.get('payments', id)?.status).toBe('redirect')
    const ui = renderApp(inProcessClient(t))
    await ui.waitForText('vcard')
    await ui.press(KEY.enter)
    await ui.waitForText(`payer at   http://sandbox.test/apm/${id}`)
    await ui.press('x')
    await ui.waitForText('Confirm: let the APM payment expire?')
    await ui.press('y')
    await ui.waitForText('Payment is now decline (Payment expired).')
    expect(t.store.get('payments', id)).toMatchObject({
      status: 'decline',
      decline_reason: 'Payment expired',
    })
  })
})
