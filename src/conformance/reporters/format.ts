import type { RunSummary, ScenarioResult, StepResult } from '../types.js'

/** Shared wording of every reporter, so a failure reads the same in a terminal, a file and CI. */

export const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`

export const failedStep = (result: ScenarioResult): StepResult | undefined =>
  result.steps.find((s) => s.status === 'failed')

/** The lines that explain one failure: the step, what is wrong, the interface sections, the curl. */
export function failureLines(result: ScenarioResult): string[] {
  const step = failedStep(result)
  if (!step) return []
  const lines = [`step ${step.label}:`, ...(step.message ?? '').split('\n').map((l) => `  ${l}`)]
  if (step.section) lines.push(`interface: ${step.section}`)
  if (step.curl) lines.push(`reproduce: ${step.curl}`)
  return lines
}

export function summaryLine(summary: RunSummary): string {
  const total = summary.results.length
  const parts = [`${summary.passed} passed`, `${summary.failed} failed`, `${summary.skipped} skipped`]
  return `${total} scenario${total === 1 ? '' : 's'}: ${parts.join(', ')} in ${seconds(summary.ms)}`
}

/** Steps skipped inside a scenario that passed (the other side's steps in a `both` scenario). */
export const skippedSteps = (result: ScenarioResult) => result.steps.filter((s) => s.status === 'skipped')

/**
 * What was not run and why, one line per reason with its scenarios (issue 30: a CI reader sees at
 * a glance which declaration or flow would run more): `not run (3): your adapter declares no
 * \`void\` action: merchant-a, merchant-b`.
 */
export function notRunLines(summary: RunSummary): string[] {
  const groups = summary.notRun ?? []
  if (!groups.length) return []
  return [
    'not run, and why:',
    ...groups.map((g) => `  ${g.reason} (${g.scenarios.length}): ${g.scenarios.join(', ')}`),
  ]
}

/**
 * The failed scenarios by id and name (issue 33: a CI reader sees at once which ones to open):
 * `failed (2):` then `  merchant-refund  Partial refund, then a second one`.
 */
export function failedLines(summary: RunSummary): string[] {
  const failed = summary.results.filter((r) => r.status === 'failed')
  if (!failed.length) return []
  return [`failed (${failed.length}):`, ...failed.map((r) => `  ${r.slug}  ${r.title}`)]
}

/** A line a CI reader must see whole: what the interface expects, or what to change. */
const essential = (line: string) => /^(?:\d+\.\s+)?(?:expected\b|fix:)/i.test(line.trim())

/**
 * One failure in at most `limit` characters (JUnit's `message` attribute, shown on one line by
 * CI viewers): the cause first, then the step, then every Expected and Fix line whole; the lines
 * between (requests, answers, what the merchant did) fill what room is left, in order, and what
 * does not fit is replaced by ` … ` (issue 33). The limit never cuts the cause, Expected or Fix.
 */
export function failureMessage(result: ScenarioResult, limit = 600): string {
  const step = failedStep(result)
  if (!step) return result.reason ?? result.status
  const lines = (step.message ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  const [cause = '(no message)', ...rest] = lines
  const head = `${cause} [step ${step.label}]`
  const kept = rest.filter(essential)
  let room = limit - head.length - kept.reduce((n, l) => n + l.length + 1, 0)
  const parts = [head]
  let cut = false
  for (const line of rest) {
    if (essential(line)) {
      parts.push(line)
      continue
    }
    if (line.length + 1 <= room) {
      room -= line.length + 1
      parts.push(line)
    } else if (!cut) {
      cut = true
      parts.push('…')
    }
  }
  return parts.join(' ')
}
