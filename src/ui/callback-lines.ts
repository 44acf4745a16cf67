import type { DeliveryDetail } from './client-types.js'
import { dateTime } from './format.js'
import { blank, field, heading, type Line, plain, seg, wrap, wrappedField } from './lines.js'
import { statusTone } from './theme.js'

/** One callback delivery: what was sent, and every attempt with its answer. */
export function callbackLines(d: DeliveryDetail, width: number): Line[] {
  const out: Line[] = [
    [seg(`Callback ${d.id}  `, 'accent', true), seg(d.state.toUpperCase(), statusTone(d.state), true)],
    ...wrappedField('payment', `${d.payment_id}  order ${d.order_id}`, width),
    // A row of its own: after a payment id and an order number it was broken across two rows at 80 columns.
    ...wrappedField('merchant', d.merchant_key, width),
    field(
      'kind',
      `${d.kind}  api ${d.api}  #${d.seq} of its payment${d.replay_of ? `  replay of ${d.replay_of}` : ''}`,
    ),
    ...wrappedField('to', `${d.request.method} ${d.url}`, width),
    field('created', dateTime(d.created_at)),
  ]
  if (d.next_attempt_at !== undefined) out.push(field('next try', dateTime(d.next_attempt_at), 'wait'))
  out.push(blank, heading(`Attempts (${d.attempts.length})`))
  d.attempts.forEach((a, i) => {
    const answer = a.status !== undefined ? `HTTP ${a.status}` : (a.error ?? 'no answer')
    out.push([
      seg(`  ${i + 1}. ${dateTime(a.at)}  `),
      seg(answer.padEnd(10), a.acknowledged ? 'good' : 'bad'),
      seg(`  ${a.acknowledged ? 'acknowledged' : 'not acknowledged'}  ${Math.round(a.latency_ms)} ms`),
    ])
    if (a.error && a.status !== undefined) out.push(field('', `error ${a.error}`, 'bad'))
    if (a.body_excerpt)
      for (const l of wrap(a.body_excerpt, width - 14, '     body ')) out.push(plain(l, 'muted'))
  })
  if (!d.attempts.length) out.push(plain('  none yet', 'muted'))
  out.push(blank, heading(`Body (${d.request.content_type})`))
  const fields = Object.entries(d.fields)
  const keyWidth = Math.min(24, Math.max(10, ...fields.map(([k]) => k.length)))
  // Whole: a long value (a redirect URL, a token) goes on over the next rows, never cut.
  for (const [k, v] of fields) out.push(...wrappedField(k, v, width, keyWidth))
  return out
}
