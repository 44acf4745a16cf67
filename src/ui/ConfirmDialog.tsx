import { Box, Text, useInput } from 'ink'
import { wrapWords } from './lines.js'
import { useTheme } from './theme.js'

interface Props {
  title: string
  lines?: string[]
  width: number
  maxLines: number
  onAnswer: (yes: boolean) => void
}

/**
 * The title and lines of a confirmation as shown: wrapped between words to the dialog's inside,
 * never cut (what a run acts as and against what must be read whole before saying yes).
 */
export function confirmRows(
  title: string,
  lines: string[],
  width: number,
): { title: string[]; lines: string[] } {
  const inner = Math.max(10, width - 4)
  return {
    title: wrapWords(`Confirm: ${title}`, inner),
    lines: lines.flatMap((line) => wrapWords(line, inner)),
  }
}

/** Nothing happens to the sandbox until the operator says yes. */
export function ConfirmDialog({ title, lines = [], width, maxLines, onAnswer }: Props) {
  const theme = useTheme()
  useInput((input, key) => {
    if (input === 'y' || input === 'Y' || key.return) onAnswer(true)
    else if (input === 'n' || input === 'N' || key.escape || input === 'q') onAnswer(false)
  })
  const rows = confirmRows(title, lines, width)
  const shown = rows.lines.slice(0, Math.max(0, maxLines - rows.title.length + 1))
  return (
    <Box flexDirection="column" borderStyle="double" width={width} paddingX={1}>
      {rows.title.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines of one wrapped text
        <Text key={`t${i}`} {...theme.tone('warn')} bold={theme.colors}>
          {line}
        </Text>
      ))}
      {shown.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static lines
        <Text key={i}>{line}</Text>
      ))}
      {rows.lines.length > shown.length ? (
        <Text>{`… ${rows.lines.length - shown.length} more lines`}</Text>
      ) : null}
      <Text {...theme.tone('accent')}>{'[y] yes, do it   [n] no, cancel'}</Text>
    </Box>
  )
}
