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
