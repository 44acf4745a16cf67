import { Box, render, Static, Text } from 'ink'
import type { LoadedScenario, Reporter, RunSummary, ScenarioResult, StepResult } from '../types.js'
import { failedLines, failureLines, notRunLines, seconds, summaryLine } from './format.js'
import { redacting } from './redact.js'

/**
 * The terminal view while a run goes (ink): finished scenarios scroll above, the running ones and
 * the counts stay at the bottom. Imported only when stdout is a TTY and no other reporter was
 * asked for (cli/commands/test.ts), so CI never loads ink.
 */

export interface LiveState {
  total: number
  target: string
  mode: string
  /** What the target lacks (an external gateway's missing merchant settings), said before the run. */
  notes?: string[]
  running: { slug: string; title: string; step?: string }[]
  finished: ScenarioResult[]
  summary?: RunSummary
}

const MARK = { passed: '✔', failed: '✘', skipped: '○' } as const
const COLOR = { passed: 'green', failed: 'red', skipped: 'yellow' } as const

function Finished({ result }: { result: ScenarioResult }) {
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={COLOR[result.status]}>{MARK[result.status]}</Text> {result.slug}{' '}
        <Text dimColor>
          {result.title} ({seconds(result.ms)})
        </Text>
      </Text>
      {result.status === 'failed' &&
        failureLines(result).map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one failure never reorder.
          <Text key={i} color={i === 0 ? 'red' : undefined}>
            {'    '}
            {line}
          </Text>
        ))}
      {result.status === 'skipped' && result.reason && <Text dimColor>{`    ${result.reason}`}</Text>}
    </Box>
  )
}

export function LiveRun({ state }: { state: LiveState }) {
  const passed = state.finished.filter((r) => r.status === 'passed').length
  const failed = state.finished.filter((r) => r.status === 'failed').length
  const skipped = state.finished.filter((r) => r.status === 'skipped').length
  return (
    <Box flexDirection="column">
      {(state.notes ?? []).map((note) => (
        <Text key={note} color="yellow">{`note: ${note}`}</Text>
      ))}
      <Static items={state.finished}>{(result) => <Finished key={result.slug} result={result} />}</Static>
      {!state.summary &&
        state.running.slice(0, 8).map((r) => (
          <Text key={r.slug} dimColor>
            {'… '}
            {r.slug}
            {r.step ? `  ${r.step}` : ''}
          </Text>
        ))}
      {state.summary &&
        [...notRunLines(state.summary), ...failedLines(state.summary)].map((line) => (
          <Text key={line} dimColor>
            {line}
          </Text>
        ))}
      <Text>
        {state.summary ? (
          summaryLine(state.summary)
        ) : (
          <>
            {`${state.finished.length}/${state.total} against ${state.target} · `}
            <Text color="green">{passed} passed</Text>
            {' · '}
            <Text color={failed ? 'red' : undefined}>{failed} failed</Text>
            {` · ${skipped} skipped`}
          </>
        )}
      </Text>
    </Box>
  )
}

export function liveReporter(stdout: NodeJS.WriteStream = process.stdout): Reporter {
  const state: LiveState = { total: 0, target: '', mode: '', running: [], finished: [] }
  let instance: ReturnType<typeof render> | undefined
  const draw = () => {
    const view = <LiveRun state={{ ...state, running: [...state.running], finished: [...state.finished] }} />
    if (instance) instance.rerender(view)
    else instance = render(view, { stdout, patchConsole: false, exitOnCtrlC: true })
  }
  return redacting({
    start(info) {
      Object.assign(state, info)
      draw()
    },
    scenarioStarted(s: LoadedScenario) {
      state.running.push({ slug: s.slug, title: s.scenario.title })
      draw()
    },
    stepFinished(s: LoadedScenario, step: StepResult) {
      const entry = state.running.find((r) => r.slug === s.slug)
      if (entry) entry.step = step.label
      draw()
    },
    scenarioFinished(result) {
      state.running = state.running.filter((r) => r.slug !== result.slug)
      state.finished.push(result)
      draw()
    },
    async finish(summary) {
      state.summary = summary
      draw()
      instance?.unmount()
      await instance?.waitUntilExit()
    },
  })
}
