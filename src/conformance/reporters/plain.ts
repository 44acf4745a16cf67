import type { Reporter, RunSummary, ScenarioResult } from '../types.js'
import { failedLines, failureLines, notRunLines, seconds, summaryLine } from './format.js'
import { redacting } from './redact.js'

export type Write = (text: string) => void

/** One line per scenario as it finishes, failures explained, a summary: for logs and non-TTY output. */
export function plainReporter(
  write: Write = (t) => process.stdout.write(t),
  options: { verbose?: boolean } = {},
): Reporter {
  return redacting({
    start({ total, target, mode, notes }) {
      write(`paysandbox test: ${total} scenario${total === 1 ? '' : 's'} in ${mode} mode against ${target}\n`)
      for (const note of notes ?? []) write(`note: ${note}\n`)
    },
    scenarioFinished(result: ScenarioResult) {
      const mark = result.status === 'passed' ? 'PASS' : result.status === 'failed' ? 'FAIL' : 'SKIP'
      write(`${mark} ${result.slug}  ${result.title} (${seconds(result.ms)})\n`)
      if (result.status === 'failed') for (const line of failureLines(result)) write(`     ${line}\n`)
      if (result.status === 'skipped' && result.reason) write(`     ${result.reason}\n`)
      if (options.verbose)
        for (const step of result.steps)
          write(`     ${step.status === 'passed' ? 'ok' : step.status} ${step.label}\n`)
    },
    finish(summary: RunSummary) {
      if (summary.infrastructure) write(`stopped: ${summary.infrastructure}\n`)
      for (const line of [...notRunLines(summary), ...failedLines(summary)]) write(`${line}\n`)
      write(`${summaryLine(summary)}\n`)
    },
  })
}
