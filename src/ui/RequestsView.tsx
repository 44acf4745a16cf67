import { Box, Text, useInput } from 'ink'
import { useState } from 'react'
import type { RequestRecord } from './client-types.js'
import { requestDetail, requestRow } from './request-lines.js'
import { Segments } from './Segments.js'
import { TextPanel } from './TextPanel.js'
import { useTheme } from './theme.js'
import { useUi } from './ui-context.js'
import { useListCursor, windowOf } from './use-list-cursor.js'
import { useRemote } from './use-remote.js'

export const REQUESTS_HINTS = '↑↓ move  Enter the request whole  Esc back to the payment'
export const REQUEST_DETAIL_HINTS = 'Esc back to the list  ↑↓ scroll'

/**
 * An order's requests (the request log, docs/rules.md#request-log), oldest first: the merchant's,
 * the payer's, the console's; Enter shows one whole with its warnings and the rule of its refusal.
 */
export function RequestsView({
  merchant,
  order,
  active,
  onBack,
}: {
  merchant: string
  order: string
  active: boolean
  onBack: () => void
}) {
  const ui = useUi()
  const theme = useTheme()
  const list = useRemote(
    () => ui.client.requests({ merchant, order_id: order, order: 'asc', limit: '500' }),
    [merchant, order, ui.tick],
  )
  const requests: RequestRecord[] = list.data?.requests ?? []
  const [selected, select] = useState<string>()
  const [open, setOpen] = useState<string>()
  const rows = Math.max(1, ui.height - 3)
  const index = useListCursor({
    ids: requests.map((r) => r.id),
    selected,
    select,
    page: rows,
    active: active && !open,
    onOpen: setOpen,
  })
  useInput(
    (_input, key) => {
      if (!(key.escape || key.leftArrow || key.backspace)) return
      if (open) setOpen(undefined)
      else onBack()
    },
    { isActive: active },
  )
  const shown = open ? requests.find((r) => r.id === open) : undefined
  if (shown)
    return (
      <TextPanel lines={requestDetail(shown, ui.width)} height={ui.height} width={ui.width} active={active} />
    )
  const { start, end } = windowOf(index, requests.length, rows)
  const log = list.data?.log
  return (
    <Box flexDirection="column" height={ui.height}>
      <Text {...theme.tone('accent')}>
        {`Requests of order ${order} (${merchant}): ${list.data ? list.data.total : '…'}${log && log.per_merchant === 0 ? '  the request log is off (limits.request_log 0)' : ''}`}
      </Text>
      <Text {...theme.tone('muted')}>{REQUESTS_HINTS}</Text>
      {list.error ? <Text {...theme.tone('bad')}>{list.error}</Text> : null}
      {list.data && !requests.length ? (
        <Text {...theme.tone('muted')}>
          No request of this order in the log (it keeps the newest {log?.per_merchant ?? 0} per merchant).
        </Text>
      ) : null}
      {requests.slice(start, end).map((r, i) => (
        <Box key={r.id}>
          <Text inverse={start + i === index}>{start + i === index ? '›' : ' '}</Text>
          <Segments line={requestRow(r, ui.width - 1)} />
        </Box>
      ))}
    </Box>
  )
}
