import { Box, Text, useInput } from 'ink'
import { useState } from 'react'
import { cell } from './format.js'
import { wrapWords } from './lines.js'
import type { ScenarioResult, ScenarioSource } from './scenario-source.js'
import { StatusText } from './StatusText.js'
import { statusTone, useTheme } from './theme.js'
import { useUi } from './ui-context.js'
import { useListCursor, windowOf } from './use-list-cursor.js'
import { useRemote } from './use-remote.js'

export const SCENARIOS_HINTS = '↑↓ move  Enter run  T tag  M merchant  o failure'

interface Kept {
  selected?: string
  merchant?: string
  results: Record<string, ScenarioResult>
  notes: string[]
}
const KEPT = new WeakMap<ScenarioSource, Kept>()
/** The view's state for one scenario source: it stays while the view is replaced by a dialog. */
function keptFor(source: ScenarioSource): Kept {
  const kept = KEPT.get(source) ?? { results: {}, notes: [] }
  KEPT.set(source, kept)
  return kept
}

/** Conformance scenarios: start one or a tag against this sandbox and watch each result arrive. */
export function ScenariosView({ active, source }: { active: boolean; source: ScenarioSource }) {
  const ui = useUi()
  const theme = useTheme()
  const kept = keptFor(source)
  const [selected, selectState] = useState<string | undefined>(kept.selected)
  const [results, setResultsState] = useState<Record<string, ScenarioResult>>(kept.results)
  const [merchant, setMerchantState] = useState<string | undefined>(kept.merchant)
  /** Said before the run: which scenarios run as a merchant the kit creates, or are skipped, and why. */
  const [notes, setNotesState] = useState<string[]>(kept.notes)
  // Written through to what is kept, so that a run's results outlive the view (a panel or the
  // help replaces it for a while) and arrive while it is away.
  const select = (id: string | undefined) => {
    kept.selected = id
    selectState(id)
  }
  const setResults = (update: (all: Record<string, ScenarioResult>) => Record<string, ScenarioResult>) => {
    kept.results = update(kept.results)
    setResultsState(kept.results)
  }
  const setMerchant = (key: string | undefined) => {
    kept.merchant = key
    setMerchantState(key)
  }
  const setNotes = (lines: string[]) => {
    kept.notes = lines
    setNotesState(lines)
  }
  const merchants = useRemote(() => ui.client.merchants(), [])
  const keys = (merchants.data ?? []).map((m) => m.key)
  const list = useRemote(() => source.list(), [source])
  const items = list.data ?? []
  const start = (selection: { ids?: string[]; tag?: string }, what: string) =>
    ui.confirm({
      title: `run ${what} as ${merchant ?? 'the default merchant'} against ${ui.client.baseUrl}?`,
      lines: ['Scenarios create payments and callbacks in this sandbox; results appear here as they come.'],
      run: async () => {
        const seen: ScenarioResult[] = []
        setNotes([])
        await source.run(
          selection,
          (r) => {
            seen.push(r)
            setResults((all) => ({ ...all, [r.id]: r }))
          },
          merchant,
          setNotes,
        )
        const done = seen.filter((r) => r.status !== 'running')
        const failures = done.filter((r) => r.status === 'failed' || r.status === 'error')
        const skipped = done.filter((r) => r.status === 'skipped').length
        const summary = `${what}: ${done.length - failures.length - skipped} passed, ${failures.length} failed${skipped ? `, ${skipped} skipped` : ''}.`
        // Each failure's reason whole, wrapped to the terminal, in a panel (Esc closes it).
        if (failures.length) showFailures(summary, failures)
        return summary
      },
    })
  const showFailures = (title: string, failures: ScenarioResult[]) =>
    ui.showText(
      title,
      failures.flatMap((r) => [
        [{ text: `${r.id}  ${r.status}`, tone: 'bad' as const }],
        ...wrapWords(r.message ?? r.status, ui.width - 2, '  ').map((text) => [{ text }]),
        [{ text: '' }],
      ]),
    )
  const index = useListCursor({
    ids: items.map((s) => s.id),
    selected,
    select,
    page: Math.max(1, ui.height - 4),
    active,
    onOpen: (id) => start({ ids: [id] }, `scenario ${id}`),
  })
  useInput(
    (input) => {
      // `g` is the lists' "top": a tag run is `T`.
      if (input === 'T')
        ui.prompt({
          label: 'Run every scenario with the tag',
          onSubmit: (tag) => tag.trim() && start({ tag: tag.trim() }, `tag ${tag.trim()}`),
        })
      else if (input === 'o') {
        const r = items[index] ? results[items[index].id] : undefined
        if (r?.message) showFailures(`${r.id}: ${r.status}`, [r])
      } else if (input === 'M')
        ui.prompt({
          label: 'Run scenarios as the merchant',
          initial: merchant ?? '',
          hint: keys.length ? `one of: ${keys.join(', ')}` : 'a merchant key of this sandbox',
          onSubmit: (key) => {
            const k = key.trim()
            if (!k) return setMerchant(undefined)
            if (keys.length && !keys.includes(k))
              return ui.notify(`No merchant "${k}" (${keys.join(', ')})`, 'bad')
            setMerchant(k)
          },
        })
    },
    { isActive: active && !source.unavailable },
  )
  if (source.unavailable)
    return (
      <Box flexDirection="column" height={ui.height}>
        <Text {...theme.tone('warn')}>Scenario runs are not available in this console.</Text>
        <Text>{source.unavailable}</Text>
      </Box>
    )
  const counts: Record<string, number> = {}
  for (const r of Object.values(results)) counts[r.status] = (counts[r.status] ?? 0) + 1
  const current = items[index] ? results[items[index].id] : undefined
  // Notes and the current scenario's failure, wrapped: every word is shown, nothing is cut. What
  // does not fit under the list is in the panel (`o`, or on its own after a run with failures).
  const noteLines = notes.flatMap((n) => wrapWords(n, ui.width, '  ')).slice(0, Math.max(0, ui.height - 4))
  const room = Math.max(1, ui.height - 1 - noteLines.length)
  const messageLines = current?.message ? wrapWords(current.message, ui.width, '  ') : []
  const detailRoom = Math.max(1, Math.min(messageLines.length || 1, Math.floor(room / 2)))
  const shownMessage =
    messageLines.length > detailRoom
      ? [
          ...messageLines.slice(0, detailRoom - 1),
          `  … ${messageLines.length - detailRoom + 1} more line(s): o shows it whole`,
        ]
      : messageLines
  const rows = Math.max(1, room - Math.max(1, shownMessage.length))
  const { start: first, end } = windowOf(index, items.length, rows)
  // From 140 columns whole scenario ids (some pass 34 characters) and each one's title beside its tags.
  const wide = ui.width >= 140
  const idWidth = wide ? Math.min(60, Math.max(34, ...items.map((s) => s.id.length))) : 34
  const tagsWidth = wide
    ? Math.min(30, Math.max(10, ...items.map((s) => s.tags.join(',').length)))
    : Math.max(6, ui.width - 47)
  // The cursor (2), the status (8) and three spaces come first.
  const titleWidth = Math.max(10, ui.width - idWidth - tagsWidth - 13)
  return (
    <Box flexDirection="column" height={ui.height}>
      <Text {...theme.tone('muted')} wrap="truncate">
        {`${items.length} scenarios as ${merchant ?? 'the default merchant'} (M to choose)  ${
          Object.entries(counts)
            .map(([k, v]) => `${v} ${k}`)
            .join(', ') || 'none run yet'
        }`}
        {list.error ? `  ${list.error}` : ''}
      </Text>
      {noteLines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines of one wrapped text, by position
        <Text key={`note-${i}`} {...theme.tone('warn')}>
          {line}
        </Text>
      ))}
      {items.slice(first, end).map((s, i) => {
        const r = results[s.id]
        const on = first + i === index
        return (
          <Text key={s.id} wrap="truncate" {...(on ? theme.tone('accent') : {})}>
            {on ? '> ' : '  '}
            <StatusText status={r?.status ?? '-'} width={8} /> {cell(s.id, idWidth)}{' '}
            {cell(s.tags.join(','), tagsWidth)}
            {wide ? ` ${cell(s.title, titleWidth)}` : ''}
          </Text>
        )
      })}
      {shownMessage.length ? (
        shownMessage.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of one wrapped text, by position
          <Text key={`message-${i}`} {...theme.tone(statusTone(current?.status ?? ''))}>
            {line}
          </Text>
        ))
      ) : items[index] ? (
        <Text {...theme.tone('muted')} wrap="truncate">{`  ${items[index].title}`}</Text>
      ) : null}
    </Box>
  )
}
