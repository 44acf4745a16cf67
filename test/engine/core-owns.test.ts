import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SESSION_TABLE, STORED_SESSION_STATES } from '../../src/core/sessions/session-lifecycle.js'

/**
 * Issue 21 point 6: rules the engine owns once. Read from the sources, so a second copy fails here
 * the day it is written.
 */
const root = join(import.meta.dirname, '..', '..')

function sources(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = []
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...sources(path))
    else if (/\.tsx?$/.test(entry.name)) out.push({ path, text: readFileSync(join(root, path), 'utf8') })
  }
  return out
}

const src = sources('src').filter((f) => !f.path.includes(`${join('src', 'generated')}`))
const rel = (p: string) => relative('src', p).split('\\').join('/')

describe('the engine owns its rules once', () => {
  it('one constructor builds new payment records (payments/new-payment.ts)', () => {
    // A payment literal is the one place that starts the ledger at zero.
    const builders = src.filter((f) =>
      /amount_(captured|refunded):\s*(zero|zeroAmount|fromMinor|'0)/.test(f.text),
    )
    expect(builders.map((f) => rel(f.path))).toEqual(['core/payments/new-payment.ts'])
    const users = src.filter((f) => /\bnewPayment(<[^>]+>)?\(ctx/.test(f.text)).map((f) => rel(f.path))
    // Checkout card and APM payments, card credit, Checkout and S2S recurring, S2S CARD and S2S APM.
    expect(users.length).toBeGreaterThanOrEqual(7)
  })

  it('session status is written only through the session table (sessions/session-lifecycle.ts)', () => {
    const writers = src.filter(
      (f) =>
        /put\(\s*'sessions',\s*\{[^}]*\bstatus\s*:/.test(f.text) ||
        /:\s*Session\s*=\s*\{[^}]*\bstatus\s*:/.test(f.text),
    )
    expect(writers.map((f) => rel(f.path))).toEqual(['core/sessions/session-lifecycle.ts'])
    // Every stored state is a state the table moves a session to.
    const reachable = new Set(SESSION_TABLE.map((row) => row.to))
    for (const state of STORED_SESSION_STATES) expect(reachable.has(state), state).toBe(true)
  })

  it('the hosted pages route no MID: routing is the engine’s', () => {
    const pages = src.filter((f) => f.path.startsWith(join('src', 'pages')))
    expect(pages.length).toBeGreaterThan(10)
    const routing = pages.filter((f) =>
      /\b(routeSession|selectMid|saleMid|payoutMid)\b|session-rules\.js|payments\/routing\.js/.test(f.text),
    )
    expect(routing.map((f) => rel(f.path))).toEqual([])
  })

  it('wallet approval is one engine operation: no page completes it on its own', () => {
    const callers = src.filter((f) => /completeWalletApproval\(/.test(f.text)).map((f) => rel(f.path))
    expect(callers.sort()).toEqual(['core/apm/outcomes.ts', 'core/payments/wallets.ts'])
  })
})
