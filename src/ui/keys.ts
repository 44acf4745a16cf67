import type { Key } from 'ink'

/**
 * Keys that arrive together. A terminal delivers a held key or a paste as one chunk, and ink's
 * useInput hands it over as one multi-character `input`: text fields take it as text (a paste),
 * lists and views take it as the same key pressed that many times (a held `j`).
 */

/** Bracketed-paste markers (ESC[200~ … ESC[201~) and other escape sequences ink passes on without ESC. */
const CONTROL_SEQUENCE = /^\[[0-9;?]*[~A-Za-z]$/

/** The printable text of an input event, for a text field: paste markers and control characters removed. */
export function textOf(input: string, key: Partial<Key>): string {
  if (key.ctrl || key.upArrow || key.downArrow || key.tab || key.return) return ''
  if (key.meta && CONTROL_SEQUENCE.test(input)) return ''
  const ESC = String.fromCharCode(27)
  return Array.from(input.split(`${ESC}[200~`).join('').split(`${ESC}[201~`).join(''))
    .join('')
    .replace(/\[20[01]~/g, '')
    .split('')
    .filter((c) => c.charCodeAt(0) >= 32 && c.charCodeAt(0) !== 127)
    .join('')
}

/** The keys of an input event, one per character (a held `j` arrives as `jjj`); none for special keys. */
export function keysOf(input: string, key: Partial<Key>): string[] {
  if (key.ctrl || key.meta || !input) return []
  return Array.from(input)
}

export type Scope =
  | 'everywhere'
  | 'lists'
  | 'payments'
  | 'payment'
  | 'callbacks'
  | 'callback'
  | 'schedules'
  | 'clock'
  | 'scenarios'
  | 'confirm'

export interface Binding {
  keys: string
  scope: Scope
  does: string
}

/**
 * Every key of the console, in one table: the help screen (`?`) shows it, and a test checks that
 * no key means two things where both could be active (a view's keys, the list keys of a list
 * view, and the keys that work everywhere).
 */
export const BINDINGS: Binding[] = [
  { keys: '1-6 Tab', scope: 'everywhere', does: 'views' },
  { keys: 'r', scope: 'everywhere', does: 'reload' },
  { keys: 't', scope: 'everywhere', does: 'advance' },
  { keys: 'i', scope: 'everywhere', does: 'import' },
  { keys: 'F', scope: 'everywhere', does: 'gateway fault' },
  { keys: '?', scope: 'everywhere', does: 'help' },
  { keys: 'q', scope: 'everywhere', does: 'quit' },
  { keys: '↑↓ j k', scope: 'lists', does: 'move' },
  { keys: 'PgUp PgDn g G', scope: 'lists', does: 'page/top/end' },
  { keys: '[ ]', scope: 'lists', does: 'page' },
  { keys: 'Enter', scope: 'lists', does: 'open/run' },
  { keys: '/', scope: 'payments', does: 'filter: merchant: status: order: method: text' },
  { keys: 'x', scope: 'payments', does: 'clear' },
  { keys: 'a', scope: 'payment', does: 'approve APM / pass 3DS / payer back' },
  { keys: 'd', scope: 'payment', does: 'decline APM / fail 3DS' },
  { keys: 'x', scope: 'payment', does: 'expire APM' },
  { keys: 'w', scope: 'payment', does: 'leave APM pending' },
  { keys: 'c', scope: 'payment', does: 'capture' },
  { keys: 'f', scope: 'payment', does: 'refund' },
  { keys: 'v', scope: 'payment', does: 'void' },
  { keys: 'e', scope: 'payment', does: 'export' },
  { keys: 'y', scope: 'payment', does: 'curl of a status lookup' },
  { keys: 'b', scope: 'payment', does: 'its callbacks' },
  { keys: 'l', scope: 'payment', does: 'requests' },
  { keys: 's', scope: 'payment', does: 'as scenario' },
  { keys: 'Esc', scope: 'payment', does: 'back' },
  { keys: '/', scope: 'callbacks', does: 'filter: merchant: state: order: kind: text' },
  { keys: 'x', scope: 'callbacks', does: 'clear' },
  { keys: 'p', scope: 'callbacks', does: 'replay' },
  { keys: 'y', scope: 'callbacks', does: 'curl' },
  { keys: 'p', scope: 'callback', does: 'replay' },
  { keys: 'y', scope: 'callback', does: 'copy as curl (one line)' },
  { keys: 'Esc', scope: 'callback', does: 'back' },
  { keys: 'p', scope: 'schedules', does: 'pause' },
  { keys: 's', scope: 'schedules', does: 'run' },
  { keys: 'm h d', scope: 'clock', does: '+1 minute/hour/day' },
  { keys: 'X', scope: 'clock', does: 'forget gateway faults' },
  { keys: 'T', scope: 'scenarios', does: 'run a tag' },
  { keys: 'M', scope: 'scenarios', does: 'merchant to run as' },
  { keys: 'o', scope: 'scenarios', does: 'a failure, whole' },
  { keys: 'y Enter', scope: 'confirm', does: 'run' },
  { keys: 'n Esc', scope: 'confirm', does: 'cancel: every action asks first' },
]

/** Scopes active at the same time as `scope` (a view sees its own keys, the list keys and the global ones). */
export const ACTIVE_WITH: Record<Scope, Scope[]> = {
  everywhere: [],
  lists: ['everywhere'],
  payments: ['everywhere', 'lists'],
  payment: ['everywhere'],
  callbacks: ['everywhere', 'lists'],
  callback: ['everywhere'],
  schedules: ['everywhere', 'lists'],
  clock: ['everywhere'],
  scenarios: ['everywhere', 'lists'],
  confirm: [],
}

/** The single keys a binding names (`c f v` is three keys; `1-6` is six; `Tab`, `Enter` are names). */
export function keysIn(binding: Binding): string[] {
  return binding.keys
    .split(' ')
    .flatMap((k) =>
      /^\d-\d$/.test(k)
        ? Array.from({ length: Number(k[2]) - Number(k[0]) + 1 }, (_, i) => String(Number(k[0]) + i))
        : [k],
    )
}

/** Pairs of bindings that give one key two meanings in scopes active together. */
export function conflicts(bindings: Binding[] = BINDINGS): [Binding, Binding, string][] {
  const out: [Binding, Binding, string][] = []
  for (const a of bindings)
    for (const b of bindings) {
      if (a === b || !(a.scope === b.scope || ACTIVE_WITH[a.scope].includes(b.scope))) continue
      if (a.scope === b.scope && bindings.indexOf(a) > bindings.indexOf(b)) continue
      for (const k of keysIn(a)) if (keysIn(b).includes(k)) out.push([a, b, k])
    }
  return out
}
