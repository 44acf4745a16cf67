import { Box, Text, useInput } from 'ink'
import { useState } from 'react'
import type { ScheduleView } from './client-types.js'
import { cell, shortId } from './format.js'
import { StatusText } from './StatusText.js'
import { useTheme } from './theme.js'
import { useUi } from './ui-context.js'
import { useListCursor, windowOf } from './use-list-cursor.js'
import { useRemote } from './use-remote.js'

export const SCHEDULES_HINTS = '↑↓ move  p pause  s run'

const every = (s: ScheduleView) => {
  const p = s.params
  const count = p.payments_count ? `, ${p.payments_count} payments` : ''
  return `every ${p.interval_length ?? '?'} ${p.interval_unit ?? '?'}${count}`
}

/** Schedules (state, next run) and the chains of the selected one; pause and run them. */
export function SchedulesView({ active }: { active: boolean }) {
  const ui = useUi()
  const theme = useTheme()
  const [selected, select] = useState<string>()
  const list = useRemote(() => ui.client.schedules(), [ui.tick])
  const items = list.data ?? []
  const listRows = Math.max(3, Math.floor((ui.height - 3) / 2))
  const index = useListCursor({ ids: items.map((s) => s.id), selected, select, page: listRows, active })
  const current = items[index]
  useInput(
    (input) => {
      if (!current || (input !== 'p' && input !== 's')) return
      const pause = input === 'p'
      ui.confirm({
        title: `${pause ? 'pause' : 'run'} schedule ${current.id}?`,
        lines: [
          `${current.merchant_key}, ${every(current)}, now ${current.state}`,
          pause
            ? 'No scheduled payment is made while paused.'
            : 'Payments due while it was paused are not made up.',
        ],
        run: async () => {
          const s = await (pause ? ui.client.pauseSchedule(current.id) : ui.client.runSchedule(current.id))
          return `Schedule ${s.id} is ${s.state}${s.next_run ? `, next run ${s.next_run}` : ''}.`
        },
      })
    },
    { isActive: active },
  )
  const { start, end } = windowOf(index, items.length, listRows)
  const chains = current?.chains ?? []
  // From 120 columns the full schedule and payment ids (what a support ticket quotes).
  const idWidth = ui.width >= 120 ? 36 : 9
  const id = (value: string) => (idWidth > 9 ? value : shortId(value))
  return (
    <Box flexDirection="column" height={ui.height}>
      <Text {...theme.tone('muted')}>
        {cell(
          `  ${'schedule'.padEnd(idWidth + 1)}${'state'.padEnd(9)}${'next run'.padEnd(21)}${'merchant'.padEnd(15)}interval`,
          ui.width,
        )}
      </Text>
      {items.slice(start, end).map((s, i) => (
        <Text key={s.id} wrap="truncate" {...(start + i === index ? theme.tone('accent') : {})}>
          {start + i === index ? '> ' : '  '}
          {cell(id(s.id), idWidth)} <StatusText status={s.state} width={8} /> {cell(s.next_run ?? '-', 20)}{' '}
          {cell(s.merchant_key, 14)} {cell(every(s), Math.max(8, ui.width - 48 - idWidth))}
        </Text>
      ))}
      {!items.length && !list.loading ? (
        <Text {...theme.tone('muted')}>
          {cell(
            list.error ?? '  No schedules: merchants create them with the S2S CARD action CREATE_SCHEDULE.',
            ui.width,
          )}
        </Text>
      ) : null}
      {current ? (
        <Box flexDirection="column" marginTop={1}>
          <Text {...theme.tone('accent')}>
            {cell(`Chains of ${current.id} (${chains.length})`, ui.width)}
          </Text>
          {chains.slice(0, Math.max(0, ui.height - listRows - 4)).map((c) => (
            <Text key={c.id} wrap="truncate">
              {'  initial '}
              {cell(id(c.initial_payment_id), idWidth)}
              <StatusText status={c.state} width={12} />
              {` ${c.runs_done} made  ${c.amount} ${c.currency}  next ${c.next_run ?? '-'}`}
            </Text>
          ))}
        </Box>
      ) : null}
    </Box>
  )
}
