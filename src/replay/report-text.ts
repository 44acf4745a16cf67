import type { ReplayReport, ReplayStep } from './run.js'

/**
 * The replay's plain report (docs/replay.md): one line per request, the recorded status against
 * the sandbox's, then what differs, the rule of a refusal and what was put back by role; a
 * summary at the end naming the steps that differ. Everything in it is already redacted.
 */

const pad = (text: string, width: number) => (text.length >= width ? `${text} ` : text.padEnd(width))

/** The request as the file has it: under the gateway by its path, elsewhere by its address without the query. */
function pathOf(step: ReplayStep, gateway: string): string {
  const url = step.url.startsWith(gateway)
    ? step.url.slice(gateway.length) || '/'
    : step.url.replace(/\?.*$/, '')
  const shown = url.length > 60 ? `${url.slice(0, 59)}…` : url
  return `${shown}${step.action ? ` ${step.action}` : ''}`
}

export function stepLines(step: ReplayStep, gateway: string, verbose = false): string[] {
  const head = `${String(step.n).padStart(3)}  ${pad(step.where, 9)} ${pad(step.method, 5)}`
  if (step.status === 'skipped') return [`${head}${pad(pathOf(step, gateway), 48)} skipped: ${step.skipped}`]
  const recorded = step.recorded ? String(step.recorded.status) : '-'
  const sandbox = step.sandbox ? String(step.sandbox.status) : '-'
  const verdict =
    step.status === 'same'
      ? 'same'
      : step.status === 'not-compared'
        ? 'not compared'
        : `${step.differences.length} difference${step.differences.length === 1 ? '' : 's'}`
  const lines = [`${head}${pad(pathOf(step, gateway), 48)} ${recorded} → ${sandbox}  ${verdict}`]
  for (const d of step.differences)
    lines.push(
      `       ${d.at}: recorded ${d.recorded ?? '(none)'}, sandbox ${d.sandbox ?? '(none)'}${d.note ? ` (${d.note})` : ''}`,
    )
  if (step.sandbox?.rule) lines.push(`       the sandbox refused it: Sandbox-Rule: ${step.sandbox.rule}`)
  if (step.recorded?.rule && step.recorded.rule !== step.sandbox?.rule)
    lines.push(`       recorded Sandbox-Rule: ${step.recorded.rule}`)
  for (const w of step.sandbox?.warnings ?? []) lines.push(`       Sandbox-Warning: ${w}`)
  if (step.hash?.recorded === 'invalid') lines.push(`       hash: ${step.hash.note ?? 'does not verify'}`)
  for (const note of step.notes) if (!note.startsWith('the recorded hash')) lines.push(`       note: ${note}`)
  if (verbose && step.callbacks?.length) lines.push(`       callbacks sent: ${step.callbacks.join(', ')}`)
  if (verbose && step.status === 'different') {
    lines.push(`       recorded answer: ${step.recorded?.body ?? '(none)'}`)
    lines.push(`       sandbox answer:  ${step.sandbox?.body ?? '(none)'}`)
  }
  return lines
}

export function reportText(report: ReplayReport, verbose = false): string {
  const files = report.files.map(
    (f) => `${f.file} (${f.format === 'har' ? 'HAR 1.2' : 'JSON lines'}, ${f.requests} requests)`,
  )
  const out = [`Replayed ${files.join(' and ')} against a fresh sandbox, as the gateway ${report.gateway}`]
  for (const step of report.steps) out.push(...stepLines(step, report.gateway, verbose))
  const sent = report.steps.filter((s) => s.status !== 'skipped')
  const differing = report.steps.filter((s) => s.status === 'different')
  const hashes = report.steps.filter((s) => s.hash?.recorded === 'invalid')
  out.push(
    '',
    `${report.steps.length} requests: ${sent.length} replayed, ${report.steps.length - sent.length} skipped; ${
      report.differences === 0
        ? 'the sandbox answered every one as recorded (0 differences)'
        : `${report.differences} difference${report.differences === 1 ? '' : 's'} in ${differing.length} step${differing.length === 1 ? '' : 's'} (${differing.map((s) => `step ${s.n}, ${s.where}`).join('; ')})`
    }.`,
  )
  if (hashes.length)
    out.push(
      `${hashes.length} request${hashes.length === 1 ? '' : 's'} carried a hash that does not verify with the configuration's password: ${hashes.map((s) => `step ${s.n}`).join(', ')}.`,
    )
  return `${out.join('\n')}\n`
}
