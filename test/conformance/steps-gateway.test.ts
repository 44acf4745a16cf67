import { describe, expect, it } from 'vitest'
import { inline, run, s2sSale, start, ref } from './helpers.js'

const one = async (steps: unknown[], extra: Record<string, unknown> = {}) => {
  const { summary, text } = await run([inline('t', { steps, ...extra })])
  const result = summary.results[0]
  if (!result) throw new Error('no result')
  return { result, text, failure: result.steps.find((s) => s.status === 'failed') }
}

// Issue 7 steps, each against the kit-hosted sandbox: one run that holds, one that must fail.
describe('merchant.start and payer steps (gateway mode: the kit is the merchant)', () => {
  it('starts a Checkout session, pays it and captures ids automatically', async () => {
    const { result } = await one([
      { ...start, expect: { fields: { '$.redirect_url': { $regex: '/auth/' } } } },
      { step: 'payer.card', outcome: 'success', expect: { fields: { '$.status': 'settled' } } },
      {
        step: 'gateway.call',
        api: 'checkout',
        path: '/api/v1/payment/status',
        body: { payment_id: ref('payment_id') },
        expect: { fields: { '$.order.number': ref('order_number') } },
      },
    ])
    expect(result.status).toBe('passed')
  })

  it('fails with the deviation, the section and a curl command when an answer differs', async () => {
    const { result, failure } = await one([
      { ...start, section: '2.1', expect: { fields: { '$.redirect_url': 'nowhere' } } },
    ])
    expect(result.status).toBe('failed')
    expect(failure?.message).toMatch(
      /\$\.redirect_url: expected "nowhere", found "http:\/\/127\.0\.0\.1:\d+\/run\/t\/auth\//,
    )
    expect(failure?.section).toBe('Events; 2.1')
    expect(failure?.curl).toMatch(
      /^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/run\/t\/api\/v1\/session' -H 'content-type: application\/json' --data-raw '\{"merchant_key"/,
    )
  })

  it('drives 3DS and the redirect page, and refuses a payer step nothing waits for', async () => {
    expect(
      (
        await one([
          start,
          { step: 'payer.card', outcome: '3ds_success' },
          { step: 'payer.3ds', result: 'pass', expect: { fields: { '$.status': 'settled' } } },
        ])
      ).result.status,
    ).toBe('passed')
    expect(
      (
        await one([
          start,
          { step: 'payer.card', outcome: 'redirect_success' },
          { step: 'payer.redirect', expect: { fields: { '$.status': 'settled' } } },
        ])
      ).result.status,
    ).toBe('passed')
    const { failure } = await one([
      start,
      { step: 'payer.card', outcome: 'success' },
      { step: 'payer.3ds', result: 'pass' },
    ])
    expect(failure?.message).toBe('no payment is waiting in status 3ds')
  })

  it('acts on an APM simulator page and starts S2S CARD and S2S APM payments', async () => {
    const { result } = await one([
      {
        step: 'merchant.start',
        api: 's2s-apm',
        brand: 'sepa',
        identifier: 'x',
        order: { amount: '5.00', currency: 'EUR' },
        expect: { fields: { '$.result': 'REDIRECT' } },
      },
      { step: 'payer.apm', method: 'sepa', action: 'decline', expect: { fields: { '$.status': 'decline' } } },
      { ...s2sSale, expect: { fields: { '$.result': 'SUCCESS', '$.trans_id': { $exists: true } } } },
    ])
    expect(result.status).toBe('passed')
  })

  it('reports a refused payer action as the answer it is', async () => {
    const { failure } = await one([
      { ...start, fields: { session_expiry: 1 } },
      { step: 'payer.abandon' },
      { step: 'clock.advance', seconds: 120 },
      { step: 'payer.card', outcome: 'success' },
    ])
    expect(failure?.message).toMatch(/expected a successful answer, got HTTP 401 .*Session has expired\./)
  })
})

describe('gateway.call', () => {
  it('signs Checkout and S2S requests and checks catalogue rows exactly', async () => {
    const { result } = await one([
      s2sSale,
      {
        step: 'gateway.call',
        api: 's2s-card',
        action: 'GET_TRANS_STATUS',
        body: { trans_id: ref('trans_id') },
        expect: { fields: { '$.status': 'SETTLED' } },
      },
      {
        step: 'gateway.call',
        api: 'checkout',
        path: '/api/v1/payment/status',
        body: { payment_id: 'nope' },
        expect: { error: 'CHECKOUT_STATUS_PAYMENT_NOT_FOUND' },
      },
      {
        step: 'gateway.call',
        api: 'sandbox',
        method: 'GET',
        path: '/sandbox/health',
        expect: { fields: { '$.status': 'ok' } },
      },
    ])
    expect(result.status).toBe('passed')
  })

  it('names the row expected and the answer got', async () => {
    const { failure } = await one([
      {
        step: 'gateway.call',
        api: 'checkout',
        path: '/api/v1/payment/status',
        body: { payment_id: 'nope' },
        expect: { error: 'CHECKOUT_STATUS_ORDER_NOT_FOUND' },
      },
    ])
    expect(failure?.message).toContain(
      'expected error 400 / 101000 / "Order does not exist." (Errors row: "Checkout GET_TRANS_STATUS with unknown `order_id`"), got 400 / 101000 / "Payment does not exist."',
    )
  })

  it('sends unsigned requests when told, and checks answers against the endpoint schema', async () => {
    const { failure } = await one([
      {
        step: 'gateway.call',
        api: 'checkout',
        path: '/api/v1/payment/status',
        sign: false,
        body: { merchant_key: 'conformance-merchant', payment_id: 'x' },
        expect: { fields: { '$.payment_id': 'x' } },
      },
    ])
    expect(failure?.message).toMatch(/expected a successful answer, got HTTP 400/)
  })

  it('captures values by JSONPath and fails a capture that selects nothing', async () => {
    const { failure } = await one([{ ...start, capture: { nothing: '$.no.such.field' } }])
    expect(failure?.message).toMatch(
      /capture nothing: \$\.no\.such\.field selects nothing in the step's result \(it has: redirect_url, order, token\)/,
    )
  })

  // A duplicate checkout window (scenarios/merchant-order-lookup-without-size.json): a session's
  // page token, captured from merchant.start, pays that session after a later one was started.
  it('pays an earlier session by the token captured from its merchant.start', async () => {
    const { result } = await one([
      { ...start, capture: { first: '$.token' } },
      start,
      { step: 'payer.card', token: ref('first'), outcome: 'success', capture: { paid: '$.payment_id' } },
      { step: 'payer.card', outcome: 'decline' },
      {
        step: 'gateway.call',
        api: 'checkout',
        path: '/api/v1/payment/status',
        body: { payment_id: ref('paid') },
        expect: { fields: { '$.status': 'settled' } },
      },
    ])
    expect(result.status).toBe('passed')
  })
})

describe('callbacks and clock (gateway mode)', () => {
  it('expect.callback checks schema and signature, expect.no_callback the absence', async () => {
    const { result } = await one([
      start,
      { step: 'payer.card', outcome: '3ds_success' },
      { step: 'expect.callback', api: 'checkout', fields: { '$.type': '3ds' } },
      { step: 'expect.no_callback', fields: { '$.order_status': 'settled' } },
    ])
    expect(result.status).toBe('passed')
    const missing = await one([
      start,
      { step: 'payer.card', outcome: 'decline' },
      { step: 'expect.callback', api: 'checkout', fields: { '$.order_status': 'settled' } },
    ])
    expect(missing.failure?.message).toMatch(
      /no callback with \{"\$\.order_status":"settled"\} arrived; callbacks not yet matched: #0 sale\/decline \(fail\)/,
    )
    const extra = await one([
      start,
      { step: 'payer.card', outcome: 'success' },
      { step: 'expect.no_callback' },
    ])
    expect(extra.failure?.message).toBe('expected no callback, got #0 sale/settled (success)')
  })

  it('callbacks.fail makes the gateway retry after the clock moves; acknowledgement counts attempts', async () => {
    const steps = [
      { step: 'callbacks.fail', times: 2 },
      start,
      { step: 'payer.card', outcome: 'success' },
      { step: 'clock.advance', seconds: 60 },
    ]
    expect(
      (await one([...steps, { step: 'expect.callback_acknowledged', acknowledged: false }])).result.status,
    ).toBe('passed')
    const late = await one([
      ...steps,
      { step: 'clock.advance', seconds: 300 },
      { step: 'expect.callback_acknowledged', attempts: 2 },
    ])
    expect(late.failure?.message).toMatch(/acknowledged at attempt 3, expected by attempt 2/)
  })

  it('holds callbacks in manual mode and delivers them in the given order', async () => {
    const { result } = await one(
      [
        start,
        { step: 'payer.card', outcome: '3ds_success' },
        { step: 'payer.3ds', result: 'pass' },
        { step: 'callbacks.reorder', order: [1, 0], capture: { first: '$[0].fields.type' } },
        { step: 'expect.callback_acknowledged' },
      ],
      { callbacks: 'manual' },
    )
    expect(result.status).toBe('passed')
    const auto = await one([start, { step: 'payer.card', outcome: 'success' }, { step: 'callbacks.send' }])
    expect(auto.failure?.message).toMatch(/set "callbacks": "manual"/)
  })

  it('expect.redirect verifies the hash of the success redirect', async () => {
    const { result } = await one([
      start,
      { step: 'payer.card', outcome: 'success' },
      { step: 'expect.redirect', fields: { '$.order_id': ref('order_number') } },
    ])
    expect(result.status).toBe('passed')
  })

  it('a setup gives the scenario its own MIDs and Protocol Mapping', async () => {
    const { result } = await one(
      [{ ...s2sSale, fields: { moto_type: 'phone_moto' }, expect: { error: 'S2S_CARD_MOTO_NOT_ENABLED' } }],
      { setup: { mids: [{ id: 'plain', moto: false }] } },
    )
    expect(result.status).toBe('passed')
  })

  it('skips merchant-side steps of a both scenario in gateway mode, and still passes', async () => {
    const { result } = await one(
      [start, { step: 'expect.merchant_request', api: 'checkout', endpoint: { path: '/api/v1/session' } }],
      { mode: 'both' },
    )
    expect(result.status).toBe('passed')
    expect(result.steps[1]?.status).toBe('skipped')
  })
})
