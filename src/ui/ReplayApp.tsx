import { Box, Text, useApp, useInput } from 'ink'
import { useMemo, useRef, useState } from 'react'
import type { ReplayReport } from '../replay/run.js'
import { stepDetail, stepRow } from './replay-lines.js'
import { Segments } from './Segments.js'
import { TextPanel } from './TextPanel.js'
import { createTheme, ThemeContext } from './theme.js'
import { useListCursor, windowOf } from './use-list-cursor.js'
import { useTerminalSize } from './use-terminal-size.js'

export const REPLAY_HINTS = '↑↓ j k step  n/p next/previous difference  Enter detail  Esc back  q quit'

/**
 * `paysandbox replay --console`: the replay's steps in a list, the selected step's recorded and
 * sandbox answers, their differences, the rule of a refusal and what was put back by role below
 * it; Enter shows a step whole.
 */
export function ReplayApp({
  report,
  colors,
  size: fixed,
}: {
  report: ReplayReport
  colors: boolean
  size?: { columns: number; rows: number }
}) {
  const { exit } = useApp()
  const size = useTerminalSize(fixed)
  const theme = useMemo(() => createTheme(colors), [colors])
  const ids = report.steps.map((s) => String(s.n))
  const firstDifferent = report.steps.find((s) => s.status === 'different')
  const [selected, select] = useState<string | undefined>(firstDifferent ? String(firstDifferent.n) : ids[0])
  const [open, setOpen] = useState(false)
  const width = size.columns
  const listHeight = Math.max(3, Math.floor((size.rows - 4) / 2))
  const index = useListCursor({
    ids,
    selected,
    select,
    page: listHeight,
    active: !open,
    onOpen: () => setOpen(true),
  })
  const differing = report.steps.filter((s) => s.status === 'different').map((s) => String(s.n))
  // Read when a key arrives, not when the handler was made: a key can come before the next frame's effects.
  const current = useRef(index)
  current.current = index
  useInput((input, key) => {
    if (input === 'q') return exit()
    if (open && (key.escape || key.leftArrow || key.backspace)) return setOpen(false)
    if (input === 'n' || input === 'p') {
      const at = current.current
      const next =
        input === 'n'
          ? differing.find((id) => ids.indexOf(id) > at)
          : [...differing].reverse().find((id) => ids.indexOf(id) < at)
      if (next) select(next)
    }
  })
  const step = report.steps[index]
  const detail = step ? stepDetail(step, width) : []
  const summary = `Replay of ${report.files.map((f) => f.file).join(', ')} as ${report.gateway}: ${report.differences} difference${report.differences === 1 ? '' : 's'} in ${differing.length} step${differing.length === 1 ? '' : 's'}`
  const { start, end } = windowOf(index, report.steps.length, listHeight)
  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" width={width}>
        <Text {...theme.tone(report.differences ? 'bad' : 'good')} bold={colors}>
          {summary.length > width ? `${summary.slice(0, width - 1)}…` : summary}
        </Text>
        {open ? (
          <TextPanel lines={detail} height={size.rows - 2} width={width} active={open} />
        ) : (
          <>
            <Box flexDirection="column" height={listHeight}>
              {report.steps.slice(start, end).map((s, i) => (
                <Box key={s.n}>
                  <Text inverse={start + i === index}>{start + i === index ? '›' : ' '}</Text>
                  <Segments line={stepRow(s, width - 1)} />
                </Box>
              ))}
            </Box>
            <Text {...theme.tone('muted')}>{'─'.repeat(Math.max(1, width))}</Text>
            <TextPanel
              lines={detail}
              height={Math.max(3, size.rows - listHeight - 4)}
              width={width}
              active={false}
            />
          </>
        )}
        <Text {...theme.tone('muted')}>{REPLAY_HINTS}</Text>
      </Box>
    </ThemeContext.Provider>
  )
}
