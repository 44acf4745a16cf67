import { Text } from 'ink'
import type { ConnectionState } from './connection.js'
import { describeDuration, cell } from './format.js'
import { useTheme } from './theme.js'

/**
 * Says so when the sandbox has gone away, and that the console keeps trying; what is on screen is
 * the last thing seen. Nothing while connected.
 */
export function Banner({
  connection,
  width,
  now = Date.now(),
}: {
  connection: ConnectionState
  width: number
  now?: number
}) {
  const theme = useTheme()
  if (connection.kind !== 'reconnecting') return null
  const away = describeDuration(Math.max(0, now - connection.since) / 1000)
  const cause = /\(([^)]+)\)$/.exec(connection.error)?.[1] ?? connection.error
  const text = `!! DISCONNECTED ${away} (${cause}): reconnecting, attempt ${connection.attempt}; last data shown`
  return <Text {...theme.tone('bad')}>{cell(text, width)}</Text>
}
