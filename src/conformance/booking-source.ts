import type { ScenarioContext } from './context.js'
import { listPayments, orderPayments, placeOf, reportedStatus } from './ledger.js'
import { changes, describeRequest, isRefundRequest, paymentIdOf } from './observations.js'
import type { ObservedRequest } from './sandbox-host.js'
import { describeCallback } from './steps/select.js'

/**
 * Where a wrong booking came from, when the kit saw it happen (issue 23: headlines derived from
 * what was observed, the first wrong ledger value with its source). A Checkout status lookup by
 * `order_id` without `size` answers one object, the order's newest payment
 * (docs/rules.md#status-lookups); an order with several payments may have settled an older one.
 * When the merchant booked exactly what such a lookup answered, the headline says so; else a wrong
 * state is shown with the last callback the merchant acknowledged about the order (a report it did
 * not book, or booked wrongly). Words about an order's payments ("the first", "the newest") come
 * from the ledger of the kit's gateway (ledger.ts), in the order the gateway made them.
 */

const STATUS_PATH = '/api/v1/payment/status'

const record = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined

/**
 * `it booked the answer of its POST /api/v1/payment/status {order_id "…"} → HTTP 200 (by order_id
 * without size), the order's newest payment (… decline); …`, or undefined when the order has one
 * payment, the merchant used size, or booked something else.
 */
export function orderLookupNote(ctx: ScenarioContext, orderId: string, booked: unknown): string | undefined {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return undefined
  const requests = ctx.hosted.requests
  const last = requests
    .filter(
      (r) =>
        r.path === STATUS_PATH &&
        r.body?.order_id === orderId &&
        r.body.size === undefined &&
        r.body.payment_id === undefined &&
        r.answer.status === 200,
    )
    .at(-1)
  const answered = record(last?.answer.json)
  if (!last || typeof answered?.payment_id !== 'string') return undefined
  const view = record(booked)
  if (view?.payment_id !== undefined && view.payment_id !== answered.payment_id) return undefined
  const payments = orderPayments(ctx, orderId)
  const place = placeOf(payments, answered.payment_id)
  if (payments.length < 2 || !place) return undefined
  const others = payments.filter((p) => p.id !== answered.payment_id)
  return (
    `it booked the answer of its ${describeRequest(last)} (by order_id without size), which is only ${place} (${answered.payment_id} ${String(answered.status ?? '')}); ` +
    `the order has ${payments.length} payments (also ${listPayments(others)}): look an order with several payments up with size and book the one that settled (docs/rules.md#status-lookups)`
  )
}

/** `the last callback it acknowledged about this order: #2 void/void (success)`, or undefined when none. */
export function lastCallbackNote(ctx: ScenarioContext, orderId: string): string | undefined {
  if (ctx.mode !== 'merchant') return undefined
  const last = ctx.channel.log
    .filter(
      (c) =>
        c.source === 'gateway' &&
        (c.fields.order_number ?? c.fields.order_id) === orderId &&
        c.attempts.some((a) => a.acknowledged),
    )
    .at(-1)
  return last ? `the last callback it acknowledged about this order: ${describeCallback(last)}` : undefined
}

/**
 * `it booked a refund the gateway did not do: its POST /api/v1/payment/refund {…} → HTTP 503 …`,
 * when the wrong value is what was refunded and every refund the merchant asked for this order
 * was refused or went unanswered, with no refund reported by a callback (Events; Gateway faults:
 * a refused or unanswered request moved no money). Undefined otherwise.
 */
export function refusedRefundNote(
  ctx: ScenarioContext,
  orderId: string,
  wrong: string[],
): string | undefined {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return undefined
  if (
    !wrong.some(
      (w) => w.startsWith('$.amount_refunded:') || /^\$\.state: .*found "(partially_)?refunded"/.test(w),
    )
  )
    return undefined
  const ids = new Set(orderPayments(ctx, orderId).map((p) => p.id))
  const refunds = ctx.hosted.requests.filter((r) => {
    const id = paymentIdOf(r)
    return isRefundRequest(r) && id !== undefined && ids.has(id)
  })
  if (!refunds.length || refunds.some((r) => r.answer.status === 200)) return undefined
  const reported = ctx.channel.log.some(
    (c) =>
      c.source === 'gateway' &&
      (c.fields.order_number ?? c.fields.order_id) === orderId &&
      /refund|reversal/i.test(
        `${c.fields.type ?? ''} ${c.fields.order_status ?? ''} ${c.fields.action ?? ''}`,
      ),
  )
  if (reported) return undefined
  const first = refunds[0] as ObservedRequest
  const fault = first.fault ? ` (sandbox fault "${first.fault}": the gateway did nothing)` : ''
  return (
    `it booked a refund the gateway did not do: its ${describeRequest(first)}${fault}, and no refund callback came: ` +
    'book a refund when the gateway reports it done (its answer, a refund callback or the status lookup), never from a refused or unanswered request'
  )
}

/** `"10.00"` of a wrong line `$.amount_paid: expected "6.00", found "10.00"`, by side. */
function wrongValue(wrong: string[], field: string): { expected?: string; found?: string } | undefined {
  const line = wrong.find((w) => w.startsWith(`$.${field}:`))
  if (!line) return undefined
  const m = /expected (".*?"|\S+), found (".*?"|\S+)$/.exec(line)
  const unquote = (v: string | undefined) => (v?.startsWith('"') ? v.slice(1, -1) : v)
  return m ? { expected: unquote(m[1]), found: unquote(m[2]) } : {}
}

/**
 * `it booked a callback the kit sent again: #0 sale/settled (success) (the kit sent it again) …
 * its order changed: amount_paid "10.00" → "20.00"`: the same report booked twice (Events; docs/rules.md#callbacks:
 * a callback may come more than once). Undefined when no repeat changed the order.
 */
export function repeatedCallbackNote(ctx: ScenarioContext, orderId: string): string | undefined {
  if (ctx.mode !== 'merchant') return undefined
  const repeat = ctx.channel.log.find(
    (c) =>
      c.source === 'duplicate' &&
      (c.fields.order_number ?? c.fields.order_id) === orderId &&
      c.effect &&
      changes(c.effect.before, c.effect.after),
  )
  if (!repeat?.effect) return undefined
  return (
    `it booked the same callback twice: the kit sent ${describeCallback(repeat)} again and its order changed: ${changes(repeat.effect.before, repeat.effect.after)}; ` +
    'a callback may come more than once: book each payment transaction once (its id and status) and answer a repeat without booking it again'
  )
}

/**
 * `it captured 6.00 (its POST /api/v1/payment/capture {amount "6.00", …} → HTTP 200) and booked 10.00`:
 * a partial capture settles what was captured (States and transitions). Undefined unless the
 * amount paid is wrong and an accepted capture of the order's payment carried the expected amount.
 */
export function captureNote(ctx: ScenarioContext, orderId: string, wrong: string[]): string | undefined {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return undefined
  const paid = wrongValue(wrong, 'amount_paid')
  if (!paid?.expected || !paid.found) return undefined
  const ids = new Set(orderPayments(ctx, orderId).map((p) => p.id))
  const capture = ctx.hosted.requests.find((r) => {
    const id = paymentIdOf(r)
    const isCapture = r.path === '/api/v1/payment/capture' || r.body?.action === 'CAPTURE'
    return (
      isCapture &&
      r.answer.status === 200 &&
      id !== undefined &&
      ids.has(id) &&
      r.body?.amount === paid.expected
    )
  })
  if (!capture) return undefined
  return `it captured ${paid.expected} (its ${describeRequest(capture)}) and booked ${paid.found}: a partial capture settles the amount captured, not the order's amount (States and transitions)`
}

/**
 * `it booked e443… (decline), the order's first payment, one of the 2 its POST /api/v1/payment/status
 * {order_id, size} answered; the one that settled is b4f7…`: the wrong payment of an order read
 * with size (docs/rules.md#status-lookups).
 */
export function pickedPaymentNote(
  ctx: ScenarioContext,
  orderId: string,
  wrong: string[],
): string | undefined {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return undefined
  const id = wrongValue(wrong, 'payment_id')
  if (!id?.found) return undefined
  const lookup = ctx.hosted.requests
    .filter(
      (r) =>
        r.path === STATUS_PATH &&
        r.body?.order_id === orderId &&
        r.body.size !== undefined &&
        r.answer.status === 200,
    )
    .at(-1)
  const list = Array.isArray(lookup?.answer.json) ? (lookup.answer.json as unknown[]).map(record) : []
  const booked = list.find((p) => p?.payment_id === id.found)
  const place = placeOf(orderPayments(ctx, orderId), id.found)
  if (!lookup || !booked || !place) return undefined
  const settled = list.filter((p) => p?.status === 'settled').map((p) => String(p?.payment_id))
  return (
    `it booked ${id.found} (${String(booked.status ?? '')}), ${place}, one of the ${list.length} payments its ${describeRequest(lookup)} answered` +
    `${settled.length ? `; the one that settled is ${settled.join(', ')}` : ''}: book the payment that settled (docs/rules.md#status-lookups)`
  )
}

/**
 * `it booked 7c1e… (DECLINED), the order's first payment; the order has 2 payments (… DECLINED, …
 * SETTLED) and the one that settled is …`: a payment sent again under the same order number is a
 * new payment with its own id (Checkout `payment_id`, S2S `trans_id`), and the merchant kept an
 * earlier one. From the ledger; undefined unless both ids are the order's payments.
 */
export function earlierPaymentNote(
  ctx: ScenarioContext,
  orderId: string,
  wrong: string[],
): string | undefined {
  if (ctx.mode !== 'merchant') return undefined
  const id = wrongValue(wrong, 'payment_id')
  if (!id?.found || !id.expected) return undefined
  const payments = orderPayments(ctx, orderId)
  const kept = payments.find((p) => p.id === id.found)
  const place = placeOf(payments, id.found)
  if (!kept || !place || !payments.some((p) => p.id === id.expected) || payments.length < 2) return undefined
  return (
    `it booked ${id.found} (${reportedStatus(kept)}), ${place}; the order has ${payments.length} payments (${listPayments(payments)}) and the one that settled is ${id.expected}: ` +
    'a payment sent again under the same order number is a new payment with its own id (S2S trans_id, Checkout payment_id): keep the id of each answer and book, look up and refund the one that settled (Endpoints)'
  )
}

/**
 * `its state became "paid" after 4. expect.redirect success, with no callback booked (callbacks_processed
 * stayed 1)`: a wrong state that the merchant set without a report of the gateway (a return page,
 * a redirect), from the order's timeline the kit recorded (Events: only callbacks and the status
 * lookup report a payment). Undefined when the change came with a callback, or was not seen.
 */
export function changedWithoutCallbackNote(
  ctx: ScenarioContext,
  orderId: string,
  wrong: string[],
): string | undefined {
  if (ctx.mode !== 'merchant') return undefined
  const state = wrongValue(wrong, 'state')
  if (!state?.found) return undefined
  const entries = ctx.timeline.filter((t) => t.order === orderId)
  const at = entries.findIndex(
    (t, i) => i > 0 && t.view.state === state.found && entries[i - 1]?.view.state !== state.found,
  )
  const after = entries[at]
  const before = entries[at - 1]
  if (!after || !before || after.view.callbacks_processed === undefined) return undefined
  if (after.view.callbacks_processed !== before.view.callbacks_processed) return undefined
  return (
    `its state became ${JSON.stringify(state.found)} after ${after.label}, with no callback booked ` +
    `(callbacks_processed stayed ${JSON.stringify(after.view.callbacks_processed)}): only a callback or the status lookup reports a payment (Events)`
  )
}
