import type { Tone } from './theme.js'

/** A piece of text with its meaning; a line is a row of them (TextPanel renders and crops them). */
export interface Segment {
  text: string
  tone?: Tone
  bold?: boolean
}

export type Line = Segment[]

export const seg = (text: string, tone?: Tone, bold?: boolean): Segment => ({
  text,
  ...(tone ? { tone } : {}),
  ...(bold ? { bold } : {}),
})

/** `  label     value` with the label in a fixed column. */
export const field = (label: string, value: string, tone?: Tone): Line => [
  seg(`  ${label.padEnd(10)} `, 'muted'),
  seg(value, tone),
]

export const heading = (text: string): Line => [seg(text, 'accent', true)]

/** An empty row (a single space: ink gives an empty text no height). */
export const blank: Line = [seg(' ')]

export const plain = (text: string, tone?: Tone): Line => [seg(text, tone)]

/** Crops a line to `width` characters, keeping its segments' meanings. */
export function cropLine(line: Line, width: number): Line {
  const out: Line = []
  let left = width
  for (const s of line) {
    if (left <= 0) break
    const text = s.text.length > left ? `${s.text.slice(0, Math.max(0, left - 1))}…` : s.text
    out.push({ ...s, text })
    left -= text.length
  }
  return out
}

/** A long value over several lines, cut at `width` (JSON bodies, URLs, curl commands). */
export function wrap(text: string, width: number, indent = ''): string[] {
  const out: string[] = []
  for (const raw of text.split('\n')) {
    let rest = raw
    const room = Math.max(10, width - indent.length)
    do {
      out.push(indent + rest.slice(0, room))
      rest = rest.slice(room)
    } while (rest.length)
  }
  return out
}

/**
 * `text` in lines of at most `width` columns, broken between words (a word longer than a line,
 * such as a URL, is broken inside); every character is kept: nothing is cut.
 */
export function wrapWords(text: string, width: number, indent = ''): string[] {
  const room = Math.max(10, width - indent.length)
  const out: string[] = []
  for (const raw of text.split('\n')) {
    let line = ''
    for (const word of raw.split(' ')) {
      const joined = line ? `${line} ${word}` : word
      if (joined.length <= room) {
        line = joined
        continue
      }
      if (line) out.push(indent + line)
      let rest = word
      while (rest.length > room) {
        out.push(indent + rest.slice(0, room))
        rest = rest.slice(room)
      }
      line = rest
    }
    out.push(indent + line)
  }
  return out
}

const lengthOf = (line: Line) => line.reduce((n, s) => n + s.text.length, 0)

/**
 * Lines in two columns side by side, read down the left one first (so a field and its
 * continuation rows stay together); each column is cropped to half of `width`.
 */
export function sideBySide(lines: Line[], width: number): Line[] {
  const half = Math.floor(width / 2)
  const rows = Math.ceil(lines.length / 2)
  const out: Line[] = []
  for (let i = 0; i < rows; i++) {
    const left = cropLine(lines[i] as Line, half - 1)
    const right = lines[rows + i]
    out.push(right ? [...left, seg(' '.repeat(half - lengthOf(left))), ...right] : left)
  }
  return out
}

/**
 * A `label value` row whose value, when longer than the room left of `width`, goes on over the
 * next rows under itself instead of being cut (callback bodies: every character counts).
 */
export function wrappedField(
  label: string,
  value: string,
  width: number,
  labelWidth = 10,
  tone?: Tone,
): Line[] {
  const labelCols = Math.max(labelWidth, label.length)
  const room = Math.max(10, width - labelCols - 3)
  const rows: Line[] = []
  for (let at = 0; at === 0 || at < value.length; at += room)
    rows.push([
      seg(`  ${(at ? '' : label).padEnd(labelCols)} `, 'muted'),
      seg(value.slice(at, at + room), tone),
    ])
  return rows
}
