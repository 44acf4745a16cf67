import { Box, Text } from 'ink'
import type { ConnectionState } from './connection.js'
import { dateTime, cell } from './format.js'
import { useTheme } from './theme.js'

interface Props {
  /** `url`, `data FILE`, `embedded`. */
  mode: string
  url: string
  connection: ConnectionState
  /** Sandbox time (ms) and clock kind, when known. */
  clock?: { now: number; kind: string }
  width: number
}

/** The link in one word or two: a sandbox that refuses the console's control token is not offline. */
export const linkLabel = (connection: ConnectionState): string =>
  connection.kind === 'token'
    ? connection.given
      ? 'WRONG TOKEN'
      : 'TOKEN NEEDED'
    : { connecting: 'connecting', connected: 'live', reconnecting: 'OFFLINE' }[connection.kind]

/** One line: where the console looks, whether it is live, and the sandbox's time. */
export function Header({ mode, url, connection, clock, width }: Props) {
  const theme = useTheme()
  const tone = connection.kind === 'connected' ? 'good' : connection.kind === 'connecting' ? 'wait' : 'bad'
  const link = linkLabel(connection)
  const time = clock ? `${dateTime(clock.now)} ${clock.kind}` : ''
  const left = `paysandbox ${mode} ${url}`
  const room = Math.max(10, width - time.length - link.length - 4)
  return (
    <Box width={width}>
      <Text {...theme.tone('accent')} bold={theme.colors}>
        {cell(left, room)}
      </Text>
      <Text> </Text>
      <Text {...theme.tone(tone)}>{`[${link}]`}</Text>
      <Text> {time}</Text>
    </Box>
  )
}
