import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, onTestFailed } from 'vitest'
import { freePort } from '../../src/conformance/merchant.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'

const root = join(import.meta.dirname, '..', '..')
const bin = join(root, 'bin', 'paysandbox.js')
const TMUX = '/usr/bin/tmux'
/** A tmux server of this test's own (its socket in a fresh directory), so no one else's sessions are touched. */
const SOCKET_DIR = mkdtempSync(join(tmpdir(), 'paysandbox-tmux-'))
const SOCKET = join(SOCKET_DIR, 'socket')
const sandboxes: ChildProcess[] = []

const tmux = (...args: string[]) => execFileSync(TMUX, ['-S', SOCKET, ...args], { encoding: 'utf8' })
const pane = () => tmux('capture-pane', '-p', '-t', 'tui')
/** The pause between two looks at the pane: a polling interval, never a deadline. */
const tick = () => new Promise((r) => setTimeout(r, 100))
/** The pane as last seen, shown when the test fails (its bound is the test's timeout). */
let lastPane = ''

afterAll(() => {
  for (const child of sandboxes) if (child.exitCode === null) child.kill('SIGKILL')
  try {
    tmux('kill-server')
  } catch {
    // already gone
  }
  rmSync(SOCKET_DIR, { recursive: true, force: true })
})

async function startSandbox(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', String(port)], { cwd: root })
  sandboxes.push(child)
  let out = ''
  child.stdout?.on('data', (c) => {
    out += c
  })
  let err = ''
  child.stderr?.on('data', (c) => {
    err += c
  })
  // Ready when it says so; a sandbox that exits first fails with what it printed. No deadline:
  // on a loaded machine start-up takes what it takes (the test's timeout is the only bound).
  await new Promise<void>((resolve, reject) => {
    const ready = () => {
      if (out.includes('Ready.')) resolve()
    }
    child.stdout?.on('data', ready)
    ready()
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}) before ready:\n${out}${err}`)))
  })
  return child
}

/** Waits until the pane shows `text` (an event the console draws, however long it takes to come). */
async function waitForPane(text: string | RegExp): Promise<string> {
  for (;;) {
    lastPane = pane()
    if (typeof text === 'string' ? lastPane.includes(text) : text.test(lastPane)) return lastPane
    await tick()
  }
}

/** One key, as a person types it: the next is sent once the console drew what this one did. */
async function key(name: string, then: string | RegExp): Promise<string> {
  tmux('send-keys', '-t', 'tui', name)
  return waitForPane(then)
}

/** Whether the tmux session still exists. */
function sessionAlive(): boolean {
  try {
    tmux('has-session', '-t', 'tui')
    return true
  } catch {
    return false
  }
}

async function hpfPayment(base: string, order: string, month: string): Promise<string> {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
    return (await r.json()) as Record<string, string>
  }
  const o = { number: order, amount: '25.00', currency: 'EUR', description: 'Tea for two' }
  const session = await post('/api/v1/session/token', {
    merchant_key: 'demo-merchant',
    operation: 'purchase',
    methods: ['card'],
    order: o,
    custom_data: { ticket: 'SUP-1' },
    success_url: 'https://shop.example/ok',
    // docs/rules.md#hosted-payment-fields: the session-token request requires return_url.
    return_url: 'https://shop.example/return',
    hash: checkoutSignatures.session(o, 'demo-password-0123456789abcdef'),
  })
  const paid = await post(
    '/api/v1/processing/purchase/card',
    { card_number: '4111111111111111', card_exp_month: month, card_exp_year: '2030', card_cvv2: '123' },
    { Token: session.token as string },
  )
  return paid.payment_id as string
}

/**
 * A GET after the test waited on the pane: the connection fetch keeps alive may have been closed
 * by the server meanwhile (on a loaded machine the client's own expiry of it runs late), and the
 * request then fails with "other side closed" before any answer. Sent again once on a new
 * connection, as browsers do for an idempotent request; anything else fails as it is.
 */
async function getJson(url: string): Promise<unknown> {
  try {
    return await (await fetch(url)).json()
  } catch (error) {
    if ((error as { cause?: { code?: string } })?.cause?.code !== 'UND_ERR_SOCKET') throw error
    return (await fetch(url)).json()
  }
}

// Issue 8.5: "an end-to-end test that drives the real CLI inside tmux (send-keys, capture-pane) against a running sandbox"
describe('paysandbox tui in an 80x24 tmux pane against a running sandbox', () => {
  it('finds a payment, opens it, survives the sandbox going away and reconnects', async () => {
    onTestFailed(() => {
      if (lastPane) process.stderr.write(`the pane as last seen:\n${lastPane}\n`)
    })
    expect(existsSync(TMUX), `tmux is needed at ${TMUX}`).toBe(true)
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    let sandbox = await startSandbox(port)
    await hpfPayment(base, 'order-e2e-1', '01')
    const id = await hpfPayment(base, 'order-e2e-2', '05')

    tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'tui',
      '-x',
      '80',
      '-y',
      '24',
      `${process.execPath} ${bin} tui --url ${base}`,
    )
    const list = await waitForPane(/order-e2e-2.*\n(.*\n)*.*order-e2e-1/)
    expect(list).toContain('[1 Payments]')
    await waitForPane('[live]')

    await key('/', 'Filter payments')
    tmux('send-keys', '-t', 'tui', '-l', 'order:order-e2e-2')
    await waitForPane('order:order-e2e-2')
    await key('Enter', '1-1 of 1')
    const detail = await key('Enter', `Payment ${id}`)
    expect(detail).toContain('3DS')
    expect(detail).toContain('order-e2e-2  25.00 EUR  "Tea for two"')
    expect(detail).toContain('411111******1111  visa  05/2030')
    expect(detail).toContain('custom     {"ticket":"SUP-1"}')
    expect(detail).toContain(`payer at   ${base}/acs/${id}`)
    for (const line of detail.split('\n')) expect(line.length).toBeLessThanOrEqual(80)

    await key('a', 'Confirm: pass 3DS for the payer?')
    await key('y', 'Payment is now settled.')
    const settled = (await getJson(`${base}/sandbox/payments/${id}`)) as {
      payment: { status: string }
    }
    expect(settled.payment.status).toBe('settled')

    sandbox.kill('SIGKILL')
    const lost = await waitForPane('!! DISCONNECTED')
    expect(lost).toContain('[OFFLINE]')
    expect(lost).toContain(`Payment ${id}`) // the last data seen stays on screen

    sandbox = await startSandbox(port)
    const back = await waitForPane(`Reconnected to ${base}.`)
    expect(back).toContain('[live]')
    expect(back).not.toContain('DISCONNECTED')

    tmux('send-keys', '-t', 'tui', 'q')
    // The session ends with the console: wait for it to go (the test's timeout is the bound).
    while (sessionAlive()) await tick()
    expect(() => pane()).toThrow()
    // A bound for a loaded machine (two sandbox start-ups, a console), not an expected duration.
  }, 300_000)
})
