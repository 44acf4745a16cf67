import { Box, Text, useInput } from 'ink'
import { describeFilter, filterQuery, matchesLocally, type PaymentFilter, parseFilter } from './filters.js'
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

export const PAYMENTS_HINTS = '↑↓ move  Enter open  / filter  x clear filter'

/** The live payments list, newest first: the sandbox filters merchant, status and order; the console method and text. */
export function PaymentsView({ active, filter, setFilter, selected, select }: Props) {
  const ui = useUi()
  const theme = useTheme()
  const query = filterQuery(filter)
  const remote = useRemote(() => ui.client.payments(query), [JSON.stringify(query), ui.tick])
  const all = remote.data?.payments ?? []
  const shown = all.filter((p) => matchesLocally(p, filter))
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
    (input) => {
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
  const total = remote.data?.total ?? 0
  const summary = `${shown.length} shown of ${total}${total > all.length ? ` (newest ${all.length} loaded)` : ''}`
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
          {all.length ? '  No payment matches the filter (x clears it).' : '  No payments yet.'}
        </Text>
      ) : null}
    </Box>
  )
}
