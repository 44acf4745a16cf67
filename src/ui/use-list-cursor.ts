import { useInput } from 'ink'
import { useRef } from 'react'
import { keysOf } from './keys.js'

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
  // Keys that arrive in one chunk (five ↓ in one write) reach the handler one after the other
  // before the view draws again: each moves on from where the previous one left the cursor, not
  // from the index of the last drawing.
  const at = useRef(index)
  at.current = index
  useInput(
    (input, key) => {
      if (!ids.length) return
      const index = at.current
      const clamp = (to: number) => Math.max(0, Math.min(ids.length - 1, to))
      const go = (to: number) => {
        at.current = clamp(to)
        select(ids[at.current])
      }
      if (key.downArrow) go(index + 1)
      else if (key.upArrow) go(index - 1)
      else if (key.pageDown) go(index + page)
      else if (key.pageUp) go(index - page)
      else if (key.home) go(0)
      else if (key.end) go(ids.length - 1)
      else if (key.return && onOpen) onOpen(ids[index] as string)
      else {
        // A held key arrives as one chunk (`jjjj`): each character is one press.
        let at = index
        for (const k of keysOf(input, key)) {
          if (k === 'j') at = clamp(at + 1)
          else if (k === 'k') at = clamp(at - 1)
          else if (k === 'g') at = 0
          else if (k === 'G') at = ids.length - 1
        }
        if (at !== index) go(at)
      }
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
