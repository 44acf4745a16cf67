import { describe, expect, it } from 'vitest'
import type { CallbackRecord } from '../../src/conformance/callback-channel.js'
import { causesOf, findingLines, isRefused, maskCards } from '../../src/conformance/causes.js'
import type { ScenarioContext } from '../../src/conformance/context.js'
import type { ObservedRequest } from '../../src/conformance/sandbox-host.js'
import { signatures } from '../../src/index.js'

/**
 * Cause first (issue 23, requirement 1; docs/conformance.md, Read a failure): each kind of cause
 * the kit observes becomes a finding whose headline names it, with the request as sent, the
 * gateway's answer, the rule and the fix. The headline is derived from the observation.
 */

const PASSWORD = 'ref-password-0123456789abcdef'
let seq = 0
function request(
  path: string,
  body: Record<string, unknown>,
  answer: { status: number; json?: unknown; warnings?: string[]; text?: string },
  extra: Partial<ObservedRequest> = {},
): ObservedRequest {
  const form = path === '/post'
  const text = form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body)
  return {
    seq: seq++,
    method: 'POST',
    path,
    headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    text,
    body,
    answer: { text: answer.text ?? JSON.stringify(answer.json ?? {}), ...answer },
    consumed: false,
    ...extra,
  }
}
const invalid = (...messages: string[]) => ({
  status: 400,
  json: {
    error_code: 0,
    error_message: 'Request data is invalid.',
    errors: messages.map((m) => ({ error_code: 100000, error_message: m })),
  },
})
function ctxWith(requests: ObservedRequest[], callbacks: Partial<CallbackRecord>[] = []): ScenarioContext {
  return {
    mode: 'merchant',
    credentials: { merchant_key: 'ref-merchant', password: PASSWORD },
    hosted: { requests } as never,
    channel: { log: callbacks as CallbackRecord[], timeoutMs: 10_000 } as never,
  } as unknown as ScenarioContext
}
const order = { number: 'o-1', amount: '10.00', currency: 'EUR', description: 'Order o-1' }

describe('the headline names the cause', () => {
  it('an unsigned Checkout status lookup: the refused lookup, its formula and the hash it should carry', () => {
    const ctx = ctxWith([
      request('/api/v1/session', { merchant_key: 'ref-merchant', order }, { status: 200, json: {} }),
      request(
        '/api/v1/payment/status',
        { merchant_key: 'ref-merchant', payment_id: 'pay-1' },
        invalid('hash: This value should not be blank.'),
      ),
    ])
    const [first, ...rest] = causesOf(ctx)
    expect(rest).toEqual([])
    expect(first?.headline).toBe(
      "the gateway refused the merchant's POST /api/v1/payment/status (HTTP 400): hash: This value should not be blank.",
    )
    expect(first?.rule).toMatch(/sha1\(md5\(upper\(payment_id \+ password\)\)\)/)
    expect(first?.fix).toBe(
      `sign the request: it carried no hash; with the adapter's password this one is ${signatures.checkout.paymentOperation('pay-1', PASSWORD)}`,
    )
  })

  it('session_expiry in seconds: the refused session request, the minutes rule, and the value in minutes', () => {
    const [first] = causesOf(
      ctxWith([
        request(
          '/api/v1/session',
          { order, session_expiry: 1800 },
          invalid('session_expiry: This value should be less than or equal to 720.'),
        ),
      ]),
    )
    expect(first?.headline).toMatch(
      /refused the merchant's POST \/api\/v1\/session \(HTTP 400\): session_expiry: /,
    )
    expect(first?.rule).toMatch(/whole number of minutes, 1 to 720/)
    expect(first?.fix).toBe('session_expiry 1800 looks like seconds: send minutes (30)')
  })

  it('an amount sent as a JSON number: the refused session request and "send it as a string"', () => {
    const [first] = causesOf(
      ctxWith([
        request(
          '/api/v1/session',
          { order: { ...order, amount: 10 } },
          invalid('order.amount: This value should be of type string.'),
        ),
      ]),
    )
    expect(first?.headline).toMatch(/POST \/api\/v1\/session \(HTTP 400\): order\.amount: /)
    expect(first?.rule).toMatch(/decimal strings with exactly the currency's decimals/)
    expect(first?.fix).toBe(
      'send order.amount as a string ("10.00" for a 2-decimal currency), not the JSON number 10',
    )
  })

  it('a form callback read as JSON: the unacknowledged callback, its answer and the content-type handling', () => {
    const callback: Partial<CallbackRecord> = {
      index: 0,
      source: 'gateway',
      api: 'checkout',
      url: 'http://127.0.0.1:1/gateway/callback',
      fields: { type: 'sale', order_status: 'settled', status: 'success', card: '4111111111111111' },
      text: 'type=sale&order_status=settled&status=success&card=4111111111111111',
      attempts: [
        {
          status: 500,
          body: 'SyntaxError: Unexpected token t in JSON at position 0',
          acknowledged: false,
          ms: 3,
        },
      ],
    }
    const [first] = causesOf(ctxWith([], [callback]))
    expect(first?.kind).toBe('unacknowledged-callback')
    expect(first?.headline).toMatch(
      /^the merchant did not acknowledge #0 sale\/settled \(success\): attempt 1: HTTP 500 .*could not read the body: callbacks are form-encoded \(application\/x-www-form-urlencoded\), not JSON$/,
    )
    expect(first?.fix).toMatch(/parse the callback body as a form/)
    expect(first?.request).not.toMatch(/4111111111111111/)
  })

  it('a refused request comes before a callback it led to, and a warning is a cause of its own', () => {
    const ctx = ctxWith(
      [
        request(
          '/api/v1/session',
          { order: { ...order, amount: '10' } },
          {
            status: 200,
            json: {},
            warnings: ['order.amount: 10 EUR; documented: 10.00 (two decimals); source: 2.1.1'],
          },
        ),
        request(
          '/api/v1/payment/status',
          { payment_id: 'p' },
          invalid('hash: This value should not be blank.'),
        ),
      ],
      [
        {
          index: 0,
          source: 'gateway',
          api: 'checkout',
          fields: { type: 'sale', order_status: 'settled', status: 'success' },
          text: '',
          url: 'u',
          attempts: [{ status: 503, body: 'status lookup failed', acknowledged: false, ms: 1 }],
        },
      ],
    )
    expect(causesOf(ctx).map((f) => f.kind)).toEqual([
      'warning',
      'refused-request',
      'unacknowledged-callback',
    ])
    expect(causesOf(ctx)[0]?.fix).toBe('send it as documented: 10.00 (two decimals)')
  })

  it('a refund above what remains: the refused refund and "at most what remains", not a format rule', () => {
    const [first] = causesOf(
      ctxWith([
        request(
          '/api/v1/payment/refund',
          { payment_id: 'p', amount: '10.00' },
          invalid('amount: Not acceptable to request the refund for amount bigger than payment amount.'),
        ),
      ]),
    )
    expect(first?.rule).toMatch(/at most what the payment has left/)
    expect(first?.fix).toBe('send at most what remains, or no amount for all of it (it was "10.00")')
  })

  it('a rule changed in 6.7.0 says so', () => {
    const [first] = causesOf(
      ctxWith([
        request(
          '/post',
          { action: 'CREATE_SCHEDULE', delays: '3' },
          {
            status: 400,
            json: { result: 'ERROR', error_code: 100000, error_message: 'delays: Parameter is deprecated.' },
          },
        ),
      ]),
    )
    expect(first?.rule).toMatch(
      /this rule changed between releases 6\.6\.5 and 6\.7\.0: schedules: `delays` was accepted up to 6\.6\.5/,
    )
  })
})

describe('what is not a cause', () => {
  it('an answer a gateway fault made, a refusal a step expected, a not-found status lookup', () => {
    const faulted = request('/post', { action: 'SALE' }, { status: 503, text: '<html>' }, { fault: 'error' })
    const expected = request('/api/v1/session', { order }, invalid('hash: Hash is not valid.'), {
      expectedRefusal: true,
    })
    const notFound = request(
      '/post',
      { action: 'GET_TRANS_STATUS_BY_ORDER', order_id: 'x' },
      { status: 400, json: { result: 'ERROR', error_code: 101000, error_message: 'Order does not exist.' } },
    )
    for (const r of [faulted, expected, notFound]) expect(isRefused(r)).toBe(false)
    expect(causesOf(ctxWith([faulted, expected, notFound]))).toEqual([])
  })

  it('card numbers never appear in full', () => {
    expect(maskCards('card_number=4111111111111111&x=1')).toBe('card_number=411111******1111&x=1')
    const finding = causesOf(
      ctxWith([
        request(
          '/post',
          { action: 'SALE', card_number: '4111111111111111' },
          invalid('hash: Hash is not valid.'),
        ),
      ]),
    )[0]
    expect(findingLines(finding as never).join('\n')).not.toMatch(/4111111111111111/)
  })
})
