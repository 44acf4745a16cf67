import { afterEach, describe, expect, it } from 'vitest'
import { type Flaws, startFakeMerchant } from './fake-merchant.js'
import { inline, run, s2sSale, start } from './helpers.js'

/**
 * Judging outcomes, not recipes (issue 30 item 4; docs/conformance.md, Judging outcomes): the
 * scenario expectations that accept every documented way (`any_of`), hold the order against the
 * gateway's record (`ledger`), and allow money to move once (`expect.no_double_charge`).
 */

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

async function one(steps: unknown[], flaws: Flaws = {}) {
  const merchant = await startFakeMerchant(flaws)
  close = merchant.close
  const { summary } = await run([inline('m', { mode: 'merchant', section: 'Gateway faults', steps })], {
    mode: 'merchant',
    merchant: merchant.client,
  })
  const result = summary.results[0]
  if (!result) throw new Error('no result')
  return { result, failure: result.steps.find((s) => s.status === 'failed') }
}

const session = (fields: Record<string, unknown>, name?: string) => ({
  ...(name ? { name } : {}),
  endpoint: { method: 'POST', path: '/api/v1/session' },
  fields,
})
const paid = [start, { step: 'payer.card', outcome: 'success' }]
const sale = { ...s2sSale, outcome: 'success' }
const saleLost = (mode: 'timeout' | 'lost') => ({
  step: 'gateway.fault',
  mode,
  seconds: 30,
  match: { action: 'SALE' },
})

describe('expect.merchant_request with any_of', () => {
  it('passes a request that is one of the acceptable alternatives', async () => {
    const { result, failure } = await one([
      start,
      {
        step: 'expect.merchant_request',
        api: 'checkout',
        any_of: [
          { endpoint: { method: 'POST', path: '/api/v1/payment/void' } },
          session({ '$.order.amount': '10.00' }),
        ],
      },
    ])
    expect(failure?.message).toBeUndefined()
    expect(result.status).toBe('passed')
  })

  it('names each alternative a request is not, and every endpoint when none came', async () => {
    const wrong = await one([
      start,
      {
        step: 'expect.merchant_request',
        api: 'checkout',
        any_of: [session({ '$.order.amount': '11.00' }, 'eleven'), session({ '$.order.amount': '12.00' })],
      },
    ])
    expect(wrong.failure?.message).toMatch(
      /it is none of the acceptable alternatives: eleven: \$\.order\.amount: expected "11\.00", found "10\.00" \| \(2\): \$\.order\.amount: expected "12\.00", found "10\.00"/,
    )
    const none = await one([
      start,
      {
        step: 'expect.merchant_request',
        api: 'checkout',
        within_seconds: 0.2,
        any_of: [
          { endpoint: { method: 'POST', path: '/api/v1/payment/void' } },
          { endpoint: { method: 'POST', path: '/api/v1/payment/refund' } },
        ],
      },
    ])
    expect(none.failure?.message).toMatch(
      /^the merchant sent no request to POST \/api\/v1\/payment\/void or POST \/api\/v1\/payment\/refund; it sent POST \/api\/v1\/session/,
    )
  })
})

describe('expect.merchant_order with any_of and ledger', () => {
  it('passes one alternative, and fails naming the closest when it is none of them', async () => {
    const ok = await one([
      ...paid,
      { step: 'expect.merchant_order', any_of: [{ '$.state': 'failed' }, { '$.state': 'paid' }] },
    ])
    expect(ok.failure?.message).toBeUndefined()
    const { failure } = await one([
      ...paid,
      {
        step: 'expect.merchant_order',
        any_of: [{ '$.state': 'failed', '$.amount_paid': '0.00' }, { '$.state': 'pending' }],
      },
    ])
    expect(failure?.message).toMatch(
      /^the merchant booked order \S+ wrongly: \$\.state: expected "pending", found "paid"[^\n]* \(it is none of the 2 acceptable alternatives; the closest differs in this\)/,
    )
  })

  it('holds the order against the gateway: paid once as it settled, and a declined one failed', async () => {
    const settled = await one([...paid, { step: 'expect.merchant_order', ledger: true }])
    expect(settled.failure?.message).toBeUndefined()
    const declined = await one([
      start,
      { step: 'payer.card', outcome: 'decline' },
      { step: 'expect.merchant_order', ledger: true },
    ])
    expect(declined.failure?.message).toBeUndefined()
  })

  it('fails an order that contradicts the gateway, with the gateway record', async () => {
    // The fake merchant books nothing until a callback: the callback never reaches it here.
    const { failure } = await one([
      start,
      { step: 'callbacks.fail', count: 1 },
      { step: 'payer.card', outcome: 'success' },
      { step: 'expect.merchant_order', ledger: true },
    ])
    expect(failure?.message).toMatch(
      /^the merchant booked order \S+ wrongly: \$\.state: expected "paid", found "new"[\s\S]*the gateway's record of the order: its payment [0-9a-f-]{36} \(settled, 10\.00 EUR captured\)[\s\S]*- \$\.amount_paid: expected "10\.00", found "0\.00"\n {2}- \$\.payments_count: expected 1, found 0/,
    )
  })

  it('fails a payer told the payment failed while the gateway took the money', async () => {
    const { failure } = await one([sale, { step: 'expect.merchant_order', ledger: true }], {
      tellsFailed: true,
    })
    expect(failure?.message).toMatch(
      /it told its payer the payment failed \(start_payment status "failed"\), where the gateway took the money: its payment [0-9a-f-]{36} \(settled, 10\.00 EUR captured\)/,
    )
  })
})

describe('expect.no_double_charge', () => {
  it('passes a SALE sent again only after the lookup found nothing, and the order paid once', async () => {
    const { result, failure } = await one(
      [
        saleLost('timeout'),
        sale,
        { step: 'expect.no_double_charge' },
        { step: 'expect.merchant_order', ledger: true },
      ],
      { resendsUnanswered: 'after-lookup' },
    )
    expect(failure?.message).toBeUndefined()
    expect(result.status).toBe('passed')
  })

  it('fails a SALE sent again without a lookup, even when the first was not done', async () => {
    const { failure } = await one([saleLost('timeout'), sale, { step: 'expect.no_double_charge' }], {
      resendsUnanswered: 'blindly',
    })
    expect(failure?.message).toContain(
      'got no answer (sandbox fault "timeout"), without a status lookup of the order that found nothing taken (it looked nothing up)',
    )
  })

  it('fails a second charge of the order, with both payments', async () => {
    const { failure } = await one([saleLost('lost'), sale, { step: 'expect.no_double_charge' }], {
      resendsUnanswered: 'blindly',
    })
    expect(failure?.message).toMatch(
      /the gateway took money 2 times for order \S+: [0-9a-f-]{36} \(settled, 10\.00 EUR captured\), [0-9a-f-]{36} \(settled, 10\.00 EUR captured\)/,
    )
  })

  it('passes a lost answer left to the callback: one charge, the order paid as the gateway says', async () => {
    const { failure } = await one([
      saleLost('lost'),
      sale,
      { step: 'expect.no_double_charge' },
      { step: 'expect.merchant_order', ledger: true, fields: { '$.state': 'paid' } },
    ])
    expect(failure?.message).toBeUndefined()
  })
})
