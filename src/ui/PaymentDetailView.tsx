import { Box, Text, useInput } from 'ink'
import { useState } from 'react'
import type { RequestsPage, ScheduleView } from './client-types.js'
import { exportAction } from './file-actions.js'
import { blank, heading, type Line, plain } from './lines.js'
import { copyStatusCurl, merchantAction, payerAction } from './payment-actions.js'
import { paymentLines } from './payment-lines.js'
import { requestRow } from './request-lines.js'
import { RequestsView } from './RequestsView.js'
import { exportScenarioAction } from './scenario-actions.js'
import { TextPanel } from './TextPanel.js'
import { useTheme } from './theme.js'
import { useUi } from './ui-context.js'
import { useRemote } from './use-remote.js'

export const DETAIL_HINTS =
  'Esc back  a/d payer  c capture  f refund  v void  e export  y curl  b callbacks  l requests  s scenario'

/** The newest requests of the payment's order shown in its detail; `l` opens them all. */
const REQUESTS_SHOWN = 6

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
  const [requestsOpen, setRequestsOpen] = useState(false)
  const requests = useRemote<RequestsPage | undefined>(
    () =>
      payment
        ? client.requests({
            merchant: payment.merchant_key,
            order_id: payment.order_id,
            order: 'asc',
            limit: '500',
          })
        : Promise.resolve(undefined),
    [payment?.merchant_key, payment?.order_id, ui.tick],
  )
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
      else if (input === 'l') setRequestsOpen(true)
      else if (input === 's') exportScenarioAction(ui, payment)
    },
    { isActive: active && !requestsOpen },
  )
  if (requestsOpen && payment)
    return (
      <RequestsView
        merchant={payment.merchant_key}
        order={payment.order_id}
        active={active}
        onBack={() => setRequestsOpen(false)}
      />
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
  const lines = [
    ...paymentLines(detail.data, ordered, schedule, client.baseUrl, ui.width),
    ...requestLines(requests.data, ui.width),
  ]
  return (
    <Box flexDirection="column" height={ui.height}>
      {detail.error ? <Text {...theme.tone('bad')}>{`(last seen) ${detail.error}`}</Text> : null}
      <TextPanel lines={lines} height={ui.height - (detail.error ? 1 : 0)} width={ui.width} active={active} />
    </Box>
  )
}

/** The order's requests under the payment: the newest few, the count, and how to see them all. */
function requestLines(page: RequestsPage | undefined, width: number): Line[] {
  if (!page) return []
  const out: Line[] = [
    blank,
    heading(`Requests of the order (${page.total})  l: open them  s: the order as a scenario`),
  ]
  if (page.log.per_merchant === 0)
    return [...out, plain('  the request log is off (limits.request_log 0)', 'muted')]
  for (const r of page.requests.slice(-REQUESTS_SHOWN)) out.push(requestRow(r, width))
  if (!page.requests.length) out.push(plain('  none in the log', 'muted'))
  return out
}
