import { describe, expect, it } from 'vitest'
import type { Collections } from '../../src/core/engine/model.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { CARD, DEMO, hpfSession, pay, sessionBody } from '../checkout/session-helpers.js'
import { createTestGateway, type TestGateway } from '../helpers/engine.js'
import { createFaultInjectingStore, type FaultInjectingStore } from '../helpers/fault-store.js'

/**
 * Issue 11, point 3 (docs/architecture.md, "One commit per operation"): the payment, its
 * transactions and its callbacks land together or not at all. Each operation below runs once to
 * count the ops of its commit; then, on a fresh gateway each time, the commit fails at every op
 * in turn, and once as a full disk: the answer is an error, the store is exactly as before, no
 * callback goes out, and the same request sent again afterwards counts once.
 */

const COLLECTIONS: (keyof Collections)[] = [
  'sessions',
  'payments',
  'transactions',
  'cards',
  'schedules',
  'chains',
  'deliveries',
  'meta',
]

interface Rig {
  t: TestGateway
  faults: FaultInjectingStore<Collections>
}

function rig(): Rig {
  let faults: FaultInjectingStore<Collections> | undefined
  const t = createTestGateway(DEFAULT_MODULES, undefined, {
    wrapStore: (store) => {
      faults = createFaultInjectingStore(store)
      return faults.store
    },
  })
  return { t, faults: faults as FaultInjectingStore<Collections> }
}

const snapshot = (t: TestGateway) => JSON.stringify(COLLECTIONS.map((c) => [c, t.store.list(c)]))

type Answer = Awaited<ReturnType<TestGateway['call']>>

interface Case {
  name: string
  /** Brings the gateway to where the operation can run; returns what the operation needs. */
  setup(t: TestGateway): Promise<Record<string, string>>
  operation(t: TestGateway, given: Record<string, string>): Promise<Answer>
  /** What the successful operation must have done, checked after the retry (exactly once). */
  once(t: TestGateway, given: Record<string, string>, answer: Answer): void
}

async function settledPayment(t: TestGateway, overrides: Record<string, unknown> = {}) {
  const token = await hpfSession(t, overrides)
  const r = await pay(t, token)
  if (r.status !== 200) throw new Error(`payment answered ${r.status}: ${r.raw}`)
  return r.body.payment_id as string
}

const signedAmount = (paymentId: string, amount: string) => ({
  merchant_key: DEMO.key,
  payment_id: paymentId,
  amount,
  hash: checkoutSignatures.amountOperation(paymentId, amount, DEMO.password),
})

const CASES: Case[] = [
  {
    name: 'POST /api/v1/session',
    setup: async () => ({}),
    operation: (t) => t.call('POST', '/api/v1/session', sessionBody()),
    once: (t) => expect(t.store.count('sessions')).toBe(1),
  },
  {
    name: 'POST /api/v1/processing/purchase/card (payment, transaction, callback)',
    setup: async (t) => ({ token: await hpfSession(t) }),
    operation: (t, { token }) => pay(t, token as string),
    once: (t) => {
      expect(t.store.count('payments')).toBe(1)
      expect(t.store.count('deliveries')).toBeGreaterThan(0)
    },
  },
  {
    name: 'POST /api/v1/payment/refund (partial)',
    setup: async (t) => ({ id: await settledPayment(t) }),
    operation: (t, { id }) => t.call('POST', '/api/v1/payment/refund', signedAmount(id as string, '1.00')),
    once: (t, { id }) => expect(t.store.get('payments', id as string)?.amount_refunded).toBe('1.00'),
  },
  {
    name: 'POST /api/v1/payment/capture',
    setup: async (t) => ({ id: await settledPayment(t, { auth: true }) }),
    operation: (t, { id }) => t.call('POST', '/api/v1/payment/capture', signedAmount(id as string, '10.00')),
    once: (t, { id }) => expect(t.store.get('payments', id as string)?.status).toBe('settled'),
  },
  {
    name: 'POST /api/v1/payment/void',
    setup: async (t) => ({ id: await settledPayment(t) }),
    operation: (t, { id }) =>
      t.call('POST', '/api/v1/payment/void', {
        merchant_key: DEMO.key,
        payment_id: id,
        hash: checkoutSignatures.paymentOperation(id as string, DEMO.password),
      }),
    once: (t, { id }) => expect(t.store.get('payments', id as string)?.status).toBe('void'),
  },
]

async function settle(t: TestGateway) {
  await t.clock.advance(0)
}

describe('every operation commits whole or not at all (issue 11 point 3, docs/architecture.md)', () => {
  for (const c of CASES) {
    it(`${c.name}: a commit failing at any op, or on a full disk, changes nothing`, async () => {
      // Count the ops of the operation's own commit.
      const probe = rig()
      const probeGiven = await c.setup(probe.t)
      const before = probe.faults.commits.length
      const ok = await c.operation(probe.t, probeGiven)
      expect(ok.status, ok.raw).toBe(200)
      const ops = probe.faults.commits.slice(before).reduce((max, batch) => Math.max(max, batch.length), 0)
      expect(ops).toBeGreaterThan(0)

      const failures: { at: number | 'disk'; answer: Answer }[] = []
      for (const at of [...Array.from({ length: ops }, (_, i) => i), 'disk' as const]) {
        const { t, faults } = rig()
        const given = await c.setup(t)
        await settle(t)
        const stored = snapshot(t)
        const sent = t.sent.length
        faults.failAt(at === 'disk' ? 0 : at, at === 'disk' ? { unavailable: true } : {})
        const answer = await c.operation(t, given)
        expect(faults.injected()).toBe(true)
        await settle(t)
        expect(snapshot(t), `fault at op ${at}`).toBe(stored)
        expect(t.sent.length, `no callback after the fault at op ${at}`).toBe(sent)
        failures.push({ at, answer })

        // The merchant's retry is a new request that counts once.
        const retried = await c.operation(t, given)
        expect(retried.status, retried.raw).toBe(200)
        c.once(t, given, retried)
      }
      for (const { at, answer } of failures) {
        if (at === 'disk') {
          expect(answer.status).toBe(503)
          expect(answer.body).toMatchObject({
            http_code: 503,
            error_message: 'Service temporarily unavailable.',
          })
        } else expect(answer.status).toBe(500)
      }
    })
  }
})

describe('nesting beyond the documented depth (docs/architecture.md: 32 levels)', () => {
  const nested = (levels: number) => {
    let value: Record<string, unknown> = { leaf: 'x' }
    for (let i = 0; i < levels; i++) value = { n: value }
    return value
  }

  it('a refund whose parameters nest 6,000 levels is a 400 and changes nothing', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const id = await settledPayment(t)
    await settle(t)
    const stored = snapshot(t)
    const r = await t.call('POST', '/api/v1/payment/refund', {
      ...signedAmount(id, '1.00'),
      parameters: nested(6000),
    })
    expect(r.status).toBe(400)
    expect(r.body.errors).toEqual([
      { error_code: 100000, error_message: 'body: Nesting deeper than 32 levels is not accepted.' },
    ])
    await settle(t)
    expect(snapshot(t)).toBe(stored)
    // A refund that fits is then counted once.
    const ok = await t.call('POST', '/api/v1/payment/refund', signedAmount(id, '1.00'))
    expect(ok.status, ok.raw).toBe(200)
    expect(t.store.get('payments', id)?.amount_refunded).toBe('1.00')
  })

  it('no route answers 5xx to bodies nested 100,000 levels', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`
    for (const [method, path] of t.gateway.routes().map((r) => r.split(' ') as [string, string])) {
      if (method === 'GET') continue
      const r = await t.call(method, path.replace(/:[a-zA-Z]+/g, 'x'), undefined, {})
      expect(r.status).toBeLessThan(500)
      const deepAnswer = await t.gateway.handle({
        method,
        path: path.replace(/:[a-zA-Z]+/g, 'x'),
        query: {},
        headers: { 'content-type': 'application/json' },
        body: new TextEncoder().encode(deep),
      })
      expect(deepAnswer.status, `${method} ${path}`).toBeLessThan(500)
    }
  })
})

describe('a session paid through the API only with the API token (issue 11 point 2, decisions.md §5)', () => {
  const card = { ...CARD }

  it('the page token from redirect_url cannot update the price or pay through the API', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const created = await t.call(
      'POST',
      '/api/v1/session',
      sessionBody({ order: { number: 'o-500', amount: '500.00', currency: 'USD', description: 'TV' } }),
    )
    const pageToken = /\/auth\/([^/?#]+)/.exec(String(created.body.redirect_url))?.[1] as string
    const stored = snapshot(t)
    const update = await t.call(
      'PUT',
      '/api/v1/session/update',
      { order_amount: '0.01' },
      { Token: pageToken },
    )
    expect(update.status).toBe(401)
    expect(update.body).toMatchObject({ error_message: 'Token is not valid.' })
    const paid = await t.call('POST', '/api/v1/processing/purchase/card', card, { Token: pageToken })
    expect(paid.status).toBe(401)
    expect(snapshot(t)).toBe(stored)
    expect(t.store.findBy('sessions', 'page_token', pageToken)[0]?.request.order).toMatchObject({
      amount: '500.00',
    })
  })

  it('a session cancelled on the hosted page cannot be paid afterwards', async () => {
    const t = createTestGateway(DEFAULT_MODULES)
    const created = await t.call(
      'POST',
      '/api/v1/session',
      sessionBody({ cancel_url: 'https://m.example/c' }),
    )
    const pageToken = /\/auth\/([^/?#]+)/.exec(String(created.body.redirect_url))?.[1] as string
    const cancel = await t.call('POST', `/auth/${pageToken}/cancel`, '')
    expect(cancel.status).toBe(303)
    const session = t.store.findBy('sessions', 'page_token', pageToken)[0]
    expect(session?.status).toBe('cancelled')
    // Through the API: the page token authorizes nothing; the API token of such a session is never issued.
    const api = await t.call('POST', '/api/v1/processing/purchase/card', card, { Token: pageToken })
    expect(api.status).toBe(401)
    // Through the page: the payer is sent to cancel_url again, and no payment is made.
    const page = await t.call('POST', `/auth/${pageToken}/pay`, 'card_number=4111111111111111')
    expect(page.headers.location).toBe('https://m.example/c?order_id=order-1')
    expect(t.store.count('payments')).toBe(0)
  })
})
