import { cleanup } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { FULL_ID_FROM, paymentColumns } from '../../src/ui/PaymentRow.js'
import { cardPayment, inProcessClient, supportGateway } from './harness.js'
import { cleanupSized, renderApp } from './render-app.js'

afterEach(() => {
  cleanup()
  cleanupSized()
})

/** The frame's rows without the padding ink adds on the right. */
const rows = (frame: string) => frame.split('\n').map((l) => l.trimEnd())

/**
 * Issue 33 item 4: "columns that fit 80 and 120 columns" (the order column was cut to 8
 * characters at 120 columns by the full payment id). A shop's order number of 15 characters is
 * whole at 80 columns, one of 32 at 120, with the API and the payment's short id beside it.
 */
describe('the payments list at 80 and 120 columns', () => {
  const ORDER_15 = 'ORD-2026-000123'
  const ORDER_32 = 'shop-7-order-2026-11-02-00012345'

  async function listAt(columns: number) {
    const t = supportGateway()
    const first = await cardPayment(t, { order: ORDER_15 })
    const second = await cardPayment(t, { order: ORDER_32 })
    const ui = renderApp(inProcessClient(t), { size: { columns, rows: 24 } })
    return { frame: await ui.waitForText('demo-merchant'), ids: [first, second] }
  }

  it('80 columns: every row fits, the 15-character order number is whole, the merchant beside it', async () => {
    const { frame } = await listAt(80)
    for (const r of rows(frame)) expect(r.length).toBeLessThanOrEqual(80)
    const row = rows(frame).find((r) => r.includes(ORDER_15))
    expect(row).toMatch(new RegExp(`${ORDER_15} +demo-merchant`))
    expect(paymentColumns(80).order).toBe(15)
  })

  it('120 columns: every row fits, a 32-character order number is whole, then the API and the short id', async () => {
    const { frame, ids } = await listAt(120)
    for (const r of rows(frame)) expect(r.length).toBeLessThanOrEqual(120)
    expect(frame).toContain(ORDER_32)
    const row = rows(frame).find((r) => r.includes(ORDER_32)) ?? ''
    const id = ids[1] as string
    expect(row).toMatch(new RegExp(`${ORDER_32} +demo-merchant +checkout +${id.slice(0, 8)}$`))
    expect(row).not.toContain(id)
    expect(paymentColumns(120).order).toBe(32)
  })

  it('from 156 columns the full payment id, the order column no narrower than at 120', async () => {
    const { frame, ids } = await listAt(FULL_ID_FROM)
    for (const r of rows(frame)) expect(r.length).toBeLessThanOrEqual(FULL_ID_FROM)
    expect(frame).toContain(ids[0])
    expect(paymentColumns(FULL_ID_FROM).order).toBeGreaterThanOrEqual(paymentColumns(120).order)
  })
})
