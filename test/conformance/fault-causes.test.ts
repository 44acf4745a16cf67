import { describe, expect, it } from 'vitest'
import type { CallbackRecord } from '../../src/conformance/callback-channel.js'
import { causesOf } from '../../src/conformance/causes.js'
import type { ScenarioContext } from '../../src/conformance/context.js'
import type { ObservedRequest } from '../../src/conformance/sandbox-host.js'
import type { Payment, Transaction } from '../../src/core/engine/model.js'

/**
 * The cause finder on gateway faults (docs/conformance.md, Gateway faults; issue 31): a money
 * action the gateway did whose answer a fault took away, sent again; a payout never looked up
 * after a 5xx page; a callback acknowledged although its confirming lookup failed. Each is read
 * from the request log, the callbacks' attempts and the gateway's ledger, never from messages.
 */

let seq = 0
function request(
  path: string,
  body: Record<string, unknown>,
  answer: { status: number; json?: unknown; text?: string },
  extra: Partial<ObservedRequest> = {},
): ObservedRequest {
  return {
    seq: seq++,
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(body),
    body,
    answer: { text: answer.text ?? JSON.stringify(answer.json ?? {}), ...answer },
    consumed: false,
    ...extra,
  }
}
const page = (status: number) => ({ status, text: `<html><title>${status}</title></html>` })
const lost503 = { fault: 'lost' }

const payment = (id: string, fields: Partial<Payment> = {}): Payment =>
  ({
    id,
    order_id: fields.order_id ?? `order-${id}`,
    order: { number: fields.order_id ?? `order-${id}`, amount: '10.00', currency: 'EUR' },
    status: 'settled',
    auth: false,
    amount_captured: '10.00',
    amount_refunded: '0.00',
    created_at: 1,
    ...fields,
  }) as Payment
const tx = (payment_id: string, type: Transaction['type'], amount: string, status = 'success'): Transaction =>
  ({
    id: `${payment_id}-${type}-${amount}-${seq++}`,
    payment_id,
    type,
    amount,
    status,
    created_at: 2,
  }) as Transaction

function ctxWith(
  requests: ObservedRequest[],
  ledger: { payments?: Payment[]; transactions?: Transaction[] } = {},
  callbacks: Partial<CallbackRecord>[] = [],
): ScenarioContext {
  const payments = ledger.payments ?? []
  const transactions = ledger.transactions ?? []
  const store = {
    get: (_: string, id: string) => payments.find((p) => p.id === id),
    findBy: (collection: string, field: string, value: string) =>
      collection === 'payments'
        ? payments.filter((p) => (p as unknown as Record<string, unknown>)[field] === value)
        : transactions.filter((t) => (t as unknown as Record<string, unknown>)[field] === value),
  }
  return {
    mode: 'merchant',
    credentials: { merchant_key: 'ref-merchant', password: 'ref-password-0123456789abcdef' },
    hosted: { requests, gateway: { ctx: { store } } } as never,
    channel: { log: callbacks as CallbackRecord[], timeoutMs: 10_000 } as never,
  } as unknown as ScenarioContext
}

describe('a money action sent again after a fault', () => {
  it('a refund done twice: "the same refund was sent twice: 4.00 refunded twice", with the ledger', () => {
    const refund = { merchant_key: 'k', payment_id: 'pay-1', amount: '4.00', hash: 'h' }
    const ctx = ctxWith(
      [
        request('/api/v1/payment/refund', refund, page(503), lost503),
        request('/api/v1/payment/refund', refund, { status: 200, json: { result: 'accepted' } }),
      ],
      {
        payments: [payment('pay-1', { status: 'refund', amount_refunded: '8.00' })],
        transactions: [
          tx('pay-1', 'sale', '10.00'),
          tx('pay-1', 'refund', '4.00'),
          tx('pay-1', 'refund', '4.00'),
        ],
      },
    )
    const [first, ...rest] = causesOf(ctx)
    expect(rest).toEqual([])
    expect(first?.kind).toBe('resent-action')
    expect(first?.headline).toBe(
      'the same refund was sent twice: the merchant sent POST /api/v1/payment/refund (amount 4.00) again without looking the payment up first, where its earlier one was done and a proxy answered HTTP 503 (an HTML page) in its place (sandbox fault "lost") (one refund, done once: docs/conformance.md, Gateway faults): the gateway did that one too, 4.00 refunded twice (payment pay-1: 10.00 EUR charged, 8.00 refunded, by the gateway\'s ledger)',
    )
    expect(first?.fix).toMatch(
      /^treat an unanswered refund as an unknown outcome: look the payment up \(POST \/api\/v1\/payment\/status by payment_id\)/,
    )
  })

  it('a capture sent again after a late answer, refused: the resend heads, the refusal follows', () => {
    const capture = { action: 'CAPTURE', client_key: 'k', trans_id: 'pay-2', hash: 'h' }
    const ctx = ctxWith(
      [
        request(
          '/post',
          capture,
          { status: 0, text: '(no answer)' },
          { fault: 'late', late: { ms: 5000, delivered: false } },
        ),
        request(
          '/post',
          { action: 'GET_TRANS_STATUS', client_key: 'k', trans_id: 'pay-2', hash: 'h' },
          { status: 200, json: { status: 'SETTLED' } },
        ),
        request('/post', capture, {
          status: 400,
          json: { result: 'ERROR', error_message: 'Not acceptable.' },
        }),
      ],
      {
        payments: [payment('pay-2')],
        transactions: [tx('pay-2', 'auth', '10.00'), tx('pay-2', 'capture', '10.00')],
      },
    )
    const found = causesOf(ctx)
    expect(found.map((f) => f.kind)).toEqual(['resent-action', 'refused-request'])
    expect(found[0]?.headline).toBe(
      'the same capture was sent twice: the merchant sent POST /post CAPTURE again after its POST /post GET_TRANS_STATUS, which answered SETTLED, where its earlier one was done and its answer held until the merchant\'s client gave up (sandbox fault "late") (one capture, done once: docs/conformance.md, Gateway faults): the gateway refused it (HTTP 400) (payment pay-2: 10.00 EUR charged, 0.00 refunded, by the gateway\'s ledger)',
    )
  })

  it('no finding when the first was not done (error page) or its late answer reached the merchant', () => {
    const refund = { merchant_key: 'k', payment_id: 'pay-3', amount: '4.00', hash: 'h' }
    const undone = ctxWith([
      request('/api/v1/payment/refund', refund, page(503), { fault: 'error' }),
      request('/api/v1/payment/refund', refund, { status: 200, json: { result: 'accepted' } }),
    ])
    expect(causesOf(undone)).toEqual([])
    const answered = ctxWith([
      request(
        '/api/v1/payment/refund',
        refund,
        { status: 200, json: { result: 'accepted' } },
        { fault: 'late', late: { ms: 900, delivered: true } },
      ),
      request('/api/v1/payment/refund', refund, { status: 200, json: { result: 'accepted' } }),
    ])
    expect(causesOf(answered)).toEqual([])
  })

  it('a payout answered 503 and never looked up: an unknown outcome booked as the merchant pleased', () => {
    const credit = {
      merchant_key: 'k',
      order_id: 'po-1',
      order_amount: '25.00',
      order_currency: 'EUR',
      hash: 'h',
    }
    const [first] = causesOf(ctxWith([request('/api/v1/payment/card/credit', credit, page(503), lost503)]))
    expect(first?.kind).toBe('unknown-outcome')
    expect(first?.headline).toBe(
      'the merchant never looked order po-1 up after its POST /api/v1/payment/card/credit got a proxy\'s HTTP 503 page: the gateway did it and a proxy answered HTTP 503 (an HTML page) in its place (sandbox fault "lost"); a payout whose answer never came is an unknown outcome, which only the status lookup of its order settles',
    )
  })

  it('a SALE sent again after its late answer: charged twice, the first done while the client waited', () => {
    const sale = { action: 'SALE', client_key: 'k', order_id: 'o-9', order_amount: '10.00', hash: 'h' }
    const [first] = causesOf(
      ctxWith([
        request(
          '/post',
          sale,
          { status: 0, text: '(no answer)' },
          { fault: 'late', late: { ms: 5000, delivered: false } },
        ),
        request('/post', sale, { status: 200, json: { status: 'SETTLED', trans_id: 't-2' } }),
      ]),
    )
    expect(first?.kind).toBe('double-charge')
    expect(first?.headline).toMatch(
      /^the merchant sent POST \/post SALE again for order o-9 without looking the order up first, where its earlier POST \/post SALE was done and its answer held until the merchant's client gave up \(sandbox fault "late"\) \(one order, one charge: [^)]*\): the gateway did the second too \(HTTP 200 SETTLED, trans_id t-2\), and the payer is charged twice for order o-9/,
    )
  })
})

describe('a callback acknowledged although its confirming lookup failed', () => {
  const callback = (attempts: CallbackRecord['attempts']): Partial<CallbackRecord> => ({
    index: 0,
    source: 'gateway',
    api: 'checkout',
    url: 'http://shop/cb',
    text: 'id=pay-5&order_number=o-5',
    fields: { id: 'pay-5', order_number: 'o-5', type: 'sale', order_status: 'settled', status: 'success' },
    attempts,
  })
  const lookup = (
    answer: { status: number; text?: string; json?: unknown },
    extra: Partial<ObservedRequest> = {},
  ) => request('/api/v1/payment/status', { merchant_key: 'k', payment_id: 'pay-5', hash: 'h' }, answer, extra)

  it('acknowledged at the first attempt, its lookup answered 503 and not tried again: named', () => {
    seq = 100
    const failed = lookup(page(503), { fault: 'error' })
    const ctx = ctxWith([failed], {}, [
      callback([
        { status: 200, body: 'OK', acknowledged: true, ms: 3, requests: { before: 100, after: 100 } },
      ]),
    ])
    const [first] = causesOf(ctx)
    expect(first?.kind).toBe('unapplied-callback')
    expect(first?.headline).toBe(
      'the merchant acknowledged #0 sale/settled (success) (attempt 1) although its status lookup of the payment (POST /api/v1/payment/status) got a proxy\'s HTTP 503 page (sandbox fault "error") and was not tried again: an acknowledged callback is never sent again, so what it reported was never confirmed nor applied',
    )
  })

  it('answered 503 while the lookup failed, acknowledged at the retry once it worked: not this finding', () => {
    seq = 200
    const failed = lookup(page(503), { fault: 'error' })
    const ok = lookup({ status: 200, json: { status: 'settled' } })
    const ctx = ctxWith([failed, ok], {}, [
      callback([
        { status: 503, body: 'later', acknowledged: false, ms: 3, requests: { before: 200, after: 201 } },
        { status: 200, body: 'OK', acknowledged: true, ms: 3, requests: { before: 201, after: 202 } },
      ]),
    ])
    expect(causesOf(ctx).map((f) => f.kind)).not.toContain('unapplied-callback')
  })
})
