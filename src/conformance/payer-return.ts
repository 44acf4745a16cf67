import type { Payment } from '../core/engine/model.js'
import type { ScenarioContext } from './context.js'
import { declares } from './contract.js'
import { payerWaitMs } from './merchant.js'
import { changes, inspectOrder, type OrderView, showView } from './observations.js'

/**
 * The payer comes back to the merchant (merchant mode). After the ACS or redirect page a browser
 * is sent on to the merchant's own page, as the sandbox's pages send it: an S2S CARD payment to
 * its `term_url_3ds` (a plain GET without parameters, docs/rules.md#payer-return), a
 * Hosted Payment Fields payment to the session's `return_url` with `payment_id`, `trans_id`,
 * `order_id` and `hash` (docs/rules.md#hosted-payment-fields). What the merchant's page answers
 * is recorded, never judged by itself: the scenario judges what the merchant then booked, and a
 * booking the return alone made is named as the cause (Events: only a callback or the status
 * lookup reports a payment).
 */

export interface PayerReturn {
  /** The order the payment belongs to. */
  order: string
  url: string
  /** `term_url_3ds` or `return_url`. */
  field: string
  /** `HTTP 200 "Thank you…"`, or why the payer could not get there. */
  answer: string
  /** The gateway's status of the payment when the payer came back. */
  status: string
  reason?: string
  before?: OrderView
  after?: OrderView
  /** How a report shows the visit (describeReturn). */
  line: string
}

/** Where the payer of this payment is sent back, as the sandbox's ACS and redirect pages send it. */
function returnOf(ctx: ScenarioContext, payment: Payment): { url: string; field: string } | undefined {
  if (payment.api === 's2s-card')
    return payment.return_url ? { url: payment.return_url, field: 'term_url_3ds' } : undefined
  const session = payment.session_id
    ? ctx.hosted?.gateway.ctx.store.get('sessions', payment.session_id)
    : undefined
  if (!session?.hosted_fields) return undefined
  const back = ctx.payer?.redirectFor(payment.id, payment.status === 'decline' ? 'error' : 'success')
  return back ? { url: back.url, field: 'return_url' } : undefined
}

/** Only the merchant's own pages and the kit's return catcher: the kit never browses elsewhere. */
function reachable(ctx: ScenarioContext, url: string): boolean {
  try {
    const origin = new URL(url).origin
    const own = [ctx.merchant?.baseUrl, ctx.returnUrl].filter((u): u is string => !!u)
    return own.some((u) => new URL(u).origin === origin)
  } catch {
    return false
  }
}

const titleOf = (html: string): string =>
  /<title>([^<]*)<\/title>/i.exec(html)?.[1]?.trim() ?? html.replace(/\s+/g, ' ').trim().slice(0, 80)

/**
 * After payer.3ds or payer.redirect: the payer opens the merchant's return page, and the kit
 * records what it answered and what the merchant's order was before and after.
 */
export async function payerComesBack(ctx: ScenarioContext, paymentId: string): Promise<void> {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return
  const payment = ctx.hosted.gateway.ctx.store.get('payments', paymentId)
  const back = payment && returnOf(ctx, payment)
  if (!payment || !back) return
  const order = payment.order.number
  const visit: PayerReturn = {
    order,
    ...back,
    answer: '',
    line: '',
    status: payment.status,
    ...(payment.decline_reason ? { reason: payment.decline_reason } : {}),
  }
  // A merchant whose adapter declares no return pages is never sent a payer there (docs/conformance.md, The merchant contract).
  if (!declares(ctx.merchant?.declaration, 'return_pages')) {
    visit.answer = 'not opened: the adapter declares no return pages'
    visit.line = describeReturn(visit)
    ctx.returns.push(visit)
    return
  }
  if (!reachable(ctx, back.url)) {
    visit.answer = "not opened: it is outside the merchant's base_url"
    visit.line = describeReturn(visit)
    ctx.returns.push(visit)
    return
  }
  const before = ctx.vars.order_number === order ? await inspectOrder(ctx) : undefined
  try {
    const response = await fetch(back.url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(payerWaitMs(ctx.merchant, 10_000)),
    })
    const text = await response.text()
    visit.answer = `HTTP ${response.status}${text ? ` ${JSON.stringify(titleOf(text))}` : ''}`
  } catch (error) {
    visit.answer = `no answer (${(error as Error).message})`
  }
  await ctx.hosted.idle()
  const after = before ? await inspectOrder(ctx) : undefined
  if (before) visit.before = before
  if (after) visit.after = after
  visit.line = describeReturn(visit)
  ctx.returns.push(visit)
}

/** `was declined`, `settled`: a payment status as a report says it. */
const said = (status: string) => (status === 'decline' ? 'was declined' : `was ${status}`)

/** `GET http://…/payment/return?order_id=… (term_url_3ds; …) → HTTP 200 "…"; its order changed: …` */
function describeReturn(r: PayerReturn): string {
  const changed = r.before && r.after ? changes(r.before, r.after) : ''
  return `GET ${r.url} (${r.field}; the gateway's payment ${said(r.status)}) → ${r.answer}${changed ? `; its order changed: ${changed}` : ''}`
}

/**
 * `it booked "paid" when its payer came back to GET … (term_url_3ds), …`: the wrong state was set
 * by the page the payer returned to, with no report of the gateway. Undefined otherwise.
 */
export function payerReturnNote(ctx: ScenarioContext, orderId: string, wrong: string[]): string | undefined {
  const line = wrong.find((w) => w.startsWith('$.state:'))
  const found = line ? /found "([^"]*)"/.exec(line)?.[1] : undefined
  if (!found) return undefined
  const visit = ctx.returns.find(
    (r) =>
      r.order === orderId &&
      r.after?.state === found &&
      r.before?.state !== found &&
      r.before?.callbacks_processed === r.after?.callbacks_processed,
  )
  if (!visit) return undefined
  const gateway = `the gateway's payment ${said(visit.status)}${visit.reason ? ` (${visit.reason})` : ''}`
  return (
    `it booked ${JSON.stringify(found)} when its payer came back to GET ${visit.url} (${visit.field}), with no callback or lookup saying so ` +
    `(before: ${showView(visit.before)}); ${gateway}: the payer's return is no payment report, book what a callback or the status lookup says (Events)`
  )
}
