import type { ReplayStep } from '../replay/run.js'
import { blank, field, heading, type Line, plain, seg, wrappedField } from './lines.js'
import type { Tone } from './theme.js'

/** How the replay's console shows a step: a row of the list, and its detail (docs/replay.md). */

const toneOf = (step: ReplayStep): Tone =>
  step.status === 'different' ? 'bad' : step.status === 'same' ? 'good' : 'muted'

const mark = (step: ReplayStep) =>
  step.status === 'different' ? '✗' : step.status === 'same' ? '✓' : step.status === 'skipped' ? '·' : '?'

export function stepRow(step: ReplayStep, width: number): Line {
  const what = `${step.method} ${step.path ?? step.url}${step.action ? ` ${step.action}` : ''}`
  const answer =
    step.status === 'skipped'
      ? `skipped: ${step.skipped}`
      : `${step.recorded?.status ?? '-'} → ${step.sandbox?.status ?? '-'}${step.differences.length ? `  ${step.differences.length} difference(s)` : ''}${step.sandbox?.rule ? '  refused' : ''}`
  const room = Math.max(10, width - answer.length - 14)
  return [
    seg(`${mark(step)} `, toneOf(step), true),
    seg(`${String(step.n).padStart(3)} `, 'muted'),
    seg(what.length > room ? `${what.slice(0, room - 1)}…` : what.padEnd(room)),
    seg(` ${answer}`, toneOf(step)),
  ]
}

export function stepDetail(step: ReplayStep, width: number): Line[] {
  const out: Line[] = [
    [seg(`Step ${step.n}  `, 'accent', true), seg(`${step.where} of ${step.file}`, 'muted')],
    field('sent', `${step.method} ${step.url}`),
  ]
  if (step.at) out.push(field('at', step.at))
  if (step.status === 'skipped') return [...out, field('skipped', step.skipped ?? '', 'muted')]
  if (step.path) out.push(field('as', `${step.path}${step.action ? ` (${step.action})` : ''}`))
  if (step.hash)
    out.push(
      field(
        'hash',
        step.hash.recorded === 'valid'
          ? `verifies (${step.hash.formula})`
          : (step.hash.note ?? 'does not verify'),
        step.hash.recorded === 'valid' ? 'good' : 'bad',
      ),
    )
  out.push(
    blank,
    heading(step.differences.length ? `Differences (${step.differences.length})` : 'No difference'),
  )
  for (const d of step.differences)
    out.push(
      ...wrappedField(
        d.at,
        `recorded ${d.recorded ?? '(none)'}; sandbox ${d.sandbox ?? '(none)'}${d.note ? ` (${d.note})` : ''}`,
        width,
        16,
        'bad',
      ),
    )
  if (step.sandbox?.rule) out.push(field('rule', `Sandbox-Rule: ${step.sandbox.rule}`, 'warn'))
  for (const w of step.sandbox?.warnings ?? []) out.push(field('warning', w, 'warn'))
  for (const n of step.notes) out.push(...wrappedField('note', n, width))
  if (step.callbacks?.length) out.push(field('callbacks', step.callbacks.join(', ')))
  out.push(blank, heading('Recorded answer'))
  if (step.recorded) {
    out.push(field('status', String(step.recorded.status)))
    if (step.recorded.location) out.push(field('location', step.recorded.location))
    out.push(...wrappedField('body', step.recorded.body || '(empty)', width))
  } else out.push(plain('  none in the capture', 'muted'))
  out.push(blank, heading("The sandbox's answer"))
  if (step.sandbox) {
    out.push(field('status', String(step.sandbox.status)))
    if (step.sandbox.location) out.push(field('location', step.sandbox.location))
    out.push(...wrappedField('body', step.sandbox.body || '(empty)', width))
  }
  if (step.request) {
    out.push(blank, heading('Request as sent'))
    out.push(...wrappedField('body', step.request.body || '(empty)', width))
  }
  return out
}
