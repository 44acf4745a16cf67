/**
 * Issue 25, requirement 1: the README shows, right after the two commands, a complete merchant
 * configuration with the merchant's own `notification_url` and how to start the sandbox with it.
 * This test takes that JSON block from the README as a reader pastes it, starts the built binary
 * with it (`serve --config`) and receives a signed callback at the block's `notification_url`:
 * the one substitution a reader makes too is the address of their backend, here a server of this
 * test on a free port in place of `localhost:3000`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { s2sCardSignatures } from '../../src/core/signatures/index.js'
import { verifyCallback } from '../../src/library/signatures.js'

const ROOT = join(import.meta.dirname, '..', '..')
const BIN = join(ROOT, 'bin', 'paysandbox.js')
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')

interface MerchantConfig {
  base_url?: string
  merchants: { key: string; password: string; notification_url: string; mids: unknown[] }[]
}

/** The README's merchant section: its heading comes right after the two commands' paragraph. */
function section(): string {
  const start = README.indexOf('\n## Your own merchant')
  expect(start, 'the README has a "## Your own merchant" section').toBeGreaterThan(0)
  const end = README.indexOf('\n## ', start + 1)
  return README.slice(start, end)
}

const cleanups: (() => unknown)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

describe('README: your own merchant, with callbacks to your backend', () => {
  it('comes right after the two commands, before anything else', () => {
    const headings = [...README.matchAll(/^## .*$/gm)].map((m) => m[0])
    expect(headings[0]).toMatch(/^## Your own merchant/)
    const commands = README.indexOf('npm install && npm test')
    expect(commands).toBeGreaterThan(0)
    expect(README.indexOf('\n## Your own merchant')).toBeGreaterThan(commands)
  })

  it('shows examples/merchant.json as it is, and says how to start the sandbox with it', () => {
    const text = section()
    const block = /```json\n([\s\S]*?)```/.exec(text)?.[1]
    expect(block).toBeDefined()
    expect(JSON.parse(block as string)).toEqual(
      JSON.parse(readFileSync(join(ROOT, 'examples', 'merchant.json'), 'utf8')),
    )
    expect(text).toContain('npx paysandbox serve --config merchant.json')
    expect(text).toContain('npm start -- --config merchant.json')
  })

  it('serves that merchant and posts its signed callback to its own notification_url', async () => {
    const config = JSON.parse(/```json\n([\s\S]*?)```/.exec(section())?.[1] as string) as MerchantConfig
    const merchant = config.merchants[0] as MerchantConfig['merchants'][number]
    expect(merchant.notification_url).toMatch(/^http:\/\/localhost:3000\//)

    // The reader's backend: answers OK and keeps what it was sent.
    const received: { path: string; body: string }[] = []
    const backend: Server = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => {
        body += c
      })
      req.on('end', () => {
        received.push({ path: req.url ?? '', body })
        res.writeHead(200).end('OK')
      })
    })
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise<void>((resolve) => backend.close(() => resolve())))
    const backendPort = (backend.address() as AddressInfo).port
    const own = merchant.notification_url.replace('localhost:3000', `127.0.0.1:${backendPort}`)

    const dir = mkdtempSync(join(tmpdir(), 'readme-merchant-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'merchant.json')
    writeFileSync(
      file,
      JSON.stringify({ ...config, merchants: [{ ...merchant, notification_url: own }] }, null, 2),
    )

    const server: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--config', file, '--port', '0'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    cleanups.push(() => server.kill('SIGTERM'))
    let banner = ''
    const port = await new Promise<string>((resolve, reject) => {
      server.stdout?.on('data', (c) => {
        banner += c
        const found = /listening on http:\/\/localhost:(\d+)/.exec(banner)?.[1]
        if (found && banner.includes('Ready.')) resolve(found)
      })
      server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${banner}`)))
    })
    // The banner names the merchant and where its callbacks go.
    expect(banner).toContain(merchant.key)
    expect(banner).toContain(own)

    // An S2S CARD SALE signed with the configured password (docs/signatures.md).
    const sale = JSON.parse(readFileSync(join(ROOT, 'examples', 'sale.json'), 'utf8')) as Record<
      string,
      string
    >
    const form = {
      ...sale,
      client_key: merchant.key,
      order_id: 'readme-merchant-1',
      hash: s2sCardSignatures.payment(sale.payer_email as string, merchant.password, {
        cardNumber: sale.card_number as string,
      }),
    }
    const answer = await fetch(`http://127.0.0.1:${port}/post`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    })
    const paid = (await answer.json()) as Record<string, string>
    expect(paid).toMatchObject({ action: 'SALE', result: 'SUCCESS', status: 'SETTLED' })

    // The callback arrives at the merchant's own address (polling with a generous bound).
    await expect.poll(() => received.length, { timeout: 30_000, interval: 50 }).toBeGreaterThan(0)
    const callback = received[0] as { path: string; body: string }
    expect(callback.path).toBe(new URL(own).pathname)
    const fields = Object.fromEntries(new URLSearchParams(callback.body))
    expect(fields).toMatchObject({ action: 'SALE', status: 'SETTLED', order_id: 'readme-merchant-1' })
    expect(
      verifyCallback(fields, merchant.password, 's2s-card', {
        payerEmail: sale.payer_email as string,
        card: { cardNumber: sale.card_number as string },
      }),
    ).toBe(true)
  }, 90_000)
})
