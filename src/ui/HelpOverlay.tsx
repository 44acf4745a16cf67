import { Box, Text } from 'ink'
import { cell } from './format.js'
import { useTheme } from './theme.js'

const HELP: [string, string][] = [
  ['Everywhere', '1-6/Tab views  r reload  t clock  i import  Esc back  q quit'],
  ['Lists', '↑↓ j k move  PgUp PgDn g G page/top/end  Enter open'],
  ['Payments', '/ filter: merchant: status: order: method: text  x clear'],
  ['Payment', 'a approve APM / pass 3DS / payer back from redirect'],
  ['', 'd decline APM / fail 3DS  x expire APM  w leave APM pending'],
  ['', 'c capture  f refund  v void: signed, sent as the merchant'],
  ['', 'e export JSON  y curl of a status lookup  b its callbacks'],
  ['Callbacks', 'Enter attempts and bodies  p replay  y curl  x all payments'],
  ['Schedules', 'p pause  s run'],
  ['Clock', 't advance (90s 15m 2h 1d)  m +1 min  h +1 hour  d +1 day'],
  ['Scenarios', 'Enter run the selected scenario  g run a tag'],
  ['Confirm', 'every action asks first: y/Enter runs it, n/Esc cancels'],
]

/** Every key, on one screen of 80x24. */
export function HelpOverlay({ width }: { width: number }) {
  const theme = useTheme()
  return (
    <Box flexDirection="column" borderStyle="single" width={width} paddingX={1}>
      <Text {...theme.tone('accent')} bold={theme.colors}>
        Keys (any key closes this help)
      </Text>
      {HELP.map(([section, keys]) => (
        <Text key={`${section}${keys}`}>
          <Text {...theme.tone('accent')}>{section.padEnd(11)}</Text>
          {cell(keys, Math.max(10, width - 15))}
        </Text>
      ))}
      <Text {...theme.tone('muted')}>Statuses are words; colours only repeat them. NO_COLOR=1: none.</Text>
    </Box>
  )
}
