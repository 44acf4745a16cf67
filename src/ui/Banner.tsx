import { Text } from 'ink'
import type { ConnectionState } from './connection.js'
import { describeDuration, cell } from './format.js'
import { useTheme } from './theme.js'

/**
 * Says what the console needs when the sandbox refuses its control token. Says so when the sandbox has gone away, and that the console keeps trying; what is on screen is
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
  if (connection.kind === 'token')
    return <Text {...theme.tone('bad')}>{cell(tokenBanner(connection.given), width)}</Text>
  if (connection.kind !== 'reconnecting') return null
  const away = describeDuration(Math.max(0, now - connection.since) / 1000)
  const cause = /\(([^)]+)\)$/.exec(connection.error)?.[1] ?? connection.error
  const text = `!! DISCONNECTED ${away} (${cause}): reconnecting, attempt ${connection.attempt}; last data shown`
  return <Text {...theme.tone('bad')}>{cell(text, width)}</Text>
}

/** Within 80 columns: what is wrong and what to give (the footer and `?` say no more than this). */
export const tokenBanner = (given: boolean): string =>
  given
    ? '!! WRONG TOKEN: the sandbox refused --control-token; give the one it serves with'
    : '!! TOKEN NEEDED: this sandbox has a control token: tui --control-token TOKEN'
