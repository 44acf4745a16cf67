import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadScenarios } from '../../src/conformance/load.js'
import type { LoadedScenario } from '../../src/conformance/types.js'
import { validate } from '../../src/core/validation/index.js'
import { orderScenario } from '../../src/core/order-scenario/build.js'
import { runReplay } from '../../src/replay/index.js'
import { merchantRuns } from '../conformance/merchant-runs.js'
import { type ObservedShop, observedShop, REF_KEY, REFERENCE } from './observed-order.js'

/**
 * Issue 34, done when: an order paid through the hosted page by the reference merchant exports as
 * a scenario (GET /sandbox/orders/{order_id}/scenario) that passes against the reference merchant
 * and fails, with the cause first, against a twin that makes a mistake on that path.
 */

const twins = join(import.meta.dirname, '..', '..', 'fixtures', 'merchants', 'twins')
let shop: ObservedShop
let exported: Record<string, unknown>
let loaded: LoadedScenario[]
const dir = mkdtempSync(join(tmpdir(), 'order-scenario-'))
const runs = merchantRuns()

beforeAll(async () => {
  shop = await observedShop()
  const pageUrl = await shop.checkout({
    number: 'shop-1001',
    amount: '25.00',
    currency: 'EUR',
    description: 'Two books',
  })
  const paid = await shop.payOnPage(pageUrl, { number: '4111 1111 1111 1111', exp: '01/30', cvv: '737' })
  expect(paid.status).toBeLessThan(400)
  await shop.sandbox.idle()
  const answer = await fetch(`${shop.listening.url}/sandbox/orders/shop-1001/scenario?merchant=${REF_KEY}`)
  expect(answer.status).toBe(200)
  exported = (await answer.json()) as Record<string, unknown>
  const file = join(dir, 'shop-1001.json')
  writeFileSync(file, `${JSON.stringify(exported, null, 2)}\n`)
  // The worked example's shop log (docs/replay.md), replayed and exported: an S2S CARD order.
  const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'replay')
  const replayed = await runReplay({
    files: [join(fixtures, 'shop-client.jsonl')],
    config: join(fixtures, 'shop-config.json'),
  })
  const fromLog = join(dir, 'jsonl-3001.json')
  writeFileSync(
    fromLog,
    JSON.stringify(orderScenario(replayed.sandbox.gateway.ctx, 'jsonl-3001', 'shop-key')),
  )
  replayed.sandbox.stop()
  const read = loadScenarios([file, fromLog])
  expect(read.errors.map((e) => e.message)).toEqual([])
  loaded = read.scenarios
}, 120_000)

afterAll(async () => {
  await Promise.all([shop?.close(), runs.close()])
  rmSync(dir, { recursive: true, force: true })
})

describe('an order the sandbox observed, exported as a scenario', () => {
  it("validates against the scenario schema and tells the story in the kit's own steps", () => {
    expect(validate('sandbox/scenario', exported).valid).toBe(true)
    const steps = exported.steps as { step: string }[]
    expect(steps.map((s) => s.step)).toEqual([
      'merchant.start',
      'expect.merchant_request',
      'payer.card',
      'expect.callback_acknowledged',
      'expect.merchant_request',
      'expect.merchant_order',
    ])
    expect(steps[0]).toMatchObject({
      api: 'checkout',
      order: { amount: '25.00', currency: 'EUR', description: 'Two books' },
    })
    expect(steps[1]).toMatchObject({
      endpoint: { method: 'POST', path: '/api/v1/session' },
      signature: 'valid',
      accepted: true,
      fields: { '$.order.amount': '25.00', '$.order.currency': 'EUR' },
    })
    expect(steps[2]).toMatchObject({ outcome: 'success' })
    expect(steps[3]).toMatchObject({ callback: { type: 'sale', order_status: 'settled' }, attempts: 1 })
    // The shop's callback handler confirms the status with a lookup: the same kind of request.
    expect(steps[4]).toMatchObject({ endpoint: { path: '/api/v1/payment/status' } })
    expect(steps[5]).toMatchObject({ fields: { '$.state': 'paid', '$.amount_paid': '25.00' } })
  })

  it('holds no volatile value and no card number, CVV or token: roles, not values', () => {
    const text = JSON.stringify(exported)
    expect(text).not.toMatch(/4111111111111111|4111 1111 1111 1111/)
    expect(text).not.toContain('737')
    expect(text).not.toContain('shop-1001"') // the kit numbers its own order
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/)
    expect(text).not.toMatch(/"hash"/)
  })

  it('passes against the reference merchant, and fails against a twin with the cause first (a replayed log too)', async () => {
    await runs.runAll(loaded, [
      { name: 'reference', file: REFERENCE },
      { name: 'twin', file: join(twins, 'sha1-of-binary-md5.json') },
    ])
    const reference = runs.summaries.get('reference')
    for (const result of reference?.results ?? []) {
      const failure = result.steps.find((s) => s.status === 'failed')
      expect(failure?.message ?? '', `${result.slug}: ${failure?.label}`).toBe('')
    }
    // The hosted-page order, and the S2S order of a shop's log replayed and exported (docs/replay.md).
    expect(reference?.passed).toBe(2)
    const twin = runs.summaries.get('twin')?.results.find((r) => r.slug === 'shop-1001')
    expect(twin?.status).toBe('failed')
    const first = twin?.steps.find((s) => s.status === 'failed')
    // The cause leads (what the merchant did and the rule), then the refusal it led to.
    expect(first?.message).toMatch(
      /^the merchant's hash is sha1 of the binary md5 digest; the formula takes md5's hex digest \(POST \/api\/v1\/session, checkout\.session\) \(docs\/rules\.md#checkout-signatures\): the gateway refused it \(HTTP 400: hash: Hash is not valid\.\)/,
    )
  }, 180_000)
})
