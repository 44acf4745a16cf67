import { Box, Text, useInput } from 'ink'
import type { ScheduleView } from './client-types.js'
import { exportAction } from './file-actions.js'
import { copyStatusCurl, merchantAction, payerAction } from './payment-actions.js'
import { paymentLines } from './payment-lines.js'
import { TextPanel } from './TextPanel.js'
import { useTheme } from './theme.js'
import { useUi } from './ui-context.js'
import { useRemote } from './use-remote.js'

export const DETAIL_HINTS = 'Esc back  a/d payer  c capture  f refund  v void  e export  y curl  b callbacks'

/** One payment: order, timeline, card, 3DS, custom_data, schedule, redirects, callbacks; and what can be done to it. */
export function PaymentDetailView({
  id,
  active,
  onBack,
}: {
  id: string
  active: boolean
  onBack: () => void
}) {
  const ui = useUi()
  const theme = useTheme()
  const { client } = ui
  const detail = useRemote(() => client.payment(id), [id, ui.tick])
  const callbacks = useRemote(() => client.callbacks({ payment_id: id, per_page: '100' }), [id, ui.tick])
  const scheduleId = detail.data?.payment.schedule_id
  const schedules = useRemote<ScheduleView[]>(
    () => (scheduleId ? client.schedules() : Promise.resolve([])),
    [scheduleId, ui.tick],
  )
  const payment = detail.data?.payment
  useInput(
    (input, key) => {
      if (key.escape || key.backspace || key.leftArrow) return onBack()
      if (!payment) return
      if (input === 'a') payerAction(ui, payment, 'approve')
      else if (input === 'd') payerAction(ui, payment, 'decline')
      else if (input === 'x') payerAction(ui, payment, 'expire')
      else if (input === 'w') payerAction(ui, payment, 'pending')
      else if (input === 'c') merchantAction(ui, payment, 'capture')
      else if (input === 'f') merchantAction(ui, payment, 'refund')
      else if (input === 'v') merchantAction(ui, payment, 'void')
      else if (input === 'e') exportAction(ui, payment)
      else if (input === 'y') void copyStatusCurl(ui, payment)
      else if (input === 'b') ui.showCallbacks(payment.id)
    },
    { isActive: active },
  )
  if (!detail.data) {
    return (
      <Box height={ui.height}>
        <Text {...theme.tone(detail.error ? 'bad' : 'muted')}>
          {detail.error ? `Payment ${id}: ${detail.error}  (Esc back)` : `Loading payment ${id}…`}
        </Text>
      </Box>
    )
  }
  const schedule = schedules.data?.find((s) => s.id === scheduleId)
  const ordered = [...(callbacks.data?.deliveries ?? [])].sort((a, b) => a.seq - b.seq)
  const lines = paymentLines(detail.data, ordered, schedule, client.baseUrl, ui.width)
  return (
    <Box flexDirection="column" height={ui.height}>
      {detail.error ? <Text {...theme.tone('bad')}>{`(last seen) ${detail.error}`}</Text> : null}
      <TextPanel lines={lines} height={ui.height - (detail.error ? 1 : 0)} width={ui.width} active={active} />
    </Box>
  )
}
