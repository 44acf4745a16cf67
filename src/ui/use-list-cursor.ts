import { useInput } from 'ink'

/**
 * ↑↓ j k PgUp PgDn g G over a list of `count` items, the selection kept by id so that a list
 * that reloads (new payments arrive on top) keeps the same item selected.
 */
export function useListCursor(options: {
  ids: string[]
  selected: string | undefined
  select: (id: string | undefined) => void
  page: number
  active: boolean
  onOpen?: (id: string) => void
}): number {
  const { ids, selected, select, page, active, onOpen } = options
  const found = selected === undefined ? -1 : ids.indexOf(selected)
  const index = Math.max(found, 0)
  useInput(
    (input, key) => {
      if (!ids.length) return
      const go = (to: number) => select(ids[Math.max(0, Math.min(ids.length - 1, to))])
      if (key.downArrow || input === 'j') go(index + 1)
      else if (key.upArrow || input === 'k') go(index - 1)
      else if (key.pageDown) go(index + page)
      else if (key.pageUp) go(index - page)
      else if (input === 'g' || key.home) go(0)
      else if (input === 'G' || key.end) go(ids.length - 1)
      else if (key.return && onOpen) onOpen(ids[index] as string)
    },
    { isActive: active },
  )
  return ids.length ? index : -1
}

/** The slice of rows to draw so that the selected one is visible. */
export function windowOf(index: number, count: number, height: number): { start: number; end: number } {
  if (count <= height) return { start: 0, end: count }
  const start = Math.max(0, Math.min(index - Math.floor(height / 2), count - height))
  return { start, end: start + height }
}
