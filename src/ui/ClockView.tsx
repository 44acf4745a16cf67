import { Box, Text, useInput } from 'ink'
import type { ClockView as Clock } from './client-types.js'
import { dateTime, describeDuration, parseDuration } from './format.js'
import { useTheme } from './theme.js'
import type { Ui } from './ui-context.js'
import { useUi } from './ui-context.js'

export const CLOCK_HINTS = 't advance  m +1 min  h +1 hour  d +1 day  f gateway fault'

const FAULT_MODES = ['timeout', 'error', 'drop', 'lost'] as const

/**
 * Gateway faults (docs/conformance.md): `lost SALE`, `error /api/v1/payment/refund`, `timeout`:
 * the next matching request times out, answers 503, drops, or is done with its answer lost.
 */
export function askFault(ui: Ui): void {
  ui.prompt({
    label: 'Fail the next gateway request',
    initial: 'lost SALE',
    hint: 'timeout | error | drop | lost, then an S2S action (SALE) or a path (/api/v1/payment/refund), or nothing for any request',
    onSubmit: (text) => {
      const [mode, target] = text.trim().split(/\s+/)
      const known = FAULT_MODES.find((m) => m === mode)
      if (!known) return ui.notify(`"${mode ?? ''}" is not a fault: timeout, error, drop or lost.`, 'bad')
      const match = !target
        ? undefined
        : target.startsWith('/')
          ? { path: target }
          : { action: target.toUpperCase() }
      ui.confirm({
        title: `make the next ${match ? (match.path ?? match.action) : 'gateway'} request ${known === 'lost' ? 'lose its answer' : known}?`,
        lines: ['Control routes never fail. The status lookup is the way to learn what happened.'],
        run: async () => {
          const { fault } = await ui.client.addFault({ mode: known, ...(match ? { match } : {}) })
          return `Gateway fault ${fault.id} set: the next matching request will ${known === 'lost' ? 'lose its answer' : known}.`
        },
      })
    },
  })
}

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
      else if (input === 'f') askFault(ui)
    },
    { isActive: active },
  )
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
    </Box>
  )
}
