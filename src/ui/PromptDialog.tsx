import { Box, Text, useInput } from 'ink'
import { useState } from 'react'
import { cell } from './format.js'
import { textOf } from './keys.js'
import { useTheme } from './theme.js'

interface Props {
  label: string
  initial?: string
  hint?: string
  width: number
  onSubmit: (value: string) => void
  onCancel: () => void
}

/** One line of text: a filter, an amount, a file name, a duration. Enter submits, Esc cancels. */
export function PromptDialog({ label, initial = '', hint, width, onSubmit, onCancel }: Props) {
  const theme = useTheme()
  const [value, setValue] = useState(initial)
  useInput((input, key) => {
    if (key.return) onSubmit(value)
    else if (key.escape) onCancel()
    else if (key.backspace || key.delete) setValue((v) => v.slice(0, -1))
    else if (key.ctrl && input === 'u') setValue('')
    else {
      // A paste arrives as one chunk, possibly wrapped in bracketed-paste markers: keep its text only.
      const text = textOf(input, key)
      if (text) setValue((v) => v + text)
    }
  })
  const inner = Math.max(10, width - 4)
  return (
    <Box flexDirection="column" borderStyle="single" width={width} paddingX={1}>
      <Text {...theme.tone('accent')}>{cell(label, inner)}</Text>
      <Text>{cell(`> ${tail(value, inner - 3)}_`, inner)}</Text>
      <Text {...theme.tone('muted')}>
        {cell(hint ?? 'Enter to accept, Esc to cancel, Ctrl+U to clear', inner)}
      </Text>
    </Box>
  )
}

/** The end of a long value, where the cursor is. */
const tail = (value: string, room: number) => (value.length > room ? `…${value.slice(-(room - 1))}` : value)
