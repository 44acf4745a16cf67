import { cleanup } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { callbacksOf } from '../../src/core/callbacks/index.js'
import { createSchedule, initialPayment, schedulesGateway } from '../schedules/helpers.js'
import { cardPayment, inProcessClient, supportGateway } from './harness.js'
import type { ScenarioSource } from '../../src/ui/scenario-source.js'
import { cleanupSized, KEY, renderApp } from './render-app.js'

afterEach(() => {
  cleanup()
  cleanupSized()
})

/** The frame's rows without the padding ink adds on the right. */
const rows = (frame: string) => frame.split('\n').map((l) => l.trimEnd())

/** A paid card payment with its callback delivered; a long order description and custom_data. */
async function paidWithCallback() {
  const t = supportGateway()
  const id = await cardPayment(t, {
    order: 'order-wide-1',
    custom_data: { note: 'a support note long enough to pass the eighty columns of a small terminal window' },
  })
  await callbacksOf(t.gateway.ctx).idle()
  const tx = t.store.findBy('transactions', 'payment_id', id)[0]
  const delivery = t.store.findBy('deliveries', 'payment_id', id)[0]
  if (!tx || !delivery) throw new Error('no transaction or callback')
  return { t, id, txId: tx.id, delivery }
}

async function openPayment(t: ReturnType<typeof supportGateway>, columns: number) {
  const ui = renderApp(inProcessClient(t), { size: { columns, rows: 40 } })
  await ui.waitForText('order-wide-1')
  await ui.press(KEY.enter)
  return { ui, frame: await ui.waitForText('Callbacks (1)') }
}

// Issue 14 point 4: "views use the extra width at 160 columns".
describe('the console at 160 columns shows what 80 columns cuts', () => {
  it('payment detail: facts in two columns, full transaction id, where the callback went and its answer', async () => {
    const { t, txId, delivery } = await paidWithCallback()
    const narrow = (await openPayment(t, 80)).frame
    const wide = (await openPayment(t, 160)).frame

    // 80 columns: one fact a row, the transaction's short id, the callback's status only.
    expect(narrow).not.toContain(txId)
    expect(narrow).toContain(txId.slice(0, 8))
    expect(narrow).not.toContain(delivery.url)
    expect(narrow).not.toContain(delivery.id)
    expect(rows(narrow).some((r) => /^ {2}order\s/.test(r) && /\bmoney\s/.test(r))).toBe(false)
    for (const r of rows(narrow)) expect(r.length).toBeLessThanOrEqual(80)

    // 160 columns: two facts a row, the full ids, the URL and the merchant's answer.
    expect(wide).toContain(txId)
    const twoColumns = rows(wide)
    expect(twoColumns.some((r) => /^ {2}order\s+order-wide-1 .* {2}money\s+captured 25\.00/.test(r))).toBe(
      true,
    )
    expect(twoColumns.some((r) => /^ {2}merchant\s+demo-merchant .* {2}card\s+411111\*+1111/.test(r))).toBe(
      true,
    )
    const callbackRow = rows(wide).find((r) => r.includes('#1 sale')) ?? ''
    expect(callbackRow).toContain(`to ${delivery.url}`)
    expect(callbackRow).toContain(`id ${delivery.id}`)
    expect(callbackRow).toMatch(/last HTTP 200/)
    for (const r of rows(wide)) expect(r.length).toBeLessThanOrEqual(160)
  })

  it('callback detail: a long body value is whole at 160 columns and goes on over rows at 80, never cut', async () => {
    const { t, delivery } = await paidWithCallback()
    const long = Object.entries(delivery.fields).find(([, v]) => v.length > 60)
    expect(long, 'a callback field longer than 60 characters').toBeDefined()
    const [key, value] = long as [string, string]
    const bodyOf = async (columns: number) => {
      const ui = renderApp(inProcessClient(t), { size: { columns, rows: 60 } })
      await ui.press('2')
      await ui.waitForText('acknowledged')
      await ui.press(KEY.enter)
      return (await ui.waitForText('Body (')).split('\n')
    }
    const narrow = await bodyOf(80)
    const at = narrow.findIndex((r) => r.startsWith(`  ${key} `))
    expect(at).toBeGreaterThan(0)
    // The value's pieces, one under the other, make the whole value; no row ends cut short with "…".
    const pieces: string[] = []
    for (let i = at; i < narrow.length; i++) {
      const match = i === at ? narrow[i]?.match(/^ {2}\S+\s+(.*)$/) : narrow[i]?.match(/^ {3,}(\S.*)$/)
      if (!match || (i > at && pieces.join('').length >= value.length)) break
      pieces.push(match[1] as string)
    }
    expect(pieces.length).toBeGreaterThan(1)
    // (ink drops a space at the end of a row: the pieces are compared without spaces)
    expect(pieces.join('').replace(/\s+/g, '')).toBe(value.replace(/\s+/g, ''))
    expect(narrow.join('\n')).not.toContain('…')
    const wide = await bodyOf(160)
    expect(wide.find((r) => r.startsWith(`  ${key} `))).toMatch(
      new RegExp(`\\s${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`),
    )
  })

  it('schedules: full schedule and payment ids from 120 columns, the first 8 characters at 80', async () => {
    const t = schedulesGateway()
    const id = await createSchedule(t, { interval_length: '1', interval_unit: 'month' })
    const initial = await initialPayment(t, { schedule_id: id })
    const view = async (columns: number) => {
      const ui = renderApp(inProcessClient(t), { size: { columns, rows: 30 } })
      await ui.press('3')
      return ui.waitForText('every 1 month')
    }
    const narrow = await view(80)
    expect(narrow).not.toMatch(new RegExp(`${id}\\s+running`))
    expect(narrow).not.toContain(initial.id)
    expect(narrow).toMatch(new RegExp(`${id.slice(0, 8)}\\s+running`))
    const wide = await view(160)
    expect(wide).toMatch(
      new RegExp(`${id}\\s+running\\s+2026-12-02 10:00:00\\s+demo-merchant\\s+every 1 month`),
    )
    expect(wide).toContain(`initial ${initial.id}`)
  })

  it('scenario runs: whole ids and each title at 160 columns; ids cut at 34 characters at 80', async () => {
    const t = supportGateway()
    const id = 'checkout-hosted-fields-endpoint-must-match-the-session'
    const title = 'The Hosted Payment Fields endpoint must be the one the session was made for'
    const source: ScenarioSource = {
      list: async () => [{ id, title, tags: ['checkout', 'hpf'] }],
      run: async () => {},
    }
    const view = async (columns: number) => {
      const ui = renderApp(inProcessClient(t), { size: { columns, rows: 30 }, scenarios: source })
      await ui.press('6')
      return rows(await ui.waitForText('1 scenarios as'))
    }
    const narrow = await view(80)
    const narrowRow = narrow.find((r) => r.includes('checkout,hpf')) ?? ''
    expect(narrowRow).toContain(`${id.slice(0, 33)}…`)
    expect(narrowRow).not.toContain(id)
    expect(narrowRow).not.toContain(title)
    const wide = await view(160)
    expect(wide.find((r) => r.includes('checkout,hpf'))).toMatch(
      new RegExp(`${id}\\s+checkout,hpf\\s+${title}$`),
    )
  })
})
