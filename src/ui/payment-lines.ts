import type { DeliveryView, PaymentDetail, ScheduleView } from './client-types.js'
import { dateTime, inline, shortId } from './format.js'
import { blank, field, heading, type Line, plain, seg, sideBySide, wrap } from './lines.js'
import { statusTone } from './theme.js'

const REDIRECT_FIELDS = ['success_url', 'cancel_url', 'error_url', 'expiry_url'] as const

/**
 * From this width the payment's facts stand in two columns, and transactions and callbacks show
 * their full ids, where each callback goes and what it was answered (at 80 columns: short ids,
 * the status only).
 */
export const WIDE_DETAIL = 140

/** Where the payer is waiting, when the payment waits for a payer step (the sandbox's own pages). */
export function payerStepUrl(baseUrl: string, detail: PaymentDetail): string | undefined {
  const { payment } = detail
  const isApm = 'apm' in payment
  if (payment.status === '3ds') return `${baseUrl}/acs/${payment.id}`
  if (payment.status === 'redirect') return `${baseUrl}/${isApm ? 'apm' : 'redirect-sim'}/${payment.id}`
  if (payment.status === 'pending' && isApm && !payment.auth) return `${baseUrl}/apm/${payment.id}`
  return undefined
}

/** Everything support needs about one payment, as lines for a scrollable panel. */
export function paymentLines(
  detail: PaymentDetail,
  callbacks: DeliveryView[],
  schedule: ScheduleView | undefined,
  baseUrl: string,
  width: number,
): Line[] {
  const { payment: p, transactions, session } = detail
  const wide = width >= WIDE_DETAIL
  const out: Line[] = [
    field('order', `${p.order_id}  ${p.order.amount} ${p.order.currency}  "${p.order.description ?? ''}"`),
    field('merchant', `${p.merchant_key}  mid ${p.mid_id}  api ${p.api}  ${p.operation}  method ${p.method}`),
    field('created', `${dateTime(p.created_at)}  updated ${dateTime(p.updated_at)}`),
    field(
      'money',
      `captured ${p.amount_captured || '0'}  refunded ${p.amount_refunded || '0'}${p.auth ? '  (held: auth)' : ''}`,
    ),
  ]
  if (p.decline_reason) out.push(field('declined', p.decline_reason, 'bad'))
  if (p.card) {
    const c = p.card
    out.push(
      field(
        'card',
        `${c.masked}  ${c.brand}  ${c.exp_month}/${c.exp_year}${c.holder ? `  ${c.holder}` : ''}`,
      ),
    )
  }
  if (p.card_token) out.push(field('card token', `${p.card_token}${p.token_used ? '  (paid with it)' : ''}`))
  if (p.moto_type) out.push(field('moto', p.moto_type))
  if (p.customer_ip) out.push(field('payer ip', p.customer_ip))
  if (p.three_ds) {
    const t = p.three_ds
    const summary = [t.required ? 'required' : 'not required', t.outcome, t.authenticationFlow].filter(
      Boolean,
    )
    out.push(field('3DS', summary.join(', ')))
    for (const [k, v] of Object.entries(t.attributes ?? {})) out.push(field('', `${k} ${v}`))
  }
  if (p.recurring) {
    const r = p.recurring
    const parts = [
      r.init ? 'initial' : 'secondary',
      r.token && `token ${r.token}`,
      r.parent_payment_id && `parent ${shortId(r.parent_payment_id)}`,
    ]
    out.push(field('recurring', parts.filter(Boolean).join('  ')))
  }
  if (p.schedule_id || schedule) {
    const s = schedule
    out.push(
      field(
        'schedule',
        s
          ? `${s.id}  ${s.state}${s.next_run ? `  next run ${s.next_run}` : ''}`
          : `${p.schedule_id} (not in this sandbox)`,
      ),
    )
  }
  // Two columns side by side when wide: each half as wide as an 80-column screen's whole line.
  const facts = wide ? sideBySide(out, width) : out
  facts.unshift([
    seg(`Payment ${p.id}  `, 'accent', true),
    seg(p.status.toUpperCase(), statusTone(p.status), true),
  ])
  if (p.custom_data) {
    const rows = wrap(inline(p.custom_data), width - 13)
    rows.forEach((l, i) => {
      facts.push(field(i ? '' : 'custom', l))
    })
  }
  facts.push(...redirectLines(detail, baseUrl, session?.request))
  facts.push(blank, heading(`Transactions (${transactions.length})`))
  for (const t of transactions) {
    facts.push([
      seg(`  ${dateTime(t.created_at)}  ${t.type.padEnd(9)}`),
      seg(t.status.padEnd(10), statusTone(t.status)),
      seg(
        `${t.amount.padStart(10)}  ${wide ? t.id : shortId(t.id)}${t.decline_reason ? `  ${t.decline_reason}` : ''}`,
      ),
    ])
  }
  facts.push(blank, heading(`Callbacks (${callbacks.length})  b: open them`))
  for (const d of callbacks) {
    const last = d.attempts.at(-1)
    const answer = last ? (last.status !== undefined ? `HTTP ${last.status}` : (last.error ?? '-')) : ''
    facts.push([
      seg(`  #${d.seq} ${d.kind.padEnd(11)}`),
      seg(d.state.padEnd(13), statusTone(d.state)),
      seg(
        wide
          ? `${d.attempts.length} attempt(s)${last ? `  last ${answer}${last.body_excerpt ? ` ${JSON.stringify(oneLine(last.body_excerpt))}` : ''}` : ''}${d.replay_of ? '  replay' : ''}  to ${d.url}  id ${d.id}`
          : `${d.attempts.length} attempt(s)${last ? `  last ${last.status ?? last.error ?? '-'}` : ''}${d.replay_of ? '  replay' : ''}`,
      ),
    ])
  }
  if (!callbacks.length) facts.push(plain('  none', 'muted'))
  return facts
}

/** A merchant's answer on one line, at most 40 characters (the callback's own view shows it whole). */
const oneLine = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat
}

function redirectLines(detail: PaymentDetail, baseUrl: string, request?: Record<string, unknown>): Line[] {
  const out: Line[] = []
  const step = payerStepUrl(baseUrl, detail)
  if (step) out.push(field('payer at', step, 'wait'))
  for (const name of REDIRECT_FIELDS) {
    const url = request?.[name]
    if (typeof url === 'string') out.push(field(name.replace('_url', ''), url))
  }
  if (detail.payment.return_url) out.push(field('return', detail.payment.return_url))
  return out
}
