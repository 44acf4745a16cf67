import { ruleHeader } from '../core/engine/refusal.js'
import { type CallbackRecord, describeAttempts } from './callback-channel.js'
import type { ScenarioContext } from './context.js'
import type { ObservedRequest } from './sandbox-host.js'
import { describeCallback } from './steps/select.js'

/**
 * What the merchant did, as the kit saw it: the requests it sent to the scenario's gateway with
 * the answers, the callbacks it was sent with its answers, and its order as its inspect hook
 * reported it after each step. A failure quotes these facts, so it never reports a mistake the
 * merchant did not make.
 */

/** The fields of an inspect answer that say what the merchant booked. */
const BOOKED = ['state', 'amount_paid', 'amount_refunded', 'payments_count', 'callbacks_processed'] as const

export type OrderView = Partial<Record<(typeof BOOKED)[number], unknown>>

export function bookedView(body: unknown): OrderView | undefined {
  if (!body || typeof body !== 'object') return undefined
  const b = body as Record<string, unknown>
  const view: OrderView = {}
  for (const key of BOOKED) if (b[key] !== undefined) view[key] = b[key]
  return view
}

export const showView = (view: OrderView | undefined): string =>
  view
    ? BOOKED.filter((k) => view[k] !== undefined)
        .map((k) => `${k} ${JSON.stringify(view[k])}`)
        .join(', ')
    : 'unknown to the merchant (inspect answered no order)'

/** `state "failed" → "paid", amount_paid "0.00" → "10.00"`; empty when nothing it booked changed. */
export function changes(before: OrderView | undefined, after: OrderView | undefined): string {
  if (!before || !after) return before === after ? '' : `${showView(before)} → ${showView(after)}`
  return BOOKED.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map((k) => `${k} ${JSON.stringify(before[k])} → ${JSON.stringify(after[k])}`)
    .join(', ')
}

/** The merchant's view of the scenario's order now (undefined: no inspect hook or no order yet). */
export async function inspectOrder(ctx: ScenarioContext): Promise<OrderView | undefined> {
  const merchant = ctx.merchant
  const order = ctx.vars.order_number
  if (ctx.mode !== 'merchant' || !merchant?.hasInspect || typeof order !== 'string') return undefined
  try {
    const answer = await merchant.inspect(order)
    return answer.status >= 200 && answer.status < 300 ? bookedView(answer.body) : undefined
  } catch {
    return undefined
  }
}

/** After a step: the order as the merchant shows it, kept when it changed (the order's story). */
export async function recordTimeline(ctx: ScenarioContext, label: string): Promise<void> {
  const view = await inspectOrder(ctx)
  if (!view) return
  const last = ctx.timeline.at(-1)
  if (last && last.order === ctx.vars.order_number && !changes(last.view, view)) return
  ctx.timeline.push({ label, order: String(ctx.vars.order_number), view })
}

const errorOf = (json: unknown): string => {
  if (!json || typeof json !== 'object') return ''
  const b = json as Record<string, unknown>
  const items = Array.isArray(b.errors)
    ? (b.errors as Record<string, unknown>[])
        .slice(0, 3)
        .map((e) => `${e.error_code} "${e.error_message}"`)
        .join(', ')
    : ''
  if (b.error_message !== undefined || b.error_code !== undefined)
    return ` error_code ${b.error_code} "${b.error_message}"${items ? ` [${items}]` : ''}`
  if (b.result === 'ERROR' || b.result === 'DECLINED')
    return ` result ${b.result}${b.error_message ? ` "${b.error_message}"` : ''}${b.decline_reason ? ` "${b.decline_reason}"` : ''}`
  return ''
}

const interesting = [
  'amount',
  'order_amount',
  'order_currency',
  'payment_id',
  'trans_id',
  'order_id',
  'size',
] as const

/** `POST /api/v1/payment/refund {amount "10.00"} → HTTP 400 error_code 0 "…"`. */
export function describeRequest(r: ObservedRequest): string {
  const body = r.body ?? {}
  const action = typeof body.action === 'string' ? ` ${body.action}` : ''
  const order = body.order as Record<string, unknown> | undefined
  const sent = [
    ...interesting.filter((k) => body[k] !== undefined).map((k) => `${k} ${JSON.stringify(body[k])}`),
    ...(order?.amount !== undefined ? [`order.amount ${JSON.stringify(order.amount)}`] : []),
  ]
  const warnings = r.answer.warnings?.length ? `; Sandbox-Warning: ${r.answer.warnings.join(' | ')}` : ''
  const rule = r.answer.refusal ? `; Sandbox-Rule: ${ruleHeader(r.answer.refusal)}` : ''
  return `${r.method} ${r.path}${action}${sent.length ? ` {${sent.join(', ')}}` : ''} → HTTP ${r.answer.status}${errorOf(r.answer.json)}${warnings}${rule}`
}

const sourceNote = (r: CallbackRecord) =>
  r.source === 'forged'
    ? ` (made by the kit: ${r.forgery ?? 'forged'})`
    : r.source === 'duplicate'
      ? ' (the kit sent it again)'
      : r.source === 'probe'
        ? ` (the kit's probe: ${r.forgery ?? 'the same callback with a key added'})`
        : ''

/** `#0 sale/settled (success) → attempt 1: HTTP 200 "OK"` plus, for kit-sent ones, what it changed. */
export function describeDelivery(r: CallbackRecord, orderAmounts: Record<string, string> = {}): string {
  const history = r.held
    ? 'held, not delivered yet'
    : r.attempts.length
      ? describeAttempts(r.attempts)
      : 'not delivered yet'
  const effect = r.effect
    ? `; its order ${changes(r.effect.before, r.effect.after) ? `changed: ${changes(r.effect.before, r.effect.after)}` : 'did not change'}`
    : ''
  return `${describeCallback(r)}${sourceNote(r)}${amountNote(r, orderAmounts)} → ${history}${effect}`
}

/** A gateway's Checkout callback about another amount or currency than the order the merchant began. */
function amountNote(r: CallbackRecord, orderAmounts: Record<string, string>): string {
  const f = r.fields
  const ordered = f.order_number !== undefined ? orderAmounts[f.order_number] : undefined
  if (r.source !== 'gateway' || !ordered || f.order_amount === undefined) return ''
  const reported = `${f.order_amount} ${f.order_currency ?? ''}`.trim()
  return reported === ordered ? '' : `, order_amount ${reported} (the order began as ${ordered})`
}

/** The lines a merchant-mode failure adds: what the merchant sent, was sent and booked. */
export function merchantStory(ctx: ScenarioContext): string[] {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return []
  const lines: string[] = []
  if (ctx.hooks.length) {
    lines.push('its test hooks answered:')
    for (const h of ctx.hooks.slice(-4)) lines.push(`  ${h}`)
  }
  if (ctx.returns.length) {
    lines.push('its pages its payer came back to:')
    for (const r of ctx.returns.slice(-4)) lines.push(`  ${r.line}`)
  }
  const requests = ctx.hosted.requests
  if (requests.length) {
    lines.push('its requests to the gateway:')
    for (const r of requests.slice(-8)) lines.push(`  ${describeRequest(r)}`)
  } else lines.push('its requests to the gateway: none')
  if (ctx.kitRequests.length) {
    lines.push("requests the kit sent itself with the merchant's key (not the merchant's):")
    for (const r of ctx.kitRequests.slice(-4)) lines.push(`  ${r}`)
  }
  const callbacks = ctx.channel.log
  if (callbacks.length) {
    lines.push('callbacks it was sent, and its answers:')
    for (const r of callbacks.slice(-10)) lines.push(`  ${describeDelivery(r, ctx.orderAmounts)}`)
    const timedOut = callbacks.filter((r) => r.attempts.some((a) => a.timedOut))
    if (timedOut.length)
      lines.push(
        `  ${timedOut.length} callback${timedOut.length === 1 ? ' was' : 's were'} not answered within ${Math.round(ctx.channel.timeoutMs / 1000)} s: a time-out is a failed attempt, retried later (docs/rules.md#callbacks)`,
      )
  } else lines.push('callbacks it was sent: none')
  if (ctx.timeline.length) {
    lines.push('its order, as its inspect hook reported it after each step that changed it:')
    for (const t of ctx.timeline.slice(-8)) lines.push(`  after ${t.label}: ${showView(t.view)}`)
  }
  return lines
}

/**
 * Warnings the gateway answered to requests the merchant sent during a step (docs/rules.md#warnings-and-releases: the
 * kit counts a warning as a failure of the merchant step that caused it).
 */
export function warningsSince(ctx: ScenarioContext, seq: number): string[] {
  if (ctx.mode !== 'merchant' || !ctx.hosted) return []
  return ctx.hosted.requests
    .filter((r) => r.seq >= seq && r.answer.warnings?.length)
    .map((r) => describeRequest(r))
}

/** The gateway's id of the payment a request acts on: Checkout `payment_id`, S2S `trans_id`. */
export function paymentIdOf(r: ObservedRequest): string | undefined {
  const id = r.body?.payment_id ?? r.body?.trans_id
  return typeof id === 'string' ? id : undefined
}

/** A refund request: Checkout `/api/v1/payment/refund`, S2S CARD or APM `CREDITVOID`. */
export const isRefundRequest = (r: ObservedRequest): boolean =>
  r.path === '/api/v1/payment/refund' ||
  ((r.path === '/post' || r.path === '/post-va') && r.body?.action === 'CREDITVOID')
