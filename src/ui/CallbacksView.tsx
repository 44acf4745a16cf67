import type { ControlClient } from './client.js'
import { Box, Text, useInput } from 'ink'
import { useEffect, useState } from 'react'
import { callbackLines } from './callback-lines.js'
import type { DeliveryView } from './client-types.js'
import { curlCommand, curlLines } from './curl.js'
import { cell, shortId, shortTime } from './format.js'
import { callbackQuery, describeFilter, type PaymentFilter, pageSummary, parseFilter } from './filters.js'
import { keysOf } from './keys.js'
import { wrap } from './lines.js'
import { StatusText } from './StatusText.js'
import { TextPanel } from './TextPanel.js'
import { useTheme } from './theme.js'
import { useUi } from './ui-context.js'
import { useListCursor, windowOf } from './use-list-cursor.js'
import { useRemote } from './use-remote.js'

/** How long the console waits for a replay's first attempt to end (the callback time-out is 10 s by default). */
const REPLAY_WAIT_MS = 15_000

/**
 * The replay's result once its first attempt has ended: the merchant's answer, or why it failed.
 * The sandbox sends a replay at once; the console asks for it until it is no longer queued or
 * being delivered (polling with a bound, never a fixed wait).
 */
export async function replayOutcome(
  client: Pick<ControlClient, 'callback'>,
  id: string,
  waitMs = REPLAY_WAIT_MS,
): Promise<string> {
  const until = Date.now() + waitMs
  for (;;) {
    const d = await client.callback(id)
    const last = d.attempts.at(-1)
    if (d.state !== 'queued' && d.state !== 'delivering' && last) {
      const answer = last.blocked
        ? 'not sent: the URL is blocked'
        : last.timed_out
          ? 'timed out'
          : last.status !== undefined
            ? `HTTP ${last.status}`
            : (last.error ?? 'no answer')
      return `Replay ${d.id}: ${d.state} (${answer}).`
    }
    if (Date.now() >= until)
      return `Replay ${d.id}: ${d.state}; its first attempt has not ended yet (the callbacks view follows it).`
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export const CALLBACKS_HINTS = '↑↓ move  Enter attempts  / filter  p replay  y curl  x clear  [ ] pages'
export const CALLBACK_DETAIL_HINTS = 'Esc back  p replay  y copy as curl  ↑↓ scroll'

/** Every callback delivery, newest first, or one payment's; Enter shows its attempts and body. */
export function CallbacksView({
  active,
  paymentId,
  clearPayment,
  onOpenChange,
}: {
  active: boolean
  paymentId?: string
  clearPayment: () => void
  onOpenChange?: (open: boolean) => void
}) {
  const ui = useUi()
  const theme = useTheme()
  const [selected, select] = useState<string>()
  const [open, setOpen] = useState<string>()
  useEffect(() => onOpenChange?.(open !== undefined), [open, onOpenChange])
  const [filter, setFilter] = useState<PaymentFilter>({})
  const [page, setPage] = useState(1)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts at its first page
  useEffect(() => setPage(1), [JSON.stringify(filter), paymentId])
  // The sandbox filters and searches every delivery; the console shows one page of its answer.
  const query = callbackQuery(filter, paymentId, page)
  const list = useRemote(() => ui.client.callbacks(query), [JSON.stringify(query), ui.tick])
  const total = list.data?.total ?? 0
  const pages = Math.max(1, Math.ceil(total / 100))
  const detail = useRemote(
    () => (open ? ui.client.callback(open) : Promise.resolve(undefined)),
    [open, ui.tick],
  )
  const items = list.data?.deliveries ?? []
  const rows = Math.max(1, ui.height - 2)
  const index = useListCursor({
    ids: items.map((d) => d.id),
    selected,
    select,
    page: rows,
    active: active && !open,
    onOpen: setOpen,
  })
  const current = open ?? items[index]?.id
  useInput(
    (input, key) => {
      if (open && (key.escape || key.leftArrow)) return setOpen(undefined)
      if (!open) {
        const keys = keysOf(input, key)
        const turn = keys.filter((k) => k === ']').length - keys.filter((k) => k === '[').length
        if (turn) return setPage((p) => Math.max(1, Math.min(pages, p + turn)))
        if (input === 'x') {
          setFilter({})
          return clearPayment()
        }
        if (input === '/')
          return ui.prompt({
            label: 'Filter callbacks',
            initial: describeFilter(filter, 'callbacks').replace(/"/g, ''),
            hint: 'merchant:KEY state:failed order:NUMBER kind:refund, or part of a payment, order or delivery id',
            onSubmit: (text) => {
              const parsed = parseFilter(text)
              if ('problem' in parsed) ui.notify(parsed.problem, 'bad')
              else setFilter(parsed.filter)
            },
          })
      }
      if (!current) return
      if (input === 'p') replay(current)
      else if (input === 'y') void copyCurl(current)
    },
    { isActive: active },
  )
  const replay = (id: string) =>
    ui.confirm({
      title: `replay callback ${shortId(id)} to the merchant?`,
      lines: ['The same fields are sent again, as a new delivery marked replay_of.'],
      run: async () => {
        const r = await ui.client.replayCallback(id)
        return replayOutcome(ui.client, r.id)
      },
    })
  const copyCurl = async (id: string) => {
    try {
      const d = await ui.client.callback(id)
      const curl = curlCommand(d.url, d.request.content_type, d.request.body)
      ui.copy(curl)
      ui.showText(
        'curl: this callback, as the sandbox POSTs it (copied if the terminal allows)',
        curlLines(d.url, d.request.content_type, d.request.body).flatMap((line) =>
          wrap(line, ui.width - 2).map((l) => [{ text: l }]),
        ),
      )
    } catch (error) {
      ui.notify((error as Error).message, 'bad')
    }
  }
  if (open) {
    if (!detail.data) return <Text {...theme.tone('muted')}>{detail.error ?? 'Loading…'}</Text>
    return (
      <TextPanel
        lines={callbackLines(detail.data, ui.width)}
        height={ui.height}
        width={ui.width}
        active={active}
      />
    )
  }
  const { start, end } = windowOf(index, items.length, rows)
  return (
    <Box flexDirection="column" height={ui.height}>
      <Text>
        <Text {...theme.tone('muted')}>{paymentId ? `payment ${paymentId}  (x: all)` : 'all payments'}</Text>
        {describeFilter(filter) ? <Text>{`  filter ${describeFilter(filter, 'callbacks')}`}</Text> : null}
        <Text {...theme.tone('muted')}>
          {`  ${pageSummary(page, items.length, total)}${pages > 1 ? `  page ${page}/${pages} ([ ])` : ''}`}
        </Text>
        {list.error ? <Text {...theme.tone('bad')}>{`  ${list.error}`}</Text> : null}
      </Text>
      <Text {...theme.tone('muted')}>
        {cell(
          ui.width >= 120
            ? `  created     state         kind        tries last   ${'payment'.padEnd(36)} ${'merchant'.padEnd(18)} order`
            : '  created     state         kind        tries last   payment  order',
          ui.width,
        )}
      </Text>
      {items.slice(start, end).map((d, i) => (
        <CallbackRow key={d.id} delivery={d} selected={start + i === index} width={ui.width} />
      ))}
      {!items.length && !list.loading ? <Text {...theme.tone('muted')}> No callbacks.</Text> : null}
    </Box>
  )
}

function CallbackRow({
  delivery: d,
  selected,
  width,
}: {
  delivery: DeliveryView
  selected: boolean
  width: number
}) {
  const theme = useTheme()
  const last = d.attempts.at(-1)
  const code = last ? String(last.status ?? 'err') : '-'
  return (
    <Text wrap="truncate" {...(selected ? theme.tone('accent') : {})}>
      {selected ? '> ' : '  '}
      {cell(shortTime(d.created_at), 11)} <StatusText status={d.state} width={13} /> {cell(d.kind, 11)}{' '}
      {cell(String(d.attempts.length), 5)} {cell(code, 6)}{' '}
      {width >= 120
        ? `${cell(d.payment_id, 36)} ${cell(d.merchant_key, 18)} ${cell(d.order_id, Math.max(6, width - 120))}`
        : `${cell(shortId(d.payment_id), 8)} ${cell(d.order_id, Math.max(6, width - 64))}`}
    </Text>
  )
}
