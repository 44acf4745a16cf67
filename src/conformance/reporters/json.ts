import type { Reporter, RunSummary } from '../types.js'
import type { Write } from './plain.js'
import { redacting } from './redact.js'

/** The whole run as one JSON document (written at the end): results, steps, failures, curl commands. */
export function jsonReporter(write: Write): Reporter {
  let info: { total: number; target: string; mode: string } | undefined
  return redacting({
    start(i) {
      info = i
    },
    scenarioFinished() {},
    finish(summary: RunSummary) {
      write(
        `${JSON.stringify(
          {
            target: info?.target,
            mode: info?.mode,
            passed: summary.passed,
            failed: summary.failed,
            skipped: summary.skipped,
            ms: summary.ms,
            // The failed scenarios by id and name; each one's `reproduction` starts its sandbox again (paysandbox repro).
            failed_scenarios: summary.results
              .filter((r) => r.status === 'failed')
              .map((r) => ({ id: r.slug, name: r.title })),
            ...(summary.infrastructure ? { infrastructure: summary.infrastructure } : {}),
            // What was not run and why, grouped by reason (the need the adapter lacks).
            not_run: summary.notRun ?? [],
            scenarios: summary.results,
          },
          null,
          2,
        )}\n`,
      )
    },
  })
}
