import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Collections } from '../../src/core/engine/model.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { CARD, DEMO, hpfSession, pay, sessionBody } from '../checkout/session-helpers.js'
import { createTestGateway, type TestGateway } from '../helpers/engine.js'
import { createFaultInjectingStore, type FaultInjectingStore } from '../helpers/fault-store.js'
import { PAYMENT_COLLECTIONS } from '../helpers/collections.js'

/**
 * Issue 11, point 3 (docs/architecture.md, "One commit per operation"): the payment, its
 * transactions and its callbacks land together or not at all. Each operation below runs once to
 * count the ops of its commit; then, on a fresh gateway each time, the commit fails at every op
 * in turn, and once as a full disk: the answer is an error, the store is exactly as before, no
 * callback goes out, and the same request sent again afterwards counts once.
 */

const COLLECTIONS = PAYMENT_COLLECTIONS

interface Rig {
  t: TestGateway
  faults: FaultInjectingStore<Collections>
}

interface ReadFaults {
  /** Reads made so far. */
  count: number
  /** The read with this number throws (then the fault is cleared). */
  failAt?: number
}

function rig(): Rig & { reads: ReadFaults } {
  let faults: FaultInjectingStore<Collections> | undefined
  const reads: ReadFaults = { count: 0 }
  // Only reads inside an operation's unit count: delivery and the clock read the store afterwards.
  let t: TestGateway | undefined
  const inUnit = () => t?.gateway.units.active === true
  t = createTestGateway(DEFAULT_MODULES, undefined, {
    wrapStore: (store) => {
      faults = createFaultInjectingStore(store)
      // A read that throws in the middle of an operation, after some of its writes: the operation
      // fails halfway, as one that hits a bug does, and must leave nothing behind.
      return new Proxy(faults.store, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver)
          if (typeof value !== 'function') return value
          if (property !== 'get' && property !== 'findBy' && property !== 'list') return value.bind(target)
          return (...args: unknown[]) => {
            if (inUnit() && reads.count++ === reads.failAt) {
              reads.failAt = undefined
              const e = new Error('fault injected: a read failed halfway through the operation')
              if (process.env.DEBUG_READS) console.log(String(property), JSON.stringify(args), e.stack)
              throw e
            }
            return value.apply(target, args)
          }
        },
      })
    },
  })
  return { t, faults: faults as FaultInjectingStore<Collections>, reads }
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

// docs/rules.md#signatures, computed here with node:crypto: Formula 1 (SALE) and Formula 2 (CREDITVOID).
const md5 = (text: string) => createHash('md5').update(text).digest('hex')
const rev = (text: string) => [...text].reverse().join('')
const EMAIL = 'doe@example.com'
const CARD_REF = '4111111111'.slice(0, 6) + '1111'
const formula1 = () => md5(`${rev(EMAIL)}${DEMO.password}${rev(CARD_REF)}`.toUpperCase())
const formula2 = (transId: string) =>
  md5(`${rev(EMAIL)}${DEMO.password}${transId}${rev(CARD_REF)}`.toUpperCase())

const s2sSale = (orderId: string) =>
  new URLSearchParams({
    action: 'SALE',
    client_key: DEMO.key,
    order_id: orderId,
    order_amount: '10.00',
    order_currency: 'USD',
    order_description: 'Two tickets',
    card_number: '4111111111111111',
    card_exp_month: '01',
    card_exp_year: '2039',
    card_cvv2: '123',
    payer_first_name: 'John',
    payer_last_name: 'Doe',
    payer_address: '1 Main Street',
    payer_country: 'US',
    payer_city: 'New York',
    payer_zip: '10001',
    payer_email: EMAIL,
    payer_phone: '2125550100',
    payer_ip: '203.0.113.10',
    term_url_3ds: 'https://merchant.example.com/3ds-return',
    hash: formula1(),
  }).toString()

async function s2sSettled(t: TestGateway) {
  const r = await t.call('POST', '/post', s2sSale('s2s-1'))
  if (r.status !== 200) throw new Error(`SALE answered ${r.status}: ${r.raw}`)
  return r.body.trans_id as string
}

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
  {
    name: 'S2S CARD SALE',
    setup: async () => ({}),
    operation: (t) => t.call('POST', '/post', s2sSale('s2s-1')),
    once: (t) => expect(t.store.count('payments')).toBe(1),
  },
  {
    name: 'S2S CARD CREDITVOID (partial refund)',
    setup: async (t) => ({ id: await s2sSettled(t) }),
    operation: (t, { id }) =>
      t.call(
        'POST',
        '/post',
        new URLSearchParams({
          action: 'CREDITVOID',
          client_key: DEMO.key,
          trans_id: id as string,
          amount: '1.00',
          hash: formula2(id as string),
        }).toString(),
      ),
    once: (t, { id }) => expect(t.store.get('payments', id as string)?.amount_refunded).toBe('1.00'),
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

describe('an operation that fails halfway leaves nothing (issue 11 point 3)', () => {
  for (const c of CASES) {
    it(`${c.name}: a failure at any read during the operation changes nothing`, async () => {
      const probe = rig()
      const probeGiven = await c.setup(probe.t)
      await settle(probe.t)
      const from = probe.reads.count
      expect((await c.operation(probe.t, probeGiven)).status).toBe(200)
      const total = probe.reads.count - from
      // Every read of short operations; evenly spaced ones of long operations (bounded run time).
      const step = Math.max(1, Math.ceil(total / 25))
      for (let k = 0; k < total; k += step) {
        const { t, reads } = rig()
        const given = await c.setup(t)
        await settle(t)
        const stored = snapshot(t)
        const sent = t.sent.length
        reads.failAt = reads.count + k
        const answer = await c.operation(t, given)
        expect(answer.status, `read ${k} of ${total}`).toBe(500)
        await settle(t)
        expect(snapshot(t), `read ${k} of ${total}`).toBe(stored)
        expect(t.sent.length).toBe(sent)
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
    const deep = new TextEncoder().encode(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`)
    for (const [method, path] of t.gateway.routes().map((r) => r.split(' ') as [string, string])) {
      if (method === 'GET') continue
      const r = await t.call(method, path.replace(/:[a-zA-Z]+/g, 'x'), undefined, {})
      expect(r.status).toBeLessThan(500)
      const deepAnswer = await t.gateway.handle({
        method,
        path: path.replace(/:[a-zA-Z]+/g, 'x'),
        query: {},
        headers: { 'content-type': 'application/json' },
        body: deep,
      })
      expect(deepAnswer.status, `${method} ${path}`).toBeLessThan(500)
    }
    // Every route with a 200,000-byte body: a bound for a loaded machine, not an expected duration.
  }, 120_000)
})

describe('a session paid through the API only with the API token (issue 11 point 2, docs/rules.md#sessions)', () => {
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
    // docs/rules.md#session-update: a bad Token on the session update is a 403 HTML page, as the platform answers
    expect(update.status).toBe(403)
    expect(update.headers['content-type']).toBe('text/html; charset=utf-8')
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
