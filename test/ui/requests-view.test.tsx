import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { render } from 'ink-testing-library'
import { afterAll, describe, expect, it } from 'vitest'
import { validate } from '../../src/core/validation/index.js'
import { runReplay } from '../../src/replay/index.js'
import { ReplayApp } from '../../src/ui/ReplayApp.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { cardPayment, DEMO, inProcessClient, supportGateway } from './harness.js'
import { KEY, renderApp } from './render-app.js'

/**
 * The console and the request log (docs/rules.md#request-log): a payment's detail lists its
 * order's requests, `l` opens them, Enter shows one whole with its warnings and the rule of its
 * refusal, `s` writes the order as a scenario; `paysandbox replay --console` steps through a replay.
 */

const CLEAR = '\u0015' // Ctrl+U
const dir = mkdtempSync(join(tmpdir(), 'paysandbox-requests-view-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("a payment's requests in the console", () => {
  it('lists the order requests, opens one masked with its refusal, and writes the order as a scenario', async () => {
    const t = supportGateway()
    const id = await cardPayment(t, { order: 'order-seen' })
    // A refund the gateway refuses (a wrong hash): its answer is in the log with the rest.
    await t.call('POST', '/api/v1/payment/refund', {
      merchant_key: DEMO.key,
      payment_id: id,
      amount: '5.00',
      hash: checkoutSignatures.amountOperation(id, '5.00', 'not-the-password'),
    })
    const ui = renderApp(inProcessClient(t))
    await ui.waitForText('order-seen')
    await ui.press(KEY.enter)
    const detail = await ui.waitForText('Requests of the order (3)')
    expect(detail).toContain('POST /api/v1/session/token')
    await ui.press('l')
    const list = await ui.waitForText('Requests of order order-seen (demo-merchant): 3')
    expect(list).toContain('POST /api/v1/processing/purchase/card')
    expect(list).toMatch(/POST \/api\/v1\/payment\/refund\s+HTTP 400/)
    await ui.press(KEY.down, KEY.down, KEY.enter)
    const whole = await ui.waitForText('Sent (card numbers masked')
    expect(whole).toContain('Request req-3')
    expect(whole).toContain('HTTP 400')
    await ui.press(KEY.escape)
    await ui.waitForText('Requests of order order-seen')
    await ui.press(KEY.up, KEY.enter)
    const card = await ui.waitForText('Request req-2')
    expect(card).toContain('411111******1111')
    expect(card).not.toContain('4111111111111111')
    await ui.press(KEY.escape, KEY.escape)
    await ui.waitForText('Requests of the order (3)')

    const file = join(dir, 'seen.json')
    await ui.press('s')
    await ui.waitForText('> order-order-seen.scenario.json_')
    await ui.press(CLEAR, file, KEY.enter)
    await ui.waitForText('Confirm: write order order-seen of demo-merchant as a scenario?')
    await ui.press('y')
    await ui.waitForText(`Wrote ${file}: order order-seen`)
    const scenario = JSON.parse(readFileSync(file, 'utf8'))
    expect(validate('sandbox/scenario', scenario).valid).toBe(true)
    expect(scenario.steps[0]).toMatchObject({
      step: 'merchant.start',
      hosted_fields: true,
      outcome: 'success',
    })
    ui.unmount()
  })
})

describe('paysandbox replay --console', () => {
  it('opens on the first step that differs; n goes to the next difference, Enter shows a step whole', async () => {
    const har = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'replay', 'checkout-s2s.har'), 'utf8'),
    )
    const status = har.log.entries.find((e: { request: { url: string } }) =>
      e.request.url.endsWith('/status'),
    )
    status.response.content.text = status.response.content.text.replace('"settled"', '"decline"')
    const file = join(dir, 'changed.har')
    await import('node:fs').then((fs) => fs.writeFileSync(file, JSON.stringify(har)))
    const { report, sandbox } = await runReplay({
      files: [file],
      config: join(import.meta.dirname, '..', '..', 'fixtures', 'replay', 'shop-config.json'),
    })
    sandbox.stop()
    const app = render(<ReplayApp report={report} colors={false} size={{ columns: 100, rows: 30 }} />)
    const frame = () => app.lastFrame() ?? ''
    const until = (text: string) => expect.poll(frame, { interval: 20 }).toContain(text)
    expect(frame()).toContain(': 1 difference')
    expect(frame()).toContain('Step 10  entry 10')
    expect(frame()).toContain('recorded "decline"; sandbox "settled"')
    app.stdin.write('g')
    await until('Step 1  entry 1')
    app.stdin.write('n')
    await until('Step 10  entry 10')
    app.stdin.write('\r')
    await until('Request as sent')
    app.unmount()
  })
})
