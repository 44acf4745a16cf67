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

const LINK: Record<ConnectionState['kind'], string> = {
  connecting: 'connecting',
  connected: 'live',
  reconnecting: 'OFFLINE',
}

/** One line: where the console looks, whether it is live, and the sandbox's time. */
export function Header({ mode, url, connection, clock, width }: Props) {
  const theme = useTheme()
  const tone = connection.kind === 'connected' ? 'good' : connection.kind === 'reconnecting' ? 'bad' : 'wait'
  const time = clock ? `${dateTime(clock.now)} ${clock.kind}` : ''
  const left = `paysandbox ${mode} ${url}`
  const room = Math.max(10, width - time.length - LINK[connection.kind].length - 4)
  return (
    <Box width={width}>
      <Text {...theme.tone('accent')} bold={theme.colors}>
        {cell(left, room)}
      </Text>
      <Text> </Text>
      <Text {...theme.tone(tone)}>{`[${LINK[connection.kind]}]`}</Text>
      <Text> {time}</Text>
    </Box>
  )
}
