import { Box, Text, useInput } from 'ink'
import { useEffect, useState } from 'react'
import { describeFilter, filterQuery, type PaymentFilter, pageSummary, parseFilter } from './filters.js'
import { keysOf } from './keys.js'
import { PaymentHeader, PaymentRow } from './PaymentRow.js'
import { useTheme } from './theme.js'
import { useUi } from './ui-context.js'
import { useListCursor, windowOf } from './use-list-cursor.js'
import { useRemote } from './use-remote.js'

interface Props {
  active: boolean
  filter: PaymentFilter
  setFilter: (filter: PaymentFilter) => void
  selected?: string
  select: (id: string | undefined) => void
}

export const PAYMENTS_HINTS = '↑↓ move  Enter open  / filter  x clear  [ ] pages'

/**
 * The live payments list, newest first, 100 at a time. The sandbox applies the whole filter
 * (merchant, status, order, method, and text searched in every payment id and order id), so a
 * search finds a payment however old; `[` and `]` page through the rest.
 */
export function PaymentsView({ active, filter, setFilter, selected, select }: Props) {
  const ui = useUi()
  const theme = useTheme()
  const [page, setPage] = useState(1)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts at its first page
  useEffect(() => setPage(1), [JSON.stringify(filter)])
  const query = filterQuery(filter, page)
  const remote = useRemote(() => ui.client.payments(query), [JSON.stringify(query), ui.tick])
  const all = remote.data?.payments ?? []
  const shown = all
  const total = remote.data?.total ?? 0
  const pages = Math.max(1, Math.ceil(total / 100))
  const rows = Math.max(1, ui.height - 3)
  const index = useListCursor({
    ids: shown.map((p) => p.id),
    selected,
    select,
    page: rows,
    active,
    onOpen: ui.openPayment,
  })
  useInput(
    (input, key) => {
      const keys = keysOf(input, key)
      const turn = keys.filter((k) => k === ']').length - keys.filter((k) => k === '[').length
      if (turn) return setPage((p) => Math.max(1, Math.min(pages, p + turn)))
      if (input === '/')
        ui.prompt({
          label: 'Filter payments',
          initial: describeFilter(filter).replace(/"/g, ''),
          hint: 'merchant:KEY status:settled order:NUMBER method:card, or part of an order or id',
          onSubmit: (text) => {
            const parsed = parseFilter(text)
            if ('problem' in parsed) ui.notify(parsed.problem, 'bad')
            else setFilter(parsed.filter)
          },
        })
      else if (input === 'x') setFilter({})
    },
    { isActive: active },
  )
  const { start, end } = windowOf(index, shown.length, rows)
  const summary = `${pageSummary(page, shown.length, total)}${pages > 1 ? `  page ${page}/${pages} ([ ])` : ''}${remote.loading ? '  …' : ''}`
  return (
    <Box flexDirection="column" height={ui.height}>
      <Text>
        <Text {...theme.tone('muted')}>filter </Text>
        {describeFilter(filter) || 'none'}
        <Text {...theme.tone('muted')}>{`  ${summary}`}</Text>
        {remote.error ? <Text {...theme.tone('bad')}>{`  ${remote.error}`}</Text> : null}
      </Text>
      <PaymentHeader width={ui.width} />
      {shown.slice(start, end).map((p, i) => (
        <PaymentRow key={p.id} payment={p} selected={start + i === index} width={ui.width} />
      ))}
      {!shown.length && !remote.loading ? (
        <Text {...theme.tone('muted')}>
          {describeFilter(filter) ? '  No payment matches the filter (x clears it).' : '  No payments yet.'}
        </Text>
      ) : null}
    </Box>
  )
}
