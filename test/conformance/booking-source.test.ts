import { describe, expect, it } from 'vitest'
import type { CallbackRecord } from '../../src/conformance/callback-channel.js'
import type { ScenarioContext } from '../../src/conformance/context.js'
import {
  captureNote,
  changedWithoutCallbackNote,
  earlierPaymentNote,
  lastCallbackNote,
  orderLookupNote,
  pickedPaymentNote,
  refusedRefundNote,
  repeatedCallbackNote,
} from '../../src/conformance/booking-source.js'
import type { ObservedRequest } from '../../src/conformance/sandbox-host.js'
import type { Payment } from '../../src/core/engine/model.js'

/**
 * Issue 23 (requirement 1, headlines derived from what was observed; requirement 4, several
 * payments under one order number): a wrong booking that came from a Checkout status lookup by
 * order_id without size (Endpoints: "omitted gives one object (newest payment)") is named with
 * that lookup, and only then: never for an order of one payment, a lookup with size, or a
 * booking the lookup did not answer. Issue 30, item 5: words about order ("the first", "the
 * newest") come from the ledger's order of the order's payments.
 */

let seq = 0
function lookup(body: Record<string, unknown>, json: unknown): ObservedRequest {
  return {
    seq: seq++,
    method: 'POST',
    path: '/api/v1/payment/status',
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(body),
    body,
    answer: { status: 200, text: JSON.stringify(json), json },
    consumed: false,
  }
}
const callback = (
  index: number,
  id: string,
  orderStatus: string,
  acknowledged = true,
  type = 'sale',
): Partial<CallbackRecord> => ({
  index,
  source: 'gateway',
  api: 'checkout',
  fields: { id, order_number: 'two-windows', order_status: orderStatus, type, status: 'success' },
  attempts: [{ acknowledged, status: acknowledged ? 200 : 400, ms: 1 }],
})
/** The kit's gateway's ledger: the order's payments as the gateway made them (`created_at`). */
const ledger = (payments: Partial<Payment>[]) => {
  const all = payments.map((p) => ({ merchant_key: 'k', api: 'checkout', ...p }) as Payment)
  return {
    get: (_: string, id: string) => all.find((p) => p.id === id),
    findBy: (_: string, field: keyof Payment, value: string) => all.filter((p) => p[field] === value),
  }
}
function ctxWith(
  requests: ObservedRequest[],
  callbacks: Partial<CallbackRecord>[],
  payments: Partial<Payment>[] = [],
): ScenarioContext {
  return {
    mode: 'merchant',
    credentials: { merchant_key: 'k', password: 'p' },
    hosted: { requests, gateway: { ctx: { store: ledger(payments) } } } as never,
    channel: { log: callbacks as CallbackRecord[], timeoutMs: 10_000 } as never,
  } as unknown as ScenarioContext
}
const made = (id: string, status: string, at: number, api = 'checkout'): Partial<Payment> =>
  ({
    id,
    order_id: id.startsWith('trans') ? 's2s-shared' : 'two-windows',
    status,
    created_at: at,
    api,
  }) as Partial<Payment>
/** The ledger of the order "two-windows": settled first, then a declined payment. */
const settledThenDeclined = [made('pay-settled', 'settled', 1), made('pay-declined', 'decline', 2)]
const twoPayments = [callback(0, 'pay-settled', 'settled'), callback(1, 'pay-declined', 'decline')]
const newest = { payment_id: 'pay-declined', status: 'decline', order: { number: 'two-windows' } }

describe('a booking taken from a lookup by order_id without size', () => {
  it('is named with the lookup, the newest payment it answered and the payments the kit saw', () => {
    const ctx = ctxWith(
      [lookup({ merchant_key: 'k', order_id: 'two-windows', hash: 'h' }, newest)],
      twoPayments,
      settledThenDeclined,
    )
    const note = orderLookupNote(ctx, 'two-windows', { state: 'paid', payment_id: 'pay-declined' })
    expect(note).toBe(
      'it booked the answer of its POST /api/v1/payment/status {order_id "two-windows"} → HTTP 200 (by order_id without size), ' +
        "which is only the order's newest payment (pay-declined decline); the order has 2 payments (also pay-settled settled): " +
        'look an order with several payments up with size and book the one that settled (docs/rules.md#status-lookups)',
    )
  })

  it('is not named for an order of one payment, a lookup with size, or another booked payment', () => {
    const single = ctxWith(
      [lookup({ order_id: 'two-windows' }, { payment_id: 'pay-settled', status: 'settled' })],
      [callback(0, 'pay-settled', 'settled')],
      [made('pay-settled', 'settled', 1)],
    )
    expect(orderLookupNote(single, 'two-windows', { payment_id: 'pay-settled' })).toBeUndefined()
    const sized = ctxWith(
      [lookup({ order_id: 'two-windows', size: 10 }, [newest])],
      twoPayments,
      settledThenDeclined,
    )
    expect(orderLookupNote(sized, 'two-windows', { payment_id: 'pay-declined' })).toBeUndefined()
    const other = ctxWith([lookup({ order_id: 'two-windows' }, newest)], twoPayments, settledThenDeclined)
    expect(orderLookupNote(other, 'two-windows', { payment_id: 'pay-settled' })).toBeUndefined()
    expect(orderLookupNote(other, 'another-order', { payment_id: 'pay-declined' })).toBeUndefined()
  })
})

// A wrong state is shown with the last report about the order that the merchant acknowledged
// (it took the report and did not book it, or booked it wrongly), never with one it refused.
describe('a wrong state', () => {
  it('is shown with the last callback the merchant acknowledged about the order', () => {
    const ctx = ctxWith(
      [],
      [
        callback(0, 'pay-1', 'settled'),
        callback(1, 'pay-1', 'void', true, 'void'),
        callback(2, 'pay-1', 'void', false, 'void'),
      ],
    )
    expect(lastCallbackNote(ctx, 'two-windows')).toBe(
      'the last callback it acknowledged about this order: #1 void/void (success)',
    )
    expect(lastCallbackNote(ctx, 'another-order')).toBeUndefined()
  })
})

// Gateway faults (docs/conformance.md) and Events: a refund the gateway refused or never answered
// moved no money; a merchant that booked it anyway is told so, with the request, unless a refund
// was reported (an accepted refund, a refund callback).
describe('a refund booked from a refused or unanswered request', () => {
  const refund = (status: number, fault?: string): ObservedRequest => ({
    seq: seq++,
    method: 'POST',
    path: '/api/v1/payment/refund',
    headers: { 'content-type': 'application/json' },
    text: '{}',
    body: { payment_id: 'pay-settled', amount: '4.00', hash: 'h' },
    answer: { status, text: '' },
    consumed: false,
    ...(fault ? { fault } : {}),
  })
  const paid = [callback(0, 'pay-settled', 'settled')]
  const wrong = ['$.amount_refunded: expected "0.00", found "4.00"']

  it('is named with the refused request and the fault that answered it', () => {
    const note = refusedRefundNote(
      ctxWith([refund(503, 'error')], paid, settledThenDeclined),
      'two-windows',
      wrong,
    )
    expect(note).toBe(
      'it booked a refund the gateway did not do: its POST /api/v1/payment/refund {amount "4.00", payment_id "pay-settled"} → HTTP 503 ' +
        '(sandbox fault "error": the gateway did nothing), and no refund callback came: book a refund when the gateway reports it done ' +
        '(its answer, a refund callback or the status lookup), never from a refused or unanswered request',
    )
  })

  it('is not named when a refund was accepted or reported, or the wrong value is not a refund', () => {
    expect(
      refusedRefundNote(ctxWith([refund(503), refund(200)], paid, settledThenDeclined), 'two-windows', wrong),
    ).toBeUndefined()
    const reported = [...paid, callback(1, 'pay-settled', 'partially_refunded', true, 'refund')]
    expect(
      refusedRefundNote(ctxWith([refund(503)], reported, settledThenDeclined), 'two-windows', wrong),
    ).toBeUndefined()
    const state = ['$.state: expected "paid", found "failed"']
    expect(
      refusedRefundNote(ctxWith([refund(503)], paid, settledThenDeclined), 'two-windows', state),
    ).toBeUndefined()
    expect(refusedRefundNote(ctxWith([], paid, settledThenDeclined), 'two-windows', wrong)).toBeUndefined()
  })
})

// Events and docs/rules.md#callbacks (a callback may come more than once), States and transitions
// (a partial capture settles what was captured), Endpoints (status by order_id with size answers
// the order's payments newest first): each wrong booking is named with what the kit saw cause it.
describe('a callback booked twice, a partial capture booked whole, the wrong payment of a lookup with size', () => {
  const view = (paid: string) => ({ state: 'paid', amount_paid: paid })

  it('names the repeat that changed the order, and nothing when repeats changed nothing', () => {
    const repeat = {
      ...callback(1, 'pay-settled', 'settled'),
      source: 'duplicate',
      effect: { before: view('10.00'), after: view('20.00') },
    } as Partial<CallbackRecord>
    const note = repeatedCallbackNote(
      ctxWith([], [callback(0, 'pay-settled', 'settled'), repeat]),
      'two-windows',
    )
    expect(note).toMatch(
      /^it booked the same callback twice: the kit sent #1 sale\/settled \(success\).* again and its order changed: amount_paid "10\.00" → "20\.00"; a callback may come more than once/,
    )
    const harmless = {
      ...repeat,
      effect: { before: view('10.00'), after: view('10.00') },
    } as Partial<CallbackRecord>
    expect(repeatedCallbackNote(ctxWith([], [harmless]), 'two-windows')).toBeUndefined()
  })

  it('names the accepted capture of the expected amount, and nothing without one', () => {
    const capture = (amount: string, status = 200): ObservedRequest => ({
      seq: seq++,
      method: 'POST',
      path: '/api/v1/payment/capture',
      headers: {},
      text: '',
      body: { payment_id: 'pay-settled', amount, hash: 'h' },
      answer: { status, text: '' },
      consumed: false,
    })
    const paid = [callback(0, 'pay-settled', 'settled')]
    const wrong = ['$.amount_paid: expected "6.00", found "10.00"']
    expect(captureNote(ctxWith([capture('6.00')], paid, settledThenDeclined), 'two-windows', wrong)).toBe(
      'it captured 6.00 (its POST /api/v1/payment/capture {amount "6.00", payment_id "pay-settled"} → HTTP 200) and booked 10.00: ' +
        "a partial capture settles the amount captured, not the order's amount (States and transitions)",
    )
    expect(
      captureNote(ctxWith([capture('6.00', 400)], paid, settledThenDeclined), 'two-windows', wrong),
    ).toBeUndefined()
    expect(
      captureNote(ctxWith([capture('4.00')], paid, settledThenDeclined), 'two-windows', wrong),
    ).toBeUndefined()
  })

  it('names the payment booked from a lookup with size and the one that settled', () => {
    const list = [
      { payment_id: 'pay-settled', status: 'settled' },
      { payment_id: 'pay-declined', status: 'decline' },
    ]
    // The ledger says which came first, whatever order the answer lists them in.
    const declinedFirst = [made('pay-declined', 'decline', 1), made('pay-settled', 'settled', 2)]
    const ctx = ctxWith([lookup({ order_id: 'two-windows', size: 10 }, list)], twoPayments, declinedFirst)
    const wrong = ['$.payment_id: expected "pay-settled", found "pay-declined"']
    expect(pickedPaymentNote(ctx, 'two-windows', wrong)).toBe(
      'it booked pay-declined (decline), the order\'s first payment, one of the 2 payments its POST /api/v1/payment/status {order_id "two-windows", size 10} → HTTP 200 ' +
        'answered; the one that settled is pay-settled: book the payment that settled (docs/rules.md#status-lookups)',
    )
    const unsized = ctxWith([lookup({ order_id: 'two-windows' }, list[1])], twoPayments)
    expect(pickedPaymentNote(unsized, 'two-windows', wrong)).toBeUndefined()
  })
})

describe('a booking of an earlier payment of the order (a SALE sent again under its order number)', () => {
  const s2s = (index: number, transId: string, status: string): Partial<CallbackRecord> => ({
    index,
    source: 'gateway',
    api: 's2s-card',
    fields: { action: 'SALE', order_id: 's2s-shared', trans_id: transId, status },
    attempts: [{ acknowledged: true, status: 200, ms: 1 }],
  })
  const retried = [s2s(0, 'trans-declined', 'DECLINED'), s2s(1, 'trans-settled', 'SETTLED')]
  const ledgerOf = [
    made('trans-declined', 'decline', 1, 's2s-card'),
    made('trans-settled', 'settled', 2, 's2s-card'),
  ]

  it('names the payment kept, its status, every payment of the order and the one that settled', () => {
    const note = earlierPaymentNote(ctxWith([], retried, ledgerOf), 's2s-shared', [
      '$.payment_id: expected "trans-settled", found "trans-declined"',
    ])
    expect(note).toBe(
      "it booked trans-declined (DECLINED), the order's first payment; the order has 2 payments (trans-declined DECLINED, trans-settled SETTLED) and the one that settled is trans-settled: a payment sent again under the same order number is a new payment with its own id (S2S trans_id, Checkout payment_id): keep the id of each answer and book, look up and refund the one that settled (Endpoints)",
    )
  })

  it('says nothing for an order of one payment, an id the kit never saw, or no wrong payment_id', () => {
    const wrong = ['$.payment_id: expected "trans-settled", found "trans-declined"']
    expect(earlierPaymentNote(ctxWith([], retried, ledgerOf.slice(1)), 's2s-shared', wrong)).toBe(undefined)
    expect(
      earlierPaymentNote(ctxWith([], retried, ledgerOf), 's2s-shared', [
        '$.payment_id: expected "trans-settled", found "made-up"',
      ]),
    ).toBe(undefined)
    expect(
      earlierPaymentNote(ctxWith([], retried, ledgerOf), 's2s-shared', [
        '$.state: expected "paid", found "failed"',
      ]),
    ).toBe(undefined)
    expect(earlierPaymentNote(ctxWith([], retried, ledgerOf), 'another-order', wrong)).toBe(undefined)
  })
})

// Events: only a callback or the status lookup reports a payment. A wrong state the merchant set
// while it booked no callback (a return page) is named with the step after which it changed.
describe('a state changed with no callback booked', () => {
  const at = (label: string, state: string, callbacks: number) => ({
    label,
    order: 'two-windows',
    view: { state, callbacks_processed: callbacks },
  })
  const ctxTimeline = (timeline: ReturnType<typeof at>[]) =>
    ({ ...ctxWith([], []), timeline }) as unknown as ScenarioContext
  const wrong = ['$.state: expected "failed", found "paid"']

  it('names the step after which it changed', () => {
    const ctx = ctxTimeline([
      at('1. merchant.start', 'new', 0),
      at('2. payer.card decline', 'failed', 1),
      at('4. expect.redirect success', 'paid', 1),
    ])
    expect(changedWithoutCallbackNote(ctx, 'two-windows', wrong)).toBe(
      'its state became "paid" after 4. expect.redirect success, with no callback booked (callbacks_processed stayed 1): only a callback or the status lookup reports a payment (Events)',
    )
  })

  it('says nothing when a callback came with the change', () => {
    const ctx = ctxTimeline([at('1. merchant.start', 'new', 0), at('2. payer.card success', 'paid', 1)])
    expect(changedWithoutCallbackNote(ctx, 'two-windows', wrong)).toBeUndefined()
  })
})
