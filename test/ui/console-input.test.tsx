import { describe, expect, it } from 'vitest'
import { curlCommand, curlLines } from '../../src/ui/curl.js'
import { helpRows } from '../../src/ui/HelpOverlay.js'
import { BINDINGS, conflicts, keysOf, textOf } from '../../src/ui/keys.js'
import { payment } from '../callbacks/harness.js'
import { inProcessClient, supportGateway } from './harness.js'
import { KEY, renderApp } from './render-app.js'

/** 150 payments of the demo merchant, `SHOP-0000` the oldest; one refunded card payment among them. */
function seeded() {
  const t = supportGateway()
  for (let i = 0; i < 150; i++) {
    const order = `SHOP-${String(i).padStart(4, '0')}`
    t.store.put(
      'payments',
      payment({
        id: `pay-${String(i).padStart(4, '0')}-c0ffee`,
        order_id: order,
        order: { number: order, amount: '5.00', currency: 'EUR', description: '' },
        method: i === 3 ? 'vcard' : 'card',
        status: i === 3 ? 'refund' : 'settled',
        created_at: Date.UTC(2026, 10, 1) + i * 60_000,
      }),
    )
  }
  return t
}

describe('console keys (issue 14: "key bindings without conflicts (one table, shown by `?`)")', () => {
  it('has no key with two meanings where both are active, and the help shows every binding', () => {
    expect(conflicts().map(([a, b, k]) => `${k}: ${a.scope} ${a.does} / ${b.scope} ${b.does}`)).toEqual([])
    const help = helpRows(80)
      .map(([, text]) => text)
      .join('  ')
    for (const b of BINDINGS) expect(help).toContain(`${b.keys} ${b.does}`)
    // The table's check does catch a clash: the lists' `g` (top) beside a view's `g`.
    expect(conflicts([...BINDINGS, { keys: 'g', scope: 'scenarios', does: 'run a tag' }])).toHaveLength(1)
  })

  // Issue 14: "Keys that arrive together (a pasted value, a held arrow key) are dropped or inserted as garbage."
  it('reads a chunk as text for a field (paste markers dropped) and as repeated keys for a list', () => {
    expect(textOf('\u001b[200~ORDER-77\u001b[201~', {})).toBe('ORDER-77')
    expect(textOf('[200~', { meta: true })).toBe('')
    expect(textOf('a\rb\tc', {})).toBe('abc')
    expect(keysOf('jjj', {})).toEqual(['j', 'j', 'j'])
    expect(keysOf('j', { ctrl: true })).toEqual([])
  })
})

describe('curl of a callback (issue 14: "the curl view copies as one line")', () => {
  it('copies one line, and shows one argument a line, each ending in a shell continuation', () => {
    const body = "id=p-1&order_number=O'1&custom_data%5Bx%5D=a+b"
    const one = curlCommand('http://m.test/cb', 'application/x-www-form-urlencoded; charset=utf-8', body)
    expect(one).not.toContain('\n')
    const lines = curlLines('http://m.test/cb', 'application/x-www-form-urlencoded; charset=utf-8', body)
    expect(lines.slice(0, -1).every((l) => l.endsWith(' \\'))).toBe(true)
    expect(lines.at(-1)?.endsWith('\\')).toBe(false)
    // The fields, as curl joins its --data-raw arguments with `&`, are the body sent.
    const fields = lines.flatMap((l) => [...l.matchAll(/--data-raw '((?:[^']|'\\'')*)'/g)].map((m) => m[1]))
    expect(fields.map((f) => f?.replace(/'\\''/g, "'")).join('&')).toBe(body)
  })
})

describe('console lists search the sandbox (issue 14: "search and filters run on the server")', () => {
  it('finds a payment older than the newest 100 by a pasted order id, pages with ] and moves by held keys', async () => {
    const ui = renderApp(inProcessClient(seeded()))
    await ui.waitForText('1-100 of 150')
    await ui.press('/')
    await ui.waitForText('Filter payments')
    // A paste: one chunk, in bracketed-paste markers.
    await ui.press('\u001b[200~SHOP-0003\u001b[201~', KEY.enter)
    const found = await ui.waitForText('1-1 of 1')
    expect(found).toContain('SHOP-0003')
    expect(found).not.toContain('[200~')
    await ui.press('/')
    await ui.press('\u0015', 'method:vcard status:refund', KEY.enter)
    expect(await ui.waitForText('method:vcard')).toContain('SHOP-0003')
    await ui.press('x')
    await ui.waitForText('1-100 of 150')
    // A held `j`: one chunk of four presses.
    await ui.press('jjjj')
    expect(ui.frame()).toMatch(/> .*SHOP-0145/)
    // Issue 25 item 9: five ↓ in one write (a held arrow key) move five rows, then ↑ ↑ two back.
    await ui.press(KEY.down.repeat(5))
    expect(ui.frame()).toMatch(/> .*SHOP-0140/)
    await ui.press(KEY.up.repeat(2))
    expect(ui.frame()).toMatch(/> .*SHOP-0142/)
    await ui.press(']')
    const second = await ui.waitForText('101-150 of 150')
    expect(second).toContain('SHOP-0049')
    expect(second).toContain('page 2/2')
  }, 30_000)
})
