import { createContext, useContext } from 'react'

/** Colour roles; every role also reads without colour, since the text always says what it means. */
export type Tone = 'good' | 'wait' | 'bad' | 'money' | 'muted' | 'accent' | 'warn'

export interface Theme {
  colors: boolean
  /** Props for ink's Text: a colour when colours are on, nothing otherwise. */
  tone(tone: Tone | undefined): { color?: string; dimColor?: boolean }
}

const COLORS: Record<Tone, string> = {
  good: 'green',
  wait: 'yellow',
  bad: 'red',
  money: 'magenta',
  muted: 'gray',
  accent: 'cyan',
  warn: 'yellow',
}

/** NO_COLOR (any value, no-color.org), FORCE_COLOR=0 and TERM=dumb turn colours off. */
export function colorsWanted(env: Record<string, string | undefined> = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false
  return env.TERM !== 'dumb'
}

export function createTheme(colors: boolean): Theme {
  return {
    colors,
    tone: (tone) => (colors && tone ? { color: COLORS[tone] } : {}),
  }
}

export const ThemeContext = createContext<Theme>(createTheme(false))
export const useTheme = (): Theme => useContext(ThemeContext)

/** Payment, transaction and callback statuses by what they mean to a support person. */
export function statusTone(status: string): Tone {
  switch (status) {
    case 'settled':
    case 'success':
    case 'acknowledged':
    case 'running':
    case 'active':
    case 'passed':
      return 'good'
    case 'prepare':
    case '3ds':
    case 'redirect':
    case 'pending':
    case 'waiting':
    case 'queued':
    case 'delivering':
    case 'retrying':
    case 'paused':
    case 'undefined':
      return 'wait'
    case 'decline':
    case 'fail':
    case 'failed':
    case 'chargeback':
    case 'stopped':
    case 'error':
      return 'bad'
    case 'refund':
    case 'reversal':
    case 'void':
      return 'money'
    default:
      return 'muted'
  }
}
