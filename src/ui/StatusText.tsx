import { Text } from 'ink'
import { statusTone, useTheme } from './theme.js'

/** A status word in its colour; the word itself always carries the meaning. */
export function StatusText({ status, width }: { status: string; width?: number }) {
  const theme = useTheme()
  const text = width ? status.padEnd(width).slice(0, width) : status
  return <Text {...theme.tone(statusTone(status))}>{text}</Text>
}
