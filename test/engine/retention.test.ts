import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import qs from 'qs'
import { afterEach, describe, expect, it } from 'vitest'
import { createLowdbStore } from '../../src/adapters/store/lowdb-store.js'
import { withRetention } from '../../src/adapters/store/retention.js'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import type { SandboxConfig, SandboxMerchant } from '../../src/core/engine/context.js'
import { type Collections, STORE_INDEXES } from '../../src/core/engine/model.js'
import type { Store } from '../../src/core/ports/store.js'
import { checkoutSignatures, s2sCardSignatures } from '../../src/core/signatures/index.js'
import { createTestGateway, demoConfig, type TestGateway } from '../helpers/engine.js'
import { createFaultInjectingStore, type FaultInjectingStore } from '../helpers/fault-store.js'
import { fixture } from '../s2s-card/helpers.js'

/**
 * docs/rules.md#retention (issue 32 point 1): retention is per merchant, so one merchant's traffic
 * never forgets another's payments; the Hosted Payment Fields demo page (POST /hpf/demo, same
 * origin as docs/rules.md#page-guard permits) has a small bound of its own (`limits.retain_demo`)
 * and never takes a merchant's place; the batch that goes past a bound forgets the oldest unit of
 * that same lane in the same commit, in memory and in a data file.
 */
const SHOP_A = { key: 'shop-a', password: 'shop-a-password-0123456789abcdef' }
const SHOP_B = { key: 'shop-b', password: 'shop-b-password-0123456789abcdef' }
const SAME_ORIGIN = { origin: 'http://sandbox.test', host: 'sandbox.test' }

function config(limits: Record<string, number>): SandboxConfig {
  const base = demoConfig()
  const demo = base.merchants[0] as SandboxMerchant
  return {
    ...base,
    merchants: [
      demo,
      { ...demo, key: SHOP_A.key, password: SHOP_A.password, name: 'Shop A', protocol_mapping: {} },
      { ...demo, key: SHOP_B.key, password: SHOP_B.password, name: 'Shop B', protocol_mapping: {} },
    ],
    limits: { ...base.limits, ...limits } as SandboxConfig['limits'],
  }
}

/** The engine's store (below the unit of work), whatever store the gateway was given. */
const storeOf = (t: TestGateway) => t.gateway.ctx.store

/** An S2S CARD SALE of `shop`: one payment without a session. Answers the payment id. */
async function sale(t: TestGateway, shop: typeof SHOP_A, n: number): Promise<string> {
  const body: Record<string, unknown> = {
    ...fixture('sale-request.basic'),
    client_key: shop.key,
    order_id: `${shop.key}-${n}`,
  }
  const hash = s2sCardSignatures.payment(String(body.payer_email), shop.password, {
    cardNumber: String(body.card_number),
  })
  const r = await t.call('POST', '/post', qs.stringify({ ...body, hash }))
  if (r.status !== 200) throw new Error(`SALE answered ${r.status}: ${r.raw}`)
  return String(r.body.trans_id)
}

/** A Checkout session of `shop`: one unit. */
async function session(t: TestGateway, shop: typeof SHOP_A, n: number) {
  const order = { number: `${shop.key}-s${n}`, amount: '10.00', currency: 'EUR', description: 'Retention' }
  const r = await t.call('POST', '/api/v1/session', {
    merchant_key: shop.key,
    operation: 'purchase',
    order,
    success_url: 'https://shop.test/ok',
    hash: checkoutSignatures.session(order, shop.password),
  })
  if (r.status !== 200) throw new Error(`session answered ${r.status}: ${r.raw}`)
}

async function demoPost(t: TestGateway) {
  const r = await t.call('POST', '/hpf/demo', '', SAME_ORIGIN)
  if (r.status !== 303) throw new Error(`POST /hpf/demo answered ${r.status}: ${r.raw}`)
}

const sessionsOf = (t: TestGateway, merchant: string) =>
  storeOf(t).findBy('sessions', 'merchant_key', merchant)
const paymentsOf = (t: TestGateway, merchant: string) =>
  storeOf(t).findBy('payments', 'merchant_key', merchant)

function expectIntact(t: TestGateway, ids: string[]) {
  for (const id of ids) {
    expect(storeOf(t).get('payments', id)?.merchant_key).toBe(SHOP_A.key)
    expect(storeOf(t).findBy('transactions', 'payment_id', id).length).toBeGreaterThan(0)
  }
}

describe('retention per merchant (docs/rules.md#retention)', () => {
  it("600 same-origin POST /hpf/demo keep all 20 of a merchant's payments; demo data stays within limits.retain_demo", async () => {
    // The store as serve --retain 300 has it (memory, the default demo bound).
    const t = createTestGateway(DEFAULT_MODULES, config({}), {
      wrapStore: (store) => withRetention(store, { retain: 300 }),
    })
    const ids: string[] = []
    for (let i = 0; i < 20; i++) ids.push(await sale(t, SHOP_A, i))
    for (let i = 0; i < 600; i++) await demoPost(t)
    expectIntact(t, ids)
    expect(paymentsOf(t, SHOP_A.key)).toHaveLength(20)
    // The default demo bound (50): the newest demo sessions, the oldest forgotten.
    expect(sessionsOf(t, 'demo-merchant')).toHaveLength(50)
    expect(storeOf(t).retention?.stats()).toMatchObject({
      retain: 300,
      retain_demo: 50,
      kept: 20,
      kept_demo: 50,
      forgotten: 0,
      forgotten_demo: 550,
    })
    const health = await t.call('GET', '/sandbox/health')
    expect(health.body.retention).toMatchObject({ retain_demo: 50, kept_demo: 50, kept: 20 })
  })

  it('limits.retain and limits.retain_demo reach the engine from the config; the demo bound spares the demo merchant', async () => {
    const t = createTestGateway(DEFAULT_MODULES, config({ retain: 300, retain_demo: 5 }))
    // The demo merchant used as a merchant (its own Checkout sessions) is a merchant like any other.
    const demo = { key: 'demo-merchant', password: 'demo-password-0123456789abcdef' }
    for (let i = 0; i < 8; i++) await session(t, demo, i)
    for (let i = 0; i < 30; i++) await demoPost(t)
    expect(storeOf(t).retention?.stats()).toMatchObject({
      retain: 300,
      retain_demo: 5,
      kept: 8,
      kept_demo: 5,
    })
    const sessions = sessionsOf(t, 'demo-merchant')
    expect(
      sessions.filter((s) => String((s.request.order as { number: string }).number).startsWith('hpf-demo-')),
    ).toHaveLength(5)
    expect(sessions).toHaveLength(13)
  })

  it("another merchant's 600 sessions do not forget the first merchant's 20 payments (a store wrapped as serve --retain 300 wraps it)", async () => {
    const t = createTestGateway(DEFAULT_MODULES, config({}), {
      wrapStore: (store) => withRetention(store, { retain: 300 }),
    })
    const ids: string[] = []
    for (let i = 0; i < 20; i++) ids.push(await sale(t, SHOP_A, i))
    for (let i = 0; i < 600; i++) await session(t, SHOP_B, i)
    expectIntact(t, ids)
    // Shop B is bounded by its own 300.
    expect(sessionsOf(t, SHOP_B.key)).toHaveLength(300)
    expect(storeOf(t).retention?.stats()).toMatchObject({ kept: 320, forgotten: 300 })
  })

  it("a merchant's bound forgets that merchant's oldest units, in the batch that goes past it", async () => {
    const t = createTestGateway(DEFAULT_MODULES, config({ retain: 5 }))
    const a: string[] = []
    const b = [await sale(t, SHOP_B, 0), await sale(t, SHOP_B, 1)]
    for (let i = 0; i < 8; i++) {
      a.push(await sale(t, SHOP_A, i))
      // Never above the bound, not even between two requests: the forgetting is in the unit's commit.
      expect(paymentsOf(t, SHOP_A.key).length).toBe(Math.min(i + 1, 5))
    }
    for (const id of a.slice(0, 3)) {
      expect(storeOf(t).get('payments', id)).toBeUndefined()
      expect(storeOf(t).findBy('transactions', 'payment_id', id)).toEqual([])
      expect(storeOf(t).findBy('deliveries', 'payment_id', id)).toEqual([])
    }
    expectIntact(t, a.slice(3))
    for (const id of b) expect(storeOf(t).get('payments', id)?.merchant_key).toBe(SHOP_B.key)
  })
})

describe('retention in the unit of work (docs/rules.md#retention, docs/rules.md#store-unavailable)', () => {
  it('a batch the store refuses forgets nothing; the next request forgets the same oldest unit', async () => {
    let faults: FaultInjectingStore<Collections> | undefined
    const t = createTestGateway(DEFAULT_MODULES, config({ retain: 2 }), {
      wrapStore: (store) => {
        faults = createFaultInjectingStore(store)
        return faults.store
      },
    })
    const [first, second] = [await sale(t, SHOP_A, 0), await sale(t, SHOP_A, 1)]
    // The third sale's batch (its payment and the first one's deletion) fails as a full disk.
    faults?.failAt(0, { unavailable: true })
    const body: Record<string, unknown> = {
      ...fixture('sale-request.basic'),
      client_key: SHOP_A.key,
      order_id: 'refused',
    }
    const hash = s2sCardSignatures.payment(String(body.payer_email), SHOP_A.password, {
      cardNumber: String(body.card_number),
    })
    const refused = await t.call('POST', '/post', qs.stringify({ ...body, hash }))
    expect(refused.status).toBe(503)
    expect(faults?.injected()).toBe(true)
    expectIntact(t, [first as string, second as string])
    expect(paymentsOf(t, SHOP_A.key)).toHaveLength(2)
    const third = await sale(t, SHOP_A, 2)
    expect(storeOf(t).get('payments', first as string)).toBeUndefined()
    expectIntact(t, [second as string, third])
    expect(storeOf(t).retention?.stats()).toMatchObject({ kept: 2, forgotten: 1 })
  })
})

describe('retention with a data file (docs/rules.md#retention)', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('bounds the demo page in the data file too, and a reopened file keeps the merchant payments', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paysandbox-retention-'))
    dirs.push(dir)
    const file = join(dir, 'data.json')
    const lowdb = await createLowdbStore<Collections>({ file, indexes: STORE_INDEXES })
    const t = createTestGateway(DEFAULT_MODULES, config({ retain_demo: 10 }), {
      wrapStore: () => lowdb as Store<Collections>,
    })
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push(await sale(t, SHOP_A, i))
    for (let i = 0; i < 60; i++) await demoPost(t)
    expect(sessionsOf(t, 'demo-merchant')).toHaveLength(10)
    // No merchant bound with a data file unless one is given.
    expect(storeOf(t).retention?.stats().retain).toBeUndefined()
    t.gateway.stop()
    await lowdb.close()
    const reopened = await createLowdbStore<Collections>({ file, indexes: STORE_INDEXES })
    try {
      expect(reopened.findBy('sessions', 'merchant_key', 'demo-merchant')).toHaveLength(10)
      for (const id of ids) expect(reopened.get('payments', id)?.merchant_key).toBe(SHOP_A.key)
      // Reopened with a smaller bound, the oldest demo units go at start-up.
      const again = withRetention(reopened, { retainDemo: 4 })
      expect(again.findBy('sessions', 'merchant_key', 'demo-merchant')).toHaveLength(4)
      expect(again.count('payments')).toBe(3)
    } finally {
      await reopened.close()
    }
  })
})
