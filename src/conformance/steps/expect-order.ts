import type {
  ScenarioExpectMerchantOrderStep,
  ScenarioExpectNoDoubleChargeStep,
  ScenarioFieldMatch,
} from '../../generated/types.js'
import {
  captureNote,
  changedWithoutCallbackNote,
  earlierPaymentNote,
  lastCallbackNote,
  orderLookupNote,
  pickedPaymentNote,
  refusedRefundNote,
  repeatedCallbackNote,
} from '../booking-source.js'
import { fail, type ScenarioContext, StepSkipped, settle } from '../context.js'
import { CAPABILITIES, unmet } from '../contract.js'
import { interpolate } from '../interpolate.js'
import { checkFields } from '../match.js'
import { bookedView, showView } from '../observations.js'
import { payerReturnNote } from '../payer-return.js'
import { declinedPayoutNote } from '../payout-note.js'
import { doubleChargeProblems, judgeAgainstLedger } from '../outcomes.js'
import { inspectCapabilities } from '../profile.js'
import { merchantOnly } from './expect-merchant.js'
import { orderNumber } from './order.js'

/** The kit reads no inspect field the adapter's contract does not include (profile.ts skips such scenarios first). */
function guardFields(ctx: ScenarioContext, sets: ScenarioFieldMatch[]) {
  const declaration = ctx.merchant?.declaration
  if (!declaration) return
  for (const id of inspectCapabilities(sets)) {
    const why = unmet({ id, version: CAPABILITIES[id].since }, declaration)
    if (why) throw new StepSkipped(`not run: ${why.reason}`)
  }
}

/** The field problems of the closest alternative (none: one of them holds), and whether there were several. */
function fieldProblems(view: unknown, sets: ScenarioFieldMatch[]): { wrong: string[]; alternatives: number } {
  const each = sets.map((fields) => checkFields(view, fields))
  if (!each.length || each.some((p) => !p.length)) return { wrong: [], alternatives: each.length }
  const closest = each.reduce((best, p) => (p.length < best.length ? p : best))
  return { wrong: closest, alternatives: each.length }
}

/**
 * expect.merchant_order: the merchant's own view of the order (adapter `inspect`) matches its
 * fields, one of its `any_of` alternatives, and with `ledger` the gateway's record of the order.
 */
export async function expectMerchantOrder(
  step: ScenarioExpectMerchantOrderStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  merchantOnly(ctx, 'expect.merchant_order')
  const merchant = ctx.merchant ?? fail('no merchant adapter')
  if (!merchant.hasInspect) throw new StepSkipped('not run: your adapter declares no `inspect` hook')
  const sets = [
    ...(step.fields ? [interpolate(step.fields, ctx.vars)] : []),
    ...(step.any_of ?? []).map((f) => interpolate(f, ctx.vars)),
  ]
  guardFields(ctx, sets)
  await settle(ctx)
  const orderId = orderNumber(step.order_number, ctx)
  const answer = await merchant.inspect(orderId)
  if (answer.request) ctx.request = answer.request
  if (answer.status < 200 || answer.status > 299 || !answer.body || typeof answer.body !== 'object')
    fail(
      `the merchant's inspect hook answered HTTP ${answer.status} for order ${orderId}: ${answer.text.slice(0, 300)}`,
    )
  const view = answer.body as Record<string, unknown>
  // `fields` must hold, and then one of `any_of`: the closest alternative names what is wrong.
  const own = step.fields ? checkFields(view, sets[0] ?? {}) : []
  const alternatives = fieldProblems(view, step.fields ? sets.slice(1) : sets)
  const named = own.length ? own : alternatives.wrong
  // With `ledger`, the gateway's record of the order judges the values the scenario did not name.
  const ledger = step.ledger ? judgeAgainstLedger(ctx, orderId, view) : undefined
  const fieldOf = (line: string) => line.split(':')[0]
  const wrong = [
    ...named,
    ...(ledger?.wrong ?? []).filter((l) => !named.some((n) => fieldOf(n) === fieldOf(l))),
  ]
  const problems = [...wrong, ...(ledger?.problems ?? [])]
  if (!problems.length) return view
  const none =
    !own.length && named.length && alternatives.alternatives > 1
      ? ` (it is none of the ${alternatives.alternatives} acceptable alternatives; the closest differs in ${named.length === 1 ? 'this' : 'these'})`
      : ''
  const source = wrong.length ? bookingSource(ctx, orderId, view, wrong) : undefined
  const record =
    ledger && (ledger.wrong.length || ledger.problems.length)
      ? `\n  the gateway's record of the order: ${ledger.record}`
      : ''
  fail(
    `the merchant booked order ${orderId} wrongly: ${problems[0]}${source ? `: ${source}` : ''}${none}${record}\n  its inspect hook shows it as ${showView(bookedView(view))}:\n  - ${problems.join('\n  - ')}`,
  )
  return view
}

/**
 * Where the wrong value came from, when the kit saw it: a state set by the payer's return; a
 * payout booked on its answer; a lookup by order_id without size; a
 * payment picked wrongly from a lookup with size; an earlier payment of the order kept; a refund
 * booked from a refused or unanswered request; a partial capture booked as the order's amount; a
 * callback booked twice; for a wrong state, the last report about the order the merchant acknowledged.
 */
function bookingSource(ctx: ScenarioContext, orderId: string, view: unknown, wrong: string[]) {
  const stateWrong = wrong.some((w) => w.startsWith('$.state:'))
  return (
    payerReturnNote(ctx, orderId, wrong) ??
    declinedPayoutNote(ctx, orderId, wrong) ??
    orderLookupNote(ctx, orderId, view) ??
    pickedPaymentNote(ctx, orderId, wrong) ??
    earlierPaymentNote(ctx, orderId, wrong) ??
    refusedRefundNote(ctx, orderId, wrong) ??
    captureNote(ctx, orderId, wrong) ??
    repeatedCallbackNote(ctx, orderId) ??
    (stateWrong
      ? (changedWithoutCallbackNote(ctx, orderId, wrong) ?? lastCallbackNote(ctx, orderId))
      : undefined)
  )
}

/** expect.no_double_charge: money moved at most once for the order, whatever the merchant's recipe. */
export async function expectNoDoubleCharge(
  step: ScenarioExpectNoDoubleChargeStep,
  ctx: ScenarioContext,
): Promise<unknown> {
  merchantOnly(ctx, 'expect.no_double_charge')
  await settle(ctx)
  const orderId = orderNumber(step.order_number, ctx)
  const problems = doubleChargeProblems(ctx, orderId)
  if (problems.length)
    fail(problems.length === 1 ? `${problems[0]}` : `${problems[0]}\n  - ${problems.join('\n  - ')}`)
  return {}
}
