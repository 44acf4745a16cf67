import type { Reporter, RunSummary, ScenarioResult } from '../types.js'
import { failedLines, failedStep, failureLines, failureMessage, notRunLines } from './format.js'
import type { Write } from './plain.js'
import { redacting } from './redact.js'

/** XML text and attribute escaping; characters XML 1.0 cannot hold at all are dropped. */
export const xml = (s: string): string =>
  s
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters XML 1.0 forbids.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')

/** A name a viewer shows as one word: viewers split class names at dots into packages. */
const word = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')

/**
 * The test case's class: the scenario's family, from its first two tags (`checkout_refund`,
 * `s2s_card_recurring`), else its name's first word; never an interface section ("2.1.4").
 */
export function classname(r: Pick<ScenarioResult, 'tags' | 'slug'>): string {
  const tags = r.tags.slice(0, 2).map(word).filter(Boolean)
  return tags.length ? tags.join('_') : word(r.slug.split('-')[0] ?? r.slug) || 'scenario'
}

function testcase(r: ScenarioResult): string {
  const attrs = `name="${xml(`${r.slug}: ${r.title}`)}" classname="${xml(classname(r))}" file="${xml(r.file)}" time="${(r.ms / 1000).toFixed(3)}"`
  if (r.status === 'passed') return `    <testcase ${attrs}/>`
  if (r.status === 'skipped')
    return `    <testcase ${attrs}>\n      <skipped message="${xml(r.reason ?? 'skipped')}"/>\n    </testcase>`
  const step = failedStep(r)
  // The cause first, Expected and Fix whole (issue 33): the full text is the element's body.
  const message = failureMessage(r)
  return `    <testcase ${attrs}>\n      <failure message="${xml(message)}" type="${xml(step?.kind ?? 'failure')}">${xml(failureLines(r).join('\n'))}</failure>\n    </testcase>`
}

/** JUnit XML for CI (one testsuite, one testcase per scenario), written at the end. */
export function junitReporter(write: Write): Reporter {
  let mode = 'conformance'
  return redacting({
    start(info) {
      mode = info.mode
    },
    scenarioFinished() {},
    finish(summary: RunSummary) {
      const lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<testsuites name="paysandbox" tests="${summary.results.length}" failures="${summary.failed}" skipped="${summary.skipped}" time="${(summary.ms / 1000).toFixed(3)}">`,
        `  <testsuite name="paysandbox_${mode}_mode" tests="${summary.results.length}" failures="${summary.failed}" errors="0" skipped="${summary.skipped}" time="${(summary.ms / 1000).toFixed(3)}">`,
        ...summary.results.map(testcase),
        // What was not run and why, and the failed scenarios by id and name, as the plain report says them.
        ...(summary.failed || summary.notRun?.length
          ? [
              `    <system-out>${xml([...notRunLines(summary), ...failedLines(summary)].join('\n'))}</system-out>`,
            ]
          : []),
        '  </testsuite>',
        '</testsuites>',
      ]
      write(`${lines.join('\n')}\n`)
    },
  })
}
