import { Box, Text } from 'ink'
import { TABS, type TabId } from './tab-list.js'
import { useTheme } from './theme.js'

/** `[1 Payments]  2 Callbacks ...`: the brackets mark the open view without colour too. */
export function Tabs({ current }: { current: TabId }) {
  const theme = useTheme()
  return (
    <Box>
      {TABS.map((tab, i) => {
        const on = tab.id === current
        const label = `${i + 1} ${tab.label}`
        return (
          <Text key={tab.id} {...(on ? theme.tone('accent') : {})} bold={on && theme.colors}>
            {on ? `[${label}]` : ` ${label} `}
          </Text>
        )
      })}
    </Box>
  )
}
