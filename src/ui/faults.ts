import type { SandboxFaultKind, SandboxFaultMode, SandboxFaultRequest } from '../generated/types.js'
import type { Ui } from './ui-context.js'

/**
 * Gateway faults from the console (docs/conformance.md, Gateway faults): `f` in the clock view,
 * which lists the rules still to happen (`X` forgets them). One line says the rule: the mode first, then
 * in any order a 5xx status, a kind of request (`lookup`, `refund`, ...), an S2S action (`SALE`),
 * a path (`/api/v1/payment/refund`), a count (`x3`) and seconds (`5s`).
 */

const MODES: readonly SandboxFaultMode[] = ['timeout', 'error', 'drop', 'lost', 'late']
const KINDS: readonly SandboxFaultKind[] = [
  'lookup',
  'payment',
  'refund',
  'capture',
  'void',
  'payout',
  'recurring',
]

export const FAULT_HINT =
  'mode: timeout | error | drop | lost | late; then any of: 502/503/504, a kind (lookup payment refund capture void payout recurring), an S2S action (SALE), a path (/api/v1/payment/refund), x3 (count), 5s (late: held at most; timeout: clock seconds)'

/** The rule a line says, or why it says none. */
export function parseFault(text: string): { rule: SandboxFaultRequest } | { problem: string } {
  const [mode, ...rest] = text.trim().split(/\s+/)
  const known = MODES.find((m) => m === mode?.toLowerCase())
  if (!known) return { problem: `"${mode ?? ''}" is not a fault: timeout, error, drop, lost or late.` }
  const rule: SandboxFaultRequest = { mode: known }
  const match: NonNullable<SandboxFaultRequest['match']> = {}
  for (const word of rest) {
    const kind = KINDS.find((k) => k === word.toLowerCase())
    if (/^5\d\d$/.test(word)) rule.status = Number(word)
    else if (/^[x*]\d{1,4}$/i.test(word)) rule.count = Number(word.slice(1))
    else if (/^\d{1,3}s$/.test(word) && known === 'late') rule.hold_seconds = Number(word.slice(0, -1))
    else if (/^\d{1,3}s$/.test(word) && known === 'timeout') rule.seconds = Number(word.slice(0, -1))
    else if (kind) match.kind = kind
    else if (word.startsWith('/')) match.path = word
    else if (/^[A-Z][A-Z0-9_]*$/.test(word)) match.action = word
    else return { problem: `"${word}" is not part of a fault: ${FAULT_HINT}` }
  }
  if (Object.keys(match).length) rule.match = match
  return { rule }
}

const EFFECTS: Record<SandboxFaultMode, string> = {
  timeout: 'time out, undone',
  error: 'answer a 5xx page, undone',
  drop: 'lose its connection, undone',
  lost: 'be done, its answer lost',
  late: 'be done, its answer held until the client gives up',
}

/** `the next 2 refund requests: be done and lose its answer (503 page)`. */
export function describeFault(rule: {
  mode: SandboxFaultMode
  match?: SandboxFaultRequest['match']
  remaining?: number
  count?: number
  status?: number
  hold_seconds?: number
  seconds?: number
}): string {
  const n = rule.remaining ?? rule.count ?? 1
  const m = rule.match ?? {}
  const what = [m.kind, m.action, m.path, m.method].filter(Boolean).join(' ') || 'gateway'
  const extra = [
    rule.status !== undefined ? `${rule.status} page` : undefined,
    rule.hold_seconds !== undefined ? `held up to ${rule.hold_seconds} s` : undefined,
    rule.mode === 'timeout' && rule.seconds !== undefined ? `${rule.seconds} s on the clock` : undefined,
  ].filter(Boolean)
  return `the next ${n === 1 ? '' : `${n} `}${what} request${n === 1 ? '' : 's'} will ${EFFECTS[rule.mode]}${extra.length ? ` (${extra.join(', ')})` : ''}`
}

/** Asks for a fault rule, confirms it, and sets it. */
export function askFault(ui: Ui): void {
  ui.prompt({
    label: 'Fail the next gateway request',
    initial: 'lost 503 refund',
    hint: FAULT_HINT,
    onSubmit: (text) => {
      const parsed = parseFault(text)
      if ('problem' in parsed) return ui.notify(parsed.problem, 'bad')
      const { rule } = parsed
      ui.confirm({
        title: `set a gateway fault: ${describeFault(rule)}?`,
        lines: ['Control routes never fail. The status lookup is the way to learn what happened.'],
        run: async () => {
          const { fault } = await ui.client.addFault(rule)
          return `Gateway fault ${fault.id} set: ${describeFault(fault)}.`
        },
      })
    },
  })
}

/** Forgets every fault rule still to happen, after confirmation. */
export function confirmClearFaults(ui: Ui): void {
  ui.confirm({
    title: 'forget every gateway fault still to happen?',
    run: async () => {
      const { removed } = await ui.client.clearFaults()
      return `${removed} gateway fault${removed === 1 ? '' : 's'} forgotten.`
    },
  })
}
