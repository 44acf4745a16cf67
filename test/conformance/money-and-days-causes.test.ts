import { describe, expect, it } from 'vitest'
import type { CallbackRecord } from '../../src/conformance/callback-channel.js'
import { chainDiagnosis } from '../../src/conformance/chain-diagnosis.js'
import type { ScenarioContext } from '../../src/conformance/context.js'
import { refundedOnFinancialDayNote } from '../../src/conformance/financial-day-note.js'
import type { PayerReturn } from '../../src/conformance/payer-return.js'
import { payerReturnNote } from '../../src/conformance/payer-return.js'
import { declinedPayoutNote } from '../../src/conformance/payout-note.js'
import type { ObservedRequest } from '../../src/conformance/sandbox-host.js'
import type { Payment } from '../../src/core/engine/model.js'

/**
 * Issue 31, cause first: each new family's broken twin is headed by what it did, from what the kit
 * observed and its own gateway's ledger, and only then (a correct merchant's booking is never
 * explained by these notes).
 */

const DAY = 86_400_000
const T0 = Date.UTC(2026, 10, 2, 10)

let seq = 0
function request(
  path: string,
  body: Record<string, unknown>,
  json: unknown,
  at = T0,
  status = 200,
): ObservedRequest {
  return {
    seq: seq++,
    method: 'POST',
    path,
    headers: {},
    text: JSON.stringify(body),
    body,
    answer: { status, text: JSON.stringify(json), json },
    consumed: false,
    at,
  }
}

function payment(overrides: Partial<Payment>): Payment {
  return {
    id: 'p-1',
    api: 'checkout',
    merchant_key: 'k',
    mid_id: 'm',
    operation: 'purchase',
    method: 'card',
    order_id: 'o-1',
    order: { number: 'o-1', amount: '10.00', currency: 'EUR', description: 'd' },
    status: 'settled',
    auth: false,
    amount_captured: '10.00',
    amount_refunded: '0.00',
    created_at: T0,
    updated_at: T0,
    ...overrides,
  } as Payment
}

function ctxWith(
  options: {
    requests?: ObservedRequest[]
    payments?: Payment[]
    callbacks?: Partial<CallbackRecord>[]
    returns?: PayerReturn[]
  } = {},
): ScenarioContext {
  const payments = new Map((options.payments ?? []).map((p) => [p.id, p]))
  const store = {
    get: (_c: string, id: string) => payments.get(id),
    list: () => [...payments.values()],
  }
  return {
    mode: 'merchant',
    hosted: { requests: options.requests ?? [], gateway: { ctx: { store } } } as never,
    channel: { log: (options.callbacks ?? []) as CallbackRecord[], timeoutMs: 10_000 } as never,
    returns: options.returns ?? [],
  } as unknown as ScenarioContext
}

describe('a declined payout booked paid (docs/rules.md#card-credit)', () => {
  const payout = payment({
    id: 'po-1',
    order: { number: 'po', amount: '25.00', currency: 'EUR', description: 'd' },
    operation: 'credit',
    status: 'decline',
    decline_reason: 'Declined by processing.',
  })
  const credit = request(
    '/api/v1/payment/card/credit',
    { order_id: 'po', order_amount: '25.00' },
    { payment_id: 'po-1', result: 'accepted' },
  )
  const declined: Partial<CallbackRecord> = {
    index: 0,
    source: 'gateway',
    api: 'checkout',
    fields: { id: 'po-1', order_number: 'po', type: 'credit', order_status: 'decline', status: 'fail' },
    attempts: [],
  }

  it('is named with the answer that only accepted it and the callback that declined it', () => {
    const ctx = ctxWith({ requests: [credit], payments: [payout], callbacks: [declined] })
    expect(declinedPayoutNote(ctx, 'po', ['$.state: expected "failed", found "paid"'])).toBe(
      `it booked the payout paid from the gateway's answer to its POST /api/v1/payment/card/credit {order_amount "25.00", order_id "po"} → HTTP 200, which only says the payout was accepted; ` +
        'the gateway declined it (Declined by processing.), as its callback #0 credit/decline (fail) reported: ' +
        'book a payout by its outcome (its type=credit callback, or the status lookup), not by the answer that accepted it (docs/rules.md#card-credit)',
    )
  })

  it('is not named for a payout that settled, another wrong value, or an order that is no payout', () => {
    const settled = ctxWith({
      requests: [credit],
      payments: [{ ...payout, status: 'settled' }],
      callbacks: [declined],
    })
    expect(declinedPayoutNote(settled, 'po', ['$.state: expected "failed", found "paid"'])).toBeUndefined()
    const ctx = ctxWith({ requests: [credit], payments: [payout], callbacks: [declined] })
    expect(declinedPayoutNote(ctx, 'po', ['$.state: expected "failed", found "new"'])).toBeUndefined()
    const sale = ctxWith({ requests: [credit], payments: [{ ...payout, operation: 'purchase' }] })
    expect(declinedPayoutNote(sale, 'po', ['$.state: expected "failed", found "paid"'])).toBeUndefined()
  })
})

describe('a renewal refused "Incorrect transaction" (2.3)', () => {
  const initial = payment({ id: 'init', recurring: { init: true, token: 'tok', init_trans_id: 'init' } })
  const renewal = payment({
    id: 'ren-1',
    order: { number: 'o-1-R1', amount: '10.00', currency: 'EUR', description: 'd' },
    recurring: { init: false, init_trans_id: 'init', parent_payment_id: 'init' },
  })

  it('names the renewal it named and the chain initial payment to name instead', () => {
    const r = request(
      '/api/v1/payment/recurring',
      { recurring_init_trans_id: 'ren-1', recurring_token: 'tok' },
      {},
      T0,
      400,
    )
    const found = chainDiagnosis(r, ctxWith({ payments: [initial, renewal] }))
    expect(found?.cause).toBe(
      "the merchant stored a renewal as the chain's initial transaction: its recurring_init_trans_id names ren-1, a renewal of the chain (order o-1-R1, settled), not the chain's initial payment init (order o-1)",
    )
    expect(found?.fix).toMatch(/^send recurring_init_trans_id init, the initial payment's id/)
  })

  it('reads S2S recurring_first_trans_id; says nothing of an unknown id or the initial itself', () => {
    const s2s = request('/post', { action: 'RECURRING_SALE', recurring_first_trans_id: 'ren-1' }, {}, T0, 400)
    const ctx = ctxWith({ payments: [initial, renewal] })
    expect(chainDiagnosis(s2s, ctx)?.cause).toMatch(/: its recurring_first_trans_id names ren-1,/)
    const unknown = request(
      '/post',
      { action: 'RECURRING_SALE', recurring_first_trans_id: 'nope' },
      {},
      T0,
      400,
    )
    expect(chainDiagnosis(unknown, ctx)).toBeUndefined()
    const own = request('/post', { action: 'RECURRING_SALE', recurring_first_trans_id: 'init' }, {}, T0, 400)
    expect(chainDiagnosis(own, ctx)).toBeUndefined()
  })
})

describe("a refund sent on the payment's financial day where a VOID was expected (States and transitions)", () => {
  const captured = payment({ id: 'auth-1', auth: true, created_at: T0, financial_day: '2026-11-04' })

  it("names the day and, for a two-stage payment, that it is the capture's", () => {
    const refund = request(
      '/api/v1/payment/refund',
      { payment_id: 'auth-1' },
      { result: 'accepted' },
      T0 + 2 * DAY,
    )
    expect(refundedOnFinancialDayNote(ctxWith({ requests: [refund], payments: [captured] }))).toBe(
      'it refunded the payment instead (its POST /api/v1/payment/refund {payment_id "auth-1"} → HTTP 200) on 2026-11-04, ' +
        "the payment's financial day: it settled by its capture that day, after its authorization on 2026-11-02; " +
        "the financial day is the capture's, not the authorization's: on its financial day a settled payment is cancelled by VOID (States and transitions)",
    )
  })

  it('says nothing of a refund after the financial day or one already matched', () => {
    const late = request('/api/v1/payment/refund', { payment_id: 'auth-1' }, {}, T0 + 3 * DAY)
    expect(refundedOnFinancialDayNote(ctxWith({ requests: [late], payments: [captured] }))).toBeUndefined()
    const matched = {
      ...request('/api/v1/payment/refund', { payment_id: 'auth-1' }, {}, T0 + 2 * DAY),
      consumed: true,
    }
    expect(refundedOnFinancialDayNote(ctxWith({ requests: [matched], payments: [captured] }))).toBeUndefined()
  })
})

describe('a state set by the page the payer came back to (Events)', () => {
  const visit = (before: string, after: string, callbacks = [1, 1]): PayerReturn => ({
    order: 'o-1',
    url: 'http://127.0.0.1:9/payment/return?order_id=o-1',
    field: 'term_url_3ds',
    answer: 'HTTP 200',
    status: 'decline',
    reason: 'Declined by processing.',
    before: { state: before, callbacks_processed: callbacks[0] },
    after: { state: after, callbacks_processed: callbacks[1] },
    line: '',
  })

  it('is named with the page, what the order was before and what the gateway said', () => {
    const note = payerReturnNote(ctxWith({ returns: [visit('failed', 'paid')] }), 'o-1', [
      '$.state: expected "failed", found "paid"',
    ])
    expect(note).toBe(
      'it booked "paid" when its payer came back to GET http://127.0.0.1:9/payment/return?order_id=o-1 (term_url_3ds), with no callback or lookup saying so ' +
        `(before: state "failed", callbacks_processed 1); the gateway's payment was declined (Declined by processing.): ` +
        "the payer's return is no payment report, book what a callback or the status lookup says (Events)",
    )
  })

  it('is not named when a callback came with the change, or the page changed nothing', () => {
    const withCallback = ctxWith({ returns: [visit('pending', 'paid', [0, 1])] })
    expect(payerReturnNote(withCallback, 'o-1', ['$.state: expected "failed", found "paid"'])).toBeUndefined()
    const unchanged = ctxWith({ returns: [visit('paid', 'paid')] })
    expect(payerReturnNote(unchanged, 'o-1', ['$.state: expected "failed", found "paid"'])).toBeUndefined()
  })
})
