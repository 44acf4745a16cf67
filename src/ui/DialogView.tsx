import { Box, Text, useInput } from 'ink'
import { ConfirmDialog, confirmRows } from './ConfirmDialog.js'
import { HelpOverlay } from './HelpOverlay.js'
import { PromptDialog } from './PromptDialog.js'
import { TextPanel } from './TextPanel.js'
import { useTheme } from './theme.js'
import type { Dialog } from './ui-context.js'

interface Props {
  dialog: Dialog
  width: number
  height: number
  close: () => void
  onConfirm: (yes: boolean) => void
}

/** Rows a dialog takes above the view (help and texts take the whole body). */
export function dialogRows(dialog: Dialog, height: number, width: number): number {
  if (dialog.kind === 'prompt') return 5
  if (dialog.kind === 'confirm') {
    const rows = confirmRows(dialog.title, dialog.lines ?? [], width)
    return Math.min(height, rows.title.length + rows.lines.length + 3)
  }
  return height
}

export function DialogView({ dialog, width, height, close, onConfirm }: Props) {
  switch (dialog.kind) {
    case 'help':
      return <HelpClose width={width} close={close} />
    case 'confirm':
      return (
        <ConfirmDialog
          title={dialog.title}
          lines={dialog.lines}
          width={width}
          maxLines={height - 4}
          onAnswer={onConfirm}
        />
      )
    case 'prompt':
      return (
        <PromptDialog
          label={dialog.label}
          initial={dialog.initial}
          hint={dialog.hint}
          width={width}
          onSubmit={(value) => {
            close()
            dialog.onSubmit(value)
          }}
          onCancel={close}
        />
      )
    case 'text':
      return (
        <TextDialog title={dialog.title} lines={dialog.lines} width={width} height={height} close={close} />
      )
  }
}

function HelpClose({ width, close }: { width: number; close: () => void }) {
  useInput(() => close())
  return <HelpOverlay width={width} />
}

function TextDialog({
  title,
  lines,
  width,
  height,
  close,
}: {
  title: string
  lines: import('./lines.js').Line[]
  width: number
  height: number
  close: () => void
}) {
  const theme = useTheme()
  useInput((input, key) => {
    if (key.escape || key.return || input === 'q') close()
  })
  return (
    <Box flexDirection="column" height={height}>
      <Text {...theme.tone('accent')} wrap="truncate">
        {title}
      </Text>
      <TextPanel lines={lines} height={height - 2} width={width} active />
      <Text {...theme.tone('muted')}>Esc, Enter or q closes</Text>
    </Box>
  )
}
