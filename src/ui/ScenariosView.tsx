import { Box, Text, useInput } from 'ink'
import { useState } from 'react'
import { cell } from './format.js'
import type { ScenarioResult, ScenarioSource } from './scenario-source.js'
import { StatusText } from './StatusText.js'
import { statusTone, useTheme } from './theme.js'
import { useUi } from './ui-context.js'
import { useListCursor, windowOf } from './use-list-cursor.js'
import { useRemote } from './use-remote.js'

export const SCENARIOS_HINTS = '↑↓ move  Enter run scenario  T run a tag  M merchant'

/** Conformance scenarios: start one or a tag against this sandbox and watch each result arrive. */
export function ScenariosView({ active, source }: { active: boolean; source: ScenarioSource }) {
  const ui = useUi()
  const theme = useTheme()
  const [selected, select] = useState<string>()
  const [results, setResults] = useState<Record<string, ScenarioResult>>({})
  const [merchant, setMerchant] = useState<string>()
  const merchants = useRemote(() => ui.client.merchants(), [])
  const keys = (merchants.data ?? []).map((m) => m.key)
  const list = useRemote(() => source.list(), [source])
  const items = list.data ?? []
  const rows = Math.max(1, ui.height - 4)
  const start = (selection: { ids?: string[]; tag?: string }, what: string) =>
    ui.confirm({
      title: `run ${what} as ${merchant ?? 'the default merchant'} against ${ui.client.baseUrl}?`,
      lines: ['Scenarios create payments and callbacks in this sandbox; results appear here as they come.'],
      run: async () => {
        const seen: ScenarioResult[] = []
        await source.run(
          selection,
          (r) => {
            seen.push(r)
            setResults((all) => ({ ...all, [r.id]: r }))
          },
          merchant,
        )
        const done = seen.filter((r) => r.status !== 'running')
        const failed = done.filter((r) => r.status === 'failed' || r.status === 'error').length
        return `${what}: ${done.length - failed} passed, ${failed} failed.`
      },
    })
  const index = useListCursor({
    ids: items.map((s) => s.id),
    selected,
    select,
    page: rows,
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
      else if (input === 'M')
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
  const { start: first, end } = windowOf(index, items.length, rows)
  const current = items[index] ? results[items[index].id] : undefined
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
      <Text {...theme.tone('muted')}>
        {`${items.length} scenarios as ${merchant ?? 'the default merchant'} (M to choose)  ${
          Object.entries(counts)
            .map(([k, v]) => `${v} ${k}`)
            .join(', ') || 'none run yet'
        }`}
        {list.error ? `  ${list.error}` : ''}
      </Text>
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
      {current?.message ? (
        <Text {...theme.tone(statusTone(current.status))} wrap="truncate">{`  ${current.message}`}</Text>
      ) : items[index] ? (
        <Text {...theme.tone('muted')} wrap="truncate">{`  ${items[index].title}`}</Text>
      ) : null}
    </Box>
  )
}
