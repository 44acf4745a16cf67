import { afterEach, describe, expect, it } from 'vitest'
import { type Flaws, startFakeMerchant } from './fake-merchant.js'
import { inline, ref, run, start } from './helpers.js'

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

async function one(steps: unknown[], flaws: Flaws = {}, extra: Record<string, unknown> = {}) {
  const merchant = await startFakeMerchant(flaws)
  close = merchant.close
  const { summary } = await run([inline('m', { mode: 'merchant', steps, ...extra })], {
    mode: 'merchant',
    merchant: merchant.client,
  })
  const result = summary.results[0]
  if (!result) throw new Error('no result')
  return { result, failure: result.steps.find((s) => s.status === 'failed') }
}

const paid = [
  start,
  {
    step: 'expect.merchant_request',
    api: 'checkout',
    endpoint: { method: 'POST', path: '/api/v1/session' },
    fields: { '$.order.amount': '10.00' },
  },
  { step: 'payer.card', outcome: 'success' },
]

// Issue 7, merchant mode: "expect what the merchant sent (schema-valid, correctly signed, right endpoint);
// expect callbacks acknowledged; expect the merchant's own view of the order".
describe('merchant-mode steps', () => {
  it('checks what the merchant sent, that it acknowledged, and its view of the order', async () => {
    const { result, failure } = await one([
      ...paid,
      { step: 'expect.callback', api: 'checkout', fields: { '$.order_status': 'settled' } },
      { step: 'expect.callback_acknowledged', attempts: 1 },
      { step: 'expect.merchant_order', fields: { '$.state': 'paid', '$.callbacks_processed': 1 } },
      { step: 'expect.no_merchant_request' },
    ])
    expect(failure?.message).toBeUndefined()
    expect(result.status).toBe('passed')
  })

  // Issue 16 point 1: the price lowered by a real session update; the kit's own requests are not the merchant's.
  it("gateway.call in_merchant_mode: sent with the merchant's key, outside the merchant's request log", async () => {
    const { result, failure } = await one([
      start,
      {
        step: 'expect.merchant_request',
        api: 'checkout',
        endpoint: { method: 'POST', path: '/api/v1/session' },
      },
      {
        step: 'gateway.call',
        api: 'checkout',
        in_merchant_mode: true,
        path: '/api/v1/session/token',
        body: {
          operation: 'purchase',
          order: { number: 'other-1', amount: '10.00', currency: 'EUR', description: 'x' },
          return_url: 'https://payer.example/return',
        },
        capture: { kit_token: '$.token' },
      },
      {
        step: 'gateway.call',
        api: 'checkout',
        in_merchant_mode: true,
        method: 'PUT',
        path: '/api/v1/session/update',
        headers: { Token: ref('kit_token') },
        body: { order_amount: '1.00' },
      },
      { step: 'expect.no_merchant_request' },
      { step: 'gateway.call', api: 'checkout', path: '/api/v1/session/token', body: {} },
    ])
    expect(failure?.message).toBeUndefined()
    expect(result.status).toBe('passed')
    expect(result.steps.map((s) => s.status)).toEqual([
      'passed',
      'passed',
      'passed',
      'passed',
      'passed',
      'skipped',
    ])
  })

  // Issue 23, cause first: the refused request heads the failure of the step that sent it.
  it('fails a request signed with the wrong password, quoting both hashes and the formula', async () => {
    const { failure } = await one(paid.slice(0, 2), { badHash: true })
    expect(failure?.label).toMatch(/^1\. merchant\.start/)
    expect(failure?.message).toMatch(
      /^the merchant signed POST \/api\/v1\/session with another hash than checkout\.session gives with the adapter's password \(docs\/rules\.md#checkout-signatures\): the gateway refused it \(HTTP 400: hash: Hash is not valid\.\)\n[\s\S]*rule: checkout\.session: sha1\(md5\(upper\(order\.number \+ order\.amount \+ order\.currency \+ order\.description \+ password\)\)\)[\s\S]*fix: compute the hash with that formula: for this request [0-9a-f]{40}, not "[0-9a-f]{40}"/,
    )
    expect(failure?.findings?.map((f) => f.kind)).toEqual(['refused-request'])
    expect(failure?.section).toMatch(/Authentication/)
  })

  it('names the request the merchant sent instead of the one expected', async () => {
    const { failure } = await one([
      start,
      {
        step: 'expect.merchant_request',
        api: 'checkout',
        endpoint: { path: '/api/v1/session/token' },
        within_seconds: 0.2,
      },
    ])
    expect(failure?.message?.split('\n')[0]).toBe(
      'the merchant sent no request to POST /api/v1/session/token; it sent POST /api/v1/session (HTTP 200) since the last matched one',
    )
    // Issue 16 point 2: what the merchant did follows, from observations (its hooks, requests, order).
    expect(failure?.message).toMatch(
      /What the merchant did:\n {2}its test hooks answered:\n {4}start_payment \(checkout purchase\) → HTTP 200[\s\S]*its requests to the gateway:\n {4}POST \/api\/v1\/session \{order\.amount "10\.00"\} → HTTP 200/,
    )
  })

  it('duplicate and forged callbacks: an idempotent merchant counts once and refuses forgeries', async () => {
    const steps = [
      ...paid,
      { step: 'callbacks.duplicate', times: 2 },
      { step: 'expect.callback_acknowledged' },
      { step: 'expect.merchant_order', fields: { '$.callbacks_processed': 1 } },
      { step: 'callbacks.forge', tamper: 'hash', fields: { order_status: 'decline', status: 'fail' } },
      { step: 'expect.callback_acknowledged', acknowledged: false },
    ]
    expect((await one(steps)).result.status).toBe('passed')
    const counted = await one(steps, { countsDuplicates: true })
    expect(counted.failure?.message).toMatch(/\$\.callbacks_processed: expected 1, found 3/)
    const trusting = await one(steps, { trustsEveryCallback: true })
    // Issue 16 point 2: the forged callback is judged by what it did to the order, not by the answer.
    expect(trusting.failure?.message).toMatch(
      /the merchant acknowledged #\d+ sale\/decline \(fail\) \[forged\] \(signed with another password, order_status=decline status=fail\) \(attempt 1: HTTP 200 "OK"\) and its order changed: state "paid" → "failed", amount_paid "10\.00" → "0\.00", payments_count 1 → 0, callbacks_processed 1 → 2/,
    )
  })

  it('a merchant that acknowledges a forged callback but changes nothing passes (issue 16 point 2)', async () => {
    // The interface asks nothing of the answer to a callback the merchant drops: only its order counts.
    const dropsQuietly = await one(
      [
        ...paid,
        { step: 'expect.merchant_order', fields: { '$.state': 'paid' } },
        { step: 'callbacks.forge', tamper: 'amount' },
        { step: 'expect.callback_acknowledged', acknowledged: false },
      ],
      { trustsEveryCallback: true },
    )
    expect(dropsQuietly.failure?.message).toBeUndefined()
    expect(dropsQuietly.result.status).toBe('passed')
  })

  it('merchant.action drives the back office; the kit checks its request and the answer it relays', async () => {
    const { result, failure } = await one([
      ...paid,
      {
        step: 'merchant.action',
        action: 'refund',
        amount: '4.00',
        expect: { fields: { '$.result': 'accepted' } },
      },
      {
        step: 'expect.merchant_request',
        api: 'checkout',
        endpoint: { path: '/api/v1/payment/refund' },
        fields: { '$.amount': '4.00' },
      },
      { step: 'expect.callback', api: 'checkout', fields: { '$.type': 'refund' } },
    ])
    expect(failure?.message).toBeUndefined()
    expect(result.status).toBe('passed')
  })

  it('S2S: checks the SALE form against its schema and its md5 signature', async () => {
    const { result, failure } = await one([
      {
        step: 'merchant.start',
        api: 's2s-card',
        outcome: 'success',
        order: { amount: '10.00', currency: 'EUR' },
      },
      {
        step: 'expect.merchant_request',
        api: 's2s-card',
        endpoint: { action: 'SALE' },
        fields: { '$.order_amount': '10.00' },
      },
      { step: 'expect.callback', api: 's2s-card', fields: { '$.action': 'SALE', '$.result': 'SUCCESS' } },
    ])
    expect(failure?.message).toBeUndefined()
    expect(result.status).toBe('passed')
  })

  it('reorders held callbacks for the merchant (manual mode)', async () => {
    const { result } = await one(
      [
        start,
        { step: 'payer.card', outcome: '3ds_success' },
        { step: 'payer.3ds', result: 'pass' },
        { step: 'callbacks.reorder', order: [1, 0] },
        { step: 'expect.merchant_order', fields: { '$.state': 'paid' } },
      ],
      {},
      { callbacks: 'manual' },
    )
    expect(result.status).toBe('passed')
  })
})

describe('a merchant that reads one gateway URL at start (concurrency: sequential)', () => {
  it('runs the scenarios one at a time, all under /run/current', async () => {
    const merchant = await startFakeMerchant()
    close = merchant.close
    const client = { ...merchant.client, sequential: true }
    const scenarios = ['a', 'b'].map((slug) =>
      inline(slug, {
        mode: 'merchant',
        steps: [...paid, { step: 'expect.merchant_order', fields: { '$.state': 'paid' } }],
      }),
    )
    const { summary, text } = await run(scenarios, { mode: 'merchant', merchant: client })
    expect(summary.passed, text).toBe(2)
  })
})

// docs/conformance.md, `port_env`: a merchant process that ends saying its port was taken never
// answered the kit; the program that held the port did. Its verdicts are not the merchant's.
describe('a merchant process that ends during the run', () => {
  const scenarios = ['a', 'b', 'c'].map((slug) =>
    inline(slug, {
      mode: 'merchant',
      steps: [...paid, { step: 'expect.merchant_order', fields: { '$.state': 'paid' } }],
    }),
  )

  /** The fake merchant, one scenario at a time, whose process is seen `gone` once `after` orders were looked at. */
  async function endingAfter(after: number, gone: { message: string; portTaken: boolean }) {
    const merchant = await startFakeMerchant()
    close = merchant.close
    const orders = new Set<string>()
    return {
      ...merchant.client,
      sequential: true,
      exited: () => (orders.size >= after ? gone : undefined),
      inspect: async (id: string) => {
        const answer = await merchant.client.inspect(id)
        orders.add(id)
        return answer
      },
    }
  }

  it('because its port was taken: every verdict is void, failed with that cause first, and the run says why', async () => {
    const message =
      'the merchant process exited with code 1 because its port 23456 was taken: another program answered'
    // Seen gone only once the second scenario's order was looked at: the first one's pass is voided too.
    const client = await endingAfter(2, { message, portTaken: true })
    const { summary, text } = await run(scenarios, { mode: 'merchant', merchant: client })
    expect(summary.passed, text).toBe(0)
    expect(summary.infrastructure).toBe(message)
    const [a, b, c] = summary.results
    for (const played of [a, b]) {
      expect(played?.status).toBe('failed')
      expect(played?.steps[0]).toMatchObject({
        index: -1,
        label: 'the merchant process',
        status: 'failed',
        message,
      })
    }
    // Not played: the process had gone.
    expect(c).toMatchObject({ status: 'skipped', reason: `not run: ${message}` })
    expect(text).toContain(message)
  })

  it('by a crash: the scenarios already judged keep their verdicts, the rest are not run', async () => {
    const message = 'the merchant process exited with code 1 during the run'
    const client = await endingAfter(1, { message, portTaken: false })
    const { summary, text } = await run(scenarios, { mode: 'merchant', merchant: client })
    expect(
      summary.results.map((r) => r.status),
      text,
    ).toEqual(['passed', 'skipped', 'skipped'])
    expect(summary.infrastructure).toBe(message)
  })
})
