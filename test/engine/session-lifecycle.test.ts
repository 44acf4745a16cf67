import { describe, expect, it } from 'vitest'
import {
  SESSION_TABLE,
  type SessionStatus,
  sessionRow,
  sessionStatus,
} from '../../src/core/sessions/session-lifecycle.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { MINUTE } from '../../src/core/ports/clock.js'
import { CARD, hpfSession, pay, sessionBody } from '../checkout/session-helpers.js'
import { createTestGateway, type TestGateway } from '../helpers/engine.js'

/** The session state table (src/core/sessions/session-lifecycle.ts, docs/architecture.md). */

const pageTokenOf = (redirectUrl: unknown) => /\/auth\/([^/?#]+)/.exec(String(redirectUrl))?.[1] as string
const statusOf = (t: TestGateway, field: 'token' | 'page_token', token: string): SessionStatus => {
  const session = t.store.findBy('sessions', field, token)[0]
  if (!session) throw new Error('no session')
  return sessionStatus(t.gateway.ctx, session)
}

describe('the session table', () => {
  it('has one row per (state, trigger, actor), each naming its source', () => {
    const keys = SESSION_TABLE.map((r) => `${r.from}/${r.trigger}/${r.actor}`)
    expect(new Set(keys).size).toBe(keys.length)
    for (const row of SESSION_TABLE) expect(row.source).toMatch(/interface|docs\/rules\.md|sandbox/)
  })

  it('lets only the payer pay or cancel, only the merchant update, only the clock expire', () => {
    expect(sessionRow('open', 'pay', 'payer')?.to).toBe('paying')
    expect(sessionRow('open', 'pay', 'merchant')).toBeUndefined()
    expect(sessionRow('open', 'cancel', 'payer')?.to).toBe('cancelled')
    expect(sessionRow('open', 'cancel', 'merchant')).toBeUndefined()
    expect(sessionRow('open', 'update', 'merchant')?.to).toBe('open')
    expect(sessionRow('open', 'update', 'payer')).toBeUndefined()
    expect(sessionRow('open', 'expire', 'clock')?.to).toBe('expired')
    for (const final of ['paid', 'cancelled', 'expired'] as const)
      expect(SESSION_TABLE.filter((r) => r.from === final)).toEqual([])
  })
})

describe('sessions move as the table says (docs/rules.md#sessions)', () => {
  it('open → paying (3DS) → paid, and the merchant may no longer update it', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const token = await hpfSession(t)
    expect(statusOf(t, 'token', token)).toBe('open')
    const r = await pay(t, token, { card_exp_month: '05' })
    expect(r.body.status).toBe('3ds')
    expect(statusOf(t, 'token', token)).toBe('paying')
    await t.call('POST', `/sandbox/payments/${r.body.payment_id}/3ds`, { result: 'pass' })
    expect(statusOf(t, 'token', token)).toBe('paid')
    const update = await t.call('PUT', '/api/v1/session/update', { order_amount: '1.00' }, { Token: token })
    expect(update.status).toBe(400)
    expect(JSON.stringify(update.body)).toContain('Session can not be updated.')
  })

  it('a decline returns the session to open for the payer, but not for the merchant', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const token = await hpfSession(t)
    expect((await pay(t, token, { card_exp_month: '02' })).body.status).toBe('decline')
    expect(statusOf(t, 'token', token)).toBe('open')
    const update = await t.call('PUT', '/api/v1/session/update', { order_amount: '1.00' }, { Token: token })
    expect(JSON.stringify(update.body)).toContain('Session can not be updated.')
    expect((await pay(t, token, CARD)).body.status).toBe('settled')
  })

  it('the clock expires an open session; the payer can no longer pay it', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const token = await hpfSession(t, { session_expiry: 5 })
    await t.clock.advance(5 * MINUTE)
    expect(statusOf(t, 'token', token)).toBe('expired')
    const r = await pay(t, token)
    expect(r.body).toMatchObject({ error_message: 'Session has expired.' })
    expect(t.store.count('payments')).toBe(0)
  })

  it('a cancelled session is final: neither the payer nor the kit can pay it', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const created = await t.call('POST', '/api/v1/session', sessionBody())
    const page = pageTokenOf(created.body.redirect_url)
    await t.call('POST', `/auth/${page}/cancel`, '')
    expect(statusOf(t, 'page_token', page)).toBe('cancelled')
    const viaControl = await t.call('POST', `/sandbox/sessions/${page}/card`, CARD)
    expect(viaControl.status).toBe(400)
    expect(JSON.stringify(viaControl.body)).toContain('Session is cancelled.')
    expect(t.store.count('payments')).toBe(0)
  })

  it('page and API tokens are distinct values; the page token names no API session', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const created = await t.call('POST', '/api/v1/session', sessionBody())
    const page = pageTokenOf(created.body.redirect_url)
    const session = t.store.findBy('sessions', 'page_token', page)[0]
    expect(session?.token).toBeDefined()
    expect(session?.token).not.toBe(page)
    // Not even that session's own (never issued) API token works: it was not made by /session/token.
    const r = await t.call(
      'PUT',
      '/api/v1/session/update',
      { order_amount: '1.00' },
      { Token: session?.token ?? '' },
    )
    // docs/rules.md#session-update: a bad Token on the session update is a 403 HTML page
    expect(r.status).toBe(403)
  })
})
