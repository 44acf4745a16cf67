import { Text } from 'ink'
import type { Line } from './lines.js'
import { useTheme } from './theme.js'

/** One line of segments (lines.ts), each in its tone. */
export function Segments({ line }: { line: Line }) {
  const theme = useTheme()
  return (
    <Text wrap="truncate">
      {line.map((s, i) => (
        // Segments of a line never reorder, so their position is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: static order
        <Text key={i} {...theme.tone(s.tone)} bold={Boolean(s.bold) && theme.colors}>
          {s.text}
        </Text>
      ))}
    </Text>
  )
}
