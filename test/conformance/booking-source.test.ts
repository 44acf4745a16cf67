import { describe, expect, it } from 'vitest'
import type { CallbackRecord } from '../../src/conformance/callback-channel.js'
import type { ScenarioContext } from '../../src/conformance/context.js'
import { lastCallbackNote, orderLookupNote } from '../../src/conformance/booking-source.js'
import type { ObservedRequest } from '../../src/conformance/sandbox-host.js'

/**
 * Issue 23 (requirement 1, headlines derived from what was observed; requirement 4, several
 * payments under one order number): a wrong booking that came from a Checkout status lookup by
 * order_id without size (Endpoints: "omitted gives one object (newest payment)") is named with
 * that lookup, and only then: never for an order of one payment, a lookup with size, or a
 * booking the lookup did not answer.
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
function ctxWith(requests: ObservedRequest[], callbacks: Partial<CallbackRecord>[]): ScenarioContext {
  return {
    mode: 'merchant',
    hosted: { requests } as never,
    channel: { log: callbacks as CallbackRecord[], timeoutMs: 10_000 } as never,
  } as unknown as ScenarioContext
}
const twoPayments = [callback(0, 'pay-settled', 'settled'), callback(1, 'pay-declined', 'decline')]
const newest = { payment_id: 'pay-declined', status: 'decline', order: { number: 'two-windows' } }

describe('a booking taken from a lookup by order_id without size', () => {
  it('is named with the lookup, the newest payment it answered and the payments the kit saw', () => {
    const ctx = ctxWith(
      [lookup({ merchant_key: 'k', order_id: 'two-windows', hash: 'h' }, newest)],
      twoPayments,
    )
    const note = orderLookupNote(ctx, 'two-windows', { state: 'paid', payment_id: 'pay-declined' })
    expect(note).toBe(
      'it booked the answer of its POST /api/v1/payment/status {order_id "two-windows"} → HTTP 200 (by order_id without size), ' +
        "which is only the order's newest payment (pay-declined decline); the order has 2 payments (also pay-settled settled): " +
        'look an order with several payments up with size and book the one that settled (Endpoints)',
    )
  })

  it('is not named for an order of one payment, a lookup with size, or another booked payment', () => {
    const single = ctxWith(
      [lookup({ order_id: 'two-windows' }, { payment_id: 'pay-settled', status: 'settled' })],
      [callback(0, 'pay-settled', 'settled')],
    )
    expect(orderLookupNote(single, 'two-windows', { payment_id: 'pay-settled' })).toBeUndefined()
    const sized = ctxWith([lookup({ order_id: 'two-windows', size: 10 }, [newest])], twoPayments)
    expect(orderLookupNote(sized, 'two-windows', { payment_id: 'pay-declined' })).toBeUndefined()
    const other = ctxWith([lookup({ order_id: 'two-windows' }, newest)], twoPayments)
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
