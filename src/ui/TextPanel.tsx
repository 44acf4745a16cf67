import { Box, Text, useInput } from 'ink'
import { useEffect, useState } from 'react'
import { cropLine, type Line } from './lines.js'
import { Segments } from './Segments.js'
import { useTheme } from './theme.js'

interface Props {
  lines: Line[]
  height: number
  width: number
  /** Takes the scroll keys (↑↓ j k, PgUp PgDn space, g G) while true. */
  active: boolean
}

/** A scrollable block of lines that never grows past `height`: details, merchants, help texts. */
export function TextPanel({ lines, height, width, active }: Props) {
  const theme = useTheme()
  const [top, setTop] = useState(0)
  const room = Math.max(1, lines.length > height ? height - 1 : height)
  const maxTop = Math.max(0, lines.length - room)
  useEffect(() => {
    if (top > maxTop) setTop(maxTop)
  }, [top, maxTop])
  useInput(
    (input, key) => {
      const move = (to: number) => setTop(Math.max(0, Math.min(maxTop, to)))
      if (key.downArrow || input === 'j') move(top + 1)
      else if (key.upArrow || input === 'k') move(top - 1)
      else if (key.pageDown || input === ' ') move(top + room)
      else if (key.pageUp) move(top - room)
      else if (input === 'g') move(0)
      else if (input === 'G') move(maxTop)
    },
    { isActive: active },
  )
  const shown = lines.slice(top, top + room)
  return (
    <Box flexDirection="column" height={height}>
      {shown.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a window of lines, identified by position
        <Segments key={top + i} line={cropLine(line, width)} />
      ))}
      {lines.length > room ? (
        <Text {...theme.tone('muted')}>
          {`  lines ${top + 1}-${Math.min(lines.length, top + room)} of ${lines.length}  ↑↓ PgUp PgDn scroll`}
        </Text>
      ) : null}
    </Box>
  )
}
