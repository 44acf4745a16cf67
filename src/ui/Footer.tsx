import { Box, Text } from 'ink'
import { cell } from './format.js'
import type { Tone } from './theme.js'
import { useTheme } from './theme.js'

/** The last notice (an action's result, an error) and the keys of the open view. */
export function Footer({
  notice,
  hints,
  width,
}: {
  notice?: { text: string; tone: Tone }
  hints: string
  width: number
}) {
  const theme = useTheme()
  return (
    <Box flexDirection="column">
      <Text {...theme.tone(notice?.tone)}>{cell(notice?.text ?? '', width)}</Text>
      <Text {...theme.tone('muted')}>{cell(withGlobalKeys(hints, width), width)}</Text>
    </Box>
  )
}

/** The view's keys first; the global ones as far as they fit. */
function withGlobalKeys(hints: string, width: number): string {
  for (const tail of ['  F fault  ? help  q quit', '  F fault  ? help', '  ? help', ''])
    if (hints.length + tail.length <= width) return hints + tail
  return hints
}
