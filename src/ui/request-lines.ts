import type { RequestRecord } from './client-types.js'
import { cell, dateTime, shortTime } from './format.js'
import { blank, field, heading, type Line, plain, seg, wrappedField } from './lines.js'
import type { Tone } from './theme.js'

/**
 * The request log as the console shows it (docs/rules.md#request-log): a row per request (time,
 * what was asked, the answer, whether it was warned or refused), and a request whole: what it
 * carried (masked), its answer, its warnings and the rule of its refusal.
 */

const toneOf = (r: RequestRecord): Tone =>
  r.fault ? 'warn' : r.response.status >= 400 || r.response.status === 0 || r.refusal ? 'bad' : 'good'

/** `docs/rules.md#checkout-signatures; field=hash; formula=checkout.session`, as the Sandbox-Rule header. */
export function ruleText(r: RequestRecord): string | undefined {
  if (!r.refusal) return undefined
  const parts = [`docs/rules.md#${r.refusal.rule}`, ...(r.refusal.fields ?? []).map((f) => `field=${f}`)]
  if (r.refusal.formula) parts.push(`formula=${r.refusal.formula}`)
  return parts.join('; ')
}

export function requestRow(r: RequestRecord, width: number): Line {
  const what = `${r.method} ${r.path}${r.action ? ` ${r.action}` : ''}`
  const answer = r.response.status ? `HTTP ${r.response.status}` : 'no answer'
  const flags = [
    r.fault && `fault ${r.fault}`,
    r.refusal && `rule ${r.refusal.rule}`,
    r.warnings.length && `${r.warnings.length} warning${r.warnings.length === 1 ? '' : 's'}`,
  ]
    .filter(Boolean)
    .join(', ')
  const room = Math.max(12, width - 12 - 10 - Math.max(flags.length, 12) - 4)
  return [
    seg(`  ${shortTime(r.at)} `, 'muted'),
    seg(cell(what, room)),
    seg(` ${cell(answer, 9)}`, toneOf(r)),
    seg(flags ? ` ${flags}` : '', r.refusal || r.warnings.length ? 'warn' : undefined),
  ]
}

export function requestDetail(r: RequestRecord, width: number): Line[] {
  const out: Line[] = [
    [
      seg(`Request ${r.id}  `, 'accent', true),
      seg(`${r.method} ${r.path}${r.action ? ` ${r.action}` : ''}`, undefined, true),
    ],
    field('at', `${dateTime(r.at)}${r.answered_at !== r.at ? `  answered ${dateTime(r.answered_at)}` : ''}`),
    field('api', `${r.api}${r.route ? `  route ${r.route}` : ''}`),
  ]
  if (r.merchant) out.push(field('merchant', r.merchant))
  if (r.order_id) out.push(field('order', r.order_id))
  if (r.payment_ids.length) out.push(field('payments', r.payment_ids.join(', ')))
  out.push(
    field(
      'answer',
      r.response.status ? `HTTP ${r.response.status}` : 'none: the connection was dropped',
      toneOf(r),
    ),
  )
  if (r.fault) out.push(field('fault', `the sandbox fault "${r.fault}" answered it`, 'warn'))
  const rule = ruleText(r)
  if (rule) {
    out.push(field('refused', `Sandbox-Rule: ${rule}`, 'bad'))
    if (r.refusal?.inputs?.length) out.push(field('', `the formula's inputs: ${r.refusal.inputs.join(', ')}`))
  }
  for (const w of r.warnings) out.push(...wrappedField('warning', w, width, 10, 'warn'))
  out.push(blank, heading('Sent (card numbers masked, CVVs, passwords and tokens removed)'))
  for (const [name, value] of Object.entries(r.request.headers)) out.push(field(name, value))
  if (r.request.body !== undefined) out.push(...wrappedField('body', JSON.stringify(r.request.body), width))
  else if (r.request.truncated)
    out.push(field('body', `${r.request.bytes} bytes (more than the log keeps)`, 'muted'))
  else out.push(plain('  no body', 'muted'))
  out.push(blank, heading('Answered'))
  for (const [name, value] of Object.entries(r.response.headers)) out.push(field(name, value))
  if (r.response.body !== undefined)
    out.push(...wrappedField('body', `${r.response.body}${r.response.truncated ? ' …(cut)' : ''}`, width))
  else out.push(field('body', `${r.response.bytes} bytes (a page: not kept)`, 'muted'))
  return out
}
