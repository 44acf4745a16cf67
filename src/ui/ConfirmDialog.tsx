import { Box, Text, useInput } from 'ink'
import { cell } from './format.js'
import { useTheme } from './theme.js'

interface Props {
  title: string
  lines?: string[]
  width: number
  maxLines: number
  onAnswer: (yes: boolean) => void
}

/** Nothing happens to the sandbox until the operator says yes. */
export function ConfirmDialog({ title, lines = [], width, maxLines, onAnswer }: Props) {
  const theme = useTheme()
  useInput((input, key) => {
    if (input === 'y' || input === 'Y' || key.return) onAnswer(true)
    else if (input === 'n' || input === 'N' || key.escape || input === 'q') onAnswer(false)
  })
  const inner = Math.max(10, width - 4)
  const shown = lines.slice(0, Math.max(0, maxLines))
  return (
    <Box flexDirection="column" borderStyle="double" width={width} paddingX={1}>
      <Text {...theme.tone('warn')} bold={theme.colors}>
        {cell(`Confirm: ${title}`, inner)}
      </Text>
      {shown.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static lines
        <Text key={i}>{cell(line, inner)}</Text>
      ))}
      {lines.length > shown.length ? <Text>{`… ${lines.length - shown.length} more lines`}</Text> : null}
      <Text {...theme.tone('accent')}>{'[y] yes, do it   [n] no, cancel'}</Text>
    </Box>
  )
}
