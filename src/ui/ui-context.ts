import { createContext, useContext } from 'react'
import type { ControlClient } from './client.js'
import type { Line } from './lines.js'
import type { Tone } from './theme.js'

/** An action the operator confirms before it runs; its answer is the notice shown afterwards. */
export interface Confirmation {
  title: string
  lines?: string[]
  run: () => Promise<string>
}

export interface Prompt {
  label: string
  initial?: string
  hint?: string
  onSubmit: (value: string) => void
}

export type Dialog =
  | { kind: 'help' }
  | ({ kind: 'confirm' } & Confirmation)
  | ({ kind: 'prompt' } & Prompt)
  | { kind: 'text'; title: string; lines: Line[] }

/** What every view may ask of the console shell (App.tsx). */
export interface Ui {
  client: ControlClient
  width: number
  /** Rows the current view may use. */
  height: number
  /** Grows on every change the sandbox reports: views reload when it moves. */
  tick: number
  refresh(): void
  confirm(confirmation: Confirmation): void
  prompt(prompt: Prompt): void
  showText(title: string, lines: Line[]): void
  notify(text: string, tone?: Tone): void
  /** Puts text on the clipboard (OSC 52) when the terminal allows it. */
  copy(text: string): void
  openPayment(id: string): void
  showCallbacks(paymentId?: string): void
}

export const UiContext = createContext<Ui | undefined>(undefined)

export function useUi(): Ui {
  const ui = useContext(UiContext)
  if (!ui) throw new Error('useUi outside the console shell')
  return ui
}

/** The message an operator reads when a call fails: the sandbox's own words. */
export const problemOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
