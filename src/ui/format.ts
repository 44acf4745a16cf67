/** Text helpers for fixed-width terminal columns. */

/** First 8 characters of an id: enough to tell payments apart on one screen. */
export const shortId = (id: string): string => (id.length > 8 ? id.slice(0, 8) : id)

export function cell(text: string, width: number): string {
  if (width <= 0) return ''
  if (text.length <= width) return text.padEnd(width)
  return width === 1 ? '…' : `${text.slice(0, width - 1)}…`
}

export const cellRight = (text: string, width: number): string =>
  text.length >= width ? cell(text, width) : text.padStart(width)

/** `YYYY-MM-DD HH:MM:SS` (UTC), as the gateway writes dates. */
export const dateTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')

/** `MM-DD HH:MM`: list columns. */
export const shortTime = (ms: number): string => dateTime(ms).slice(5, 16)

export const clockTime = (ms: number): string => dateTime(ms).slice(11, 19)

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 }

/** `90`, `90s`, `15m`, `2h`, `1d`, `1w`, `1h30m`: seconds, or undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const input = text.trim().toLowerCase()
  if (/^\d+(\.\d+)?$/.test(input)) return Number(input) || undefined
  const parts = [...input.matchAll(/(\d+)\s*([smhdw])/g)]
  if (!parts.length || parts.map((p) => p[0]).join('') !== input.replace(/\s+/g, '')) return undefined
  const seconds = parts.reduce((sum, p) => sum + Number(p[1]) * (UNITS[p[2] as string] ?? 0), 0)
  return seconds > 0 ? seconds : undefined
}

/** `1d 2h`, `15m`, `30s`: how long something takes, for the clock view. */
export function describeDuration(seconds: number): string {
  const out: string[] = []
  let rest = Math.round(seconds)
  for (const [unit, size] of [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size) {
      out.push(`${Math.floor(rest / size)}${unit}`)
      rest %= size
    }
  }
  return out.slice(0, 2).join(' ') || '0s'
}

/** A value for a one-line field: strings as they are, the rest as compact JSON. */
export const inline = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value))
