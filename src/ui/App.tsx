import { Box, useApp, useInput } from 'ink'
import { useEffect, useMemo, useState } from 'react'
import { Banner } from './Banner.js'
import { CALLBACK_DETAIL_HINTS, CALLBACKS_HINTS } from './CallbacksView.js'
import { askAdvance, CLOCK_HINTS } from './ClockView.js'
import type { ControlClient } from './client.js'
import { DialogView, dialogRows } from './DialogView.js'
import { askFault } from './faults.js'
import { importAction } from './file-actions.js'
import type { PaymentFilter } from './filters.js'
import { Footer } from './Footer.js'
import { Header } from './Header.js'
import { wrap } from './lines.js'
import { osc52 } from './clipboard.js'
import { MERCHANTS_HINTS } from './MerchantsView.js'
import { DETAIL_HINTS } from './PaymentDetailView.js'
import { PAYMENTS_HINTS } from './PaymentsView.js'
import type { ScenarioSource } from './scenario-source.js'
import { SCENARIOS_HINTS } from './ScenariosView.js'
import { SCHEDULES_HINTS } from './SchedulesView.js'
import { TABS, type TabId } from './tab-list.js'
import { Tabs } from './Tabs.js'
import { createTheme, ThemeContext, type Tone } from './theme.js'
import { type Dialog, problemOf, type Ui, UiContext } from './ui-context.js'
import { useConnection } from './use-connection.js'
import { useTerminalSize } from './use-terminal-size.js'
import { ViewSwitch } from './ViewSwitch.js'

export interface AppProps {
  client: ControlClient
  /** `url`, `data FILE`, `embedded`: shown in the header. */
  mode: string
  colors: boolean
  scenarios: ScenarioSource
  /** Fixed size (tests); otherwise the terminal's, following resizes. */
  size?: { columns: number; rows: number }
  reconnectDelaysMs?: number[]
  /** Writes raw control sequences (OSC 52 clipboard) past ink's rendering. */
  writeRaw?: (text: string) => void
}

const HINTS: Record<TabId, string> = {
  payments: PAYMENTS_HINTS,
  callbacks: CALLBACKS_HINTS,
  schedules: SCHEDULES_HINTS,
  clock: CLOCK_HINTS,
  merchants: MERCHANTS_HINTS,
  scenarios: SCENARIOS_HINTS,
}

/** The console shell: header, tabs, the open view, dialogs, notices, and the keys every view shares. */
export function App({ client, mode, colors, scenarios, size: fixed, reconnectDelaysMs, writeRaw }: AppProps) {
  const { exit } = useApp()
  const size = useTerminalSize(fixed)
  const link = useConnection(client, reconnectDelaysMs)
  const [tab, setTab] = useState<TabId>('payments')
  const [dialog, setDialog] = useState<Dialog>()
  const [notice, setNotice] = useState<{ text: string; tone: Tone }>()
  const [detail, setDetail] = useState<string>()
  const [selected, setSelected] = useState<string>()
  const [filter, setFilter] = useState<PaymentFilter>({})
  const [callbacksFor, setCallbacksFor] = useState<string>()
  const [callbackOpen, setCallbackOpen] = useState(false)
  const theme = useMemo(() => createTheme(colors), [colors])

  const width = size.columns
  const banner = link.connection.kind === 'reconnecting' || link.connection.kind === 'token' ? 1 : 0
  const body = Math.max(3, size.rows - 1 - 4 - banner)
  const dialogHeight = dialog ? dialogRows(dialog, body, width) : 0
  const notify = (text: string, tone: Tone = 'good') => setNotice({ text, tone })

  const ui: Ui = {
    client,
    width,
    height: Math.max(1, body - dialogHeight),
    tick: link.tick,
    refresh: link.refresh,
    confirm: (c) => setDialog({ kind: 'confirm', ...c }),
    prompt: (p) => setDialog({ kind: 'prompt', ...p }),
    showText: (title, lines) => setDialog({ kind: 'text', title, lines }),
    notify,
    copy: (text) => writeRaw?.(osc52(text)),
    openPayment: (id) => {
      setTab('payments')
      setSelected(id)
      setDetail(id)
    },
    showCallbacks: (paymentId) => {
      setTab('callbacks')
      setCallbacksFor(paymentId)
    },
  }

  const { connection } = link
  const url = client.baseUrl
  useEffect(() => {
    if (connection.kind === 'connected' && connection.reconnected)
      setNotice({ text: `Reconnected to ${url}.`, tone: 'good' })
    if (connection.kind === 'reconnecting' && connection.attempt === 1)
      setNotice({ text: `Lost ${url}: ${connection.error}`, tone: 'bad' })
  }, [connection, url])

  const answer = (yes: boolean) => {
    if (dialog?.kind !== 'confirm') return
    const { run, title } = dialog
    setDialog(undefined)
    if (!yes) return notify(`Cancelled: ${title}`, 'muted')
    notify(`Working: ${title}`, 'muted')
    run().then(
      (message) => {
        notify(message, 'good')
        link.refresh()
      },
      (error) => {
        const message = `Failed: ${problemOf(error)}`
        notify(message, 'bad')
        // A message longer than the footer is shown whole, wrapped, instead of cut at the edge.
        if (message.length > width - 2)
          setDialog({
            kind: 'text',
            title: `Failed: ${title}`,
            lines: wrap(message, width - 4).map((text) => [{ text }]),
          })
      },
    )
  }

  useInput(
    (input, key) => {
      const digit = Number(input)
      if (input === '?') setDialog({ kind: 'help' })
      else if (input === 'q') exit()
      else if (digit >= 1 && digit <= TABS.length) setTab((TABS[digit - 1] as (typeof TABS)[number]).id)
      else if (key.tab) {
        const at = TABS.findIndex((t) => t.id === tab)
        setTab((TABS[(at + (key.shift ? TABS.length - 1 : 1)) % TABS.length] as (typeof TABS)[number]).id)
      } else if (input === 'r') link.refresh()
      else if (input === 't') askAdvance(ui)
      else if (input === 'i') importAction(ui)
      // One key for a gateway fault in every view (`f` is refund in a payment): issue 33.
      else if (input === 'F') askFault(ui)
    },
    { isActive: !dialog },
  )

  const hints =
    tab === 'payments' && detail
      ? DETAIL_HINTS
      : tab === 'callbacks' && callbackOpen
        ? CALLBACK_DETAIL_HINTS
        : HINTS[tab]
  return (
    <ThemeContext.Provider value={theme}>
      <UiContext.Provider value={ui}>
        <Box flexDirection="column" width={width}>
          <Header
            mode={mode}
            url={client.baseUrl}
            connection={link.connection}
            width={width}
            clock={link.clock ? { now: link.clock.shown, kind: link.clock.mode } : undefined}
          />
          <Tabs current={tab} />
          <Banner connection={link.connection} width={width} now={link.now} />
          {dialog ? (
            <DialogView
              dialog={dialog}
              width={width}
              height={body}
              close={() => setDialog(undefined)}
              onConfirm={answer}
            />
          ) : null}
          {dialogHeight < body ? (
            <ViewSwitch
              tab={tab}
              active={!dialog}
              detail={detail}
              closeDetail={() => setDetail(undefined)}
              payments={{ filter, setFilter, selected, select: setSelected }}
              callbacks={{
                paymentId: callbacksFor,
                clear: () => setCallbacksFor(undefined),
                onOpenChange: setCallbackOpen,
              }}
              clock={link.clock}
              scenarios={scenarios}
            />
          ) : null}
          <Footer notice={notice} hints={hints} width={width} />
        </Box>
      </UiContext.Provider>
    </ThemeContext.Provider>
  )
}
