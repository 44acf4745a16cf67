import { Box, Text } from 'ink'
import { cell } from './format.js'
import { BINDINGS, type Scope } from './keys.js'
import { useTheme } from './theme.js'

const SECTIONS: [Scope, string][] = [
  ['everywhere', 'Everywhere'],
  ['lists', 'Lists'],
  ['payments', 'Payments'],
  ['payment', 'Payment'],
  ['callbacks', 'Callbacks'],
  ['callback', 'Callback'],
  ['schedules', 'Schedules'],
  ['clock', 'Clock'],
  ['scenarios', 'Scenarios'],
  ['confirm', 'Confirm'],
]

/** The help rows, from the one key table (keys.ts): a section's bindings joined, wrapped to the width. */
export function helpRows(width: number): [string, string][] {
  const room = Math.max(20, width - 15)
  const rows: [string, string][] = []
  for (const [scope, title] of SECTIONS) {
    let line = ''
    let first = true
    for (const b of BINDINGS.filter((x) => x.scope === scope)) {
      const item = `${b.keys} ${b.does}`
      if (line && line.length + 2 + item.length > room) {
        rows.push([first ? title : '', line])
        first = false
        line = item
      } else line = line ? `${line}  ${item}` : item
    }
    if (line) rows.push([first ? title : '', line])
  }
  return rows
}

/** Every key, from the one table in keys.ts. */
export function HelpOverlay({ width }: { width: number }) {
  const theme = useTheme()
  return (
    <Box flexDirection="column" borderStyle="single" width={width} paddingX={1}>
      <Text {...theme.tone('accent')} bold={theme.colors}>
        Keys (any key closes this help)
      </Text>
      {helpRows(width).map(([section, keys]) => (
        <Text key={`${section}${keys}`}>
          <Text {...theme.tone('accent')}>{section.padEnd(11)}</Text>
          {cell(keys, Math.max(10, width - 15))}
        </Text>
      ))}
      <Text {...theme.tone('muted')}>Statuses are words; colours only repeat them. NO_COLOR=1: none.</Text>
    </Box>
  )
}
