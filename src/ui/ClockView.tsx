import { Box, Text, useInput } from 'ink'
import type { ClockView as Clock } from './client-types.js'
import { confirmClearFaults, describeFault } from './faults.js'
import { dateTime, describeDuration, parseDuration } from './format.js'
import { useTheme } from './theme.js'
import type { Ui } from './ui-context.js'
import { useUi } from './ui-context.js'
import { useRemote } from './use-remote.js'

export const CLOCK_HINTS = 't advance  m +1 min  h +1 hour  d +1 day  F gateway fault  X forget faults'

/** Asks for a duration, then confirms, then moves the sandbox clock ahead by it. */
export function askAdvance(ui: Ui): void {
  ui.prompt({
    label: 'Advance the sandbox clock by',
    initial: '1h',
    hint: '90 or 90s, 15m, 2h, 1d, 1w, 1h30m: expiries, callback retries and schedules due in between run',
    onSubmit: (text) => {
      const seconds = parseDuration(text)
      if (!seconds) return ui.notify(`"${text}" is not a duration: try 90s, 15m, 2h or 1d.`, 'bad')
      confirmAdvance(ui, seconds)
    },
  })
}

export function confirmAdvance(ui: Ui, seconds: number): void {
  ui.confirm({
    title: `advance the clock by ${describeDuration(seconds)}?`,
    lines: ['Session expiries, callback retries and scheduled payments due in that time run now, in order.'],
    run: async () => {
      const clock = await ui.client.advanceClock(seconds)
      return `Clock advanced by ${describeDuration(seconds)}: now ${clock.now}.`
    },
  })
}

/** The sandbox's time and clock kind. */
export function ClockView({ active, clock }: { active: boolean; clock?: Clock & { shown: number } }) {
  const ui = useUi()
  const theme = useTheme()
  useInput(
    (input) => {
      if (input === 'm') confirmAdvance(ui, 60)
      else if (input === 'h') confirmAdvance(ui, 3600)
      else if (input === 'd') confirmAdvance(ui, 86400)
      else if (input === 'X') confirmClearFaults(ui)
    },
    { isActive: active },
  )
  const faults = useRemote(() => ui.client.faults(), [ui.tick])
  if (!clock) return <Text {...theme.tone('muted')}>Reading the sandbox clock…</Text>
  const ahead = clock.mode === 'system' ? (clock.shown - Date.now()) / 1000 : undefined
  return (
    <Box flexDirection="column" height={ui.height}>
      <Text>
        <Text {...theme.tone('muted')}>now </Text>
        <Text {...theme.tone('accent')} bold={theme.colors}>
          {dateTime(clock.shown)} UTC
        </Text>
      </Text>
      <Text>
        <Text {...theme.tone('muted')}>mode </Text>
        {clock.mode === 'virtual'
          ? 'virtual: time moves only when advanced'
          : `system: real time${ahead && ahead > 1 ? `, ${describeDuration(ahead)} ahead after advances` : ''}`}
      </Text>
      <Text> </Text>
      <Text>
        Advancing runs what falls due in between: session expiry, callback retries, scheduled payments.
      </Text>
      <Text {...theme.tone('muted')}>Time never goes back; a reset keeps the clock.</Text>
      <Text> </Text>
      <Text {...theme.tone('muted')}>
        gateway faults (F adds one, in any view; X forgets them)
        {faults.error ? `: could not be read (${faults.error})` : ''}
      </Text>
      {faults.data?.length ? (
        faults.data.map((f) => (
          <Text key={f.id}>
            {f.id} {f.mode}: {describeFault(f)}
            {f.hits ? `, ${f.hits} done so far` : ''}
          </Text>
        ))
      ) : (
        <Text>{faults.data ? 'none: every request is answered' : ''}</Text>
      )}
    </Box>
  )
}
