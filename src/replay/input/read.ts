import { readFile } from 'node:fs/promises'
import { ReplayInputError } from '../errors.js'
import { isHar, readHar } from './har.js'
import { readJsonLines } from './jsonl.js'
import type { Exchange } from './types.js'

export type CaptureFormat = 'har' | 'jsonl'

/** A captured file, HAR 1.2 or JSON lines (told apart by its content, not its name). */
export async function readCapture(file: string): Promise<{ format: CaptureFormat; exchanges: Exchange[] }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new ReplayInputError(
      file,
      undefined,
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`,
    )
  }
  return parseCapture(file, text)
}

export function parseCapture(file: string, text: string): { format: CaptureFormat; exchanges: Exchange[] } {
  const trimmed = text.replace(/^\uFEFF/, '').trim()
  if (!trimmed)
    throw new ReplayInputError(file, undefined, 'empty: a HAR 1.2 file or a JSON-lines log expected')
  let whole: unknown
  try {
    whole = JSON.parse(trimmed)
  } catch (error) {
    // One object per line is not one JSON document (unless it has one line): its first line is one.
    if (firstLineIsObject(trimmed)) return { format: 'jsonl', exchanges: readJsonLines(file, text) }
    const message = (error as Error).message
    throw new ReplayInputError(
      file,
      undefined,
      `not JSON (a HAR 1.2 file or a JSON-lines log expected): ${message}${endsEarly(message, trimmed) ? ' (the file ends early: truncated?)' : ''}`,
    )
  }
  if (isHar(whole)) return { format: 'har', exchanges: readHar(file, whole) }
  if (whole && typeof whole === 'object' && !Array.isArray(whole) && 'method' in whole)
    return { format: 'jsonl', exchanges: readJsonLines(file, text) }
  throw new ReplayInputError(
    file,
    undefined,
    'neither a HAR 1.2 file (no log.entries) nor a JSON-lines log (no method and url on the first line)',
  )
}

function firstLineIsObject(text: string): boolean {
  try {
    const first: unknown = JSON.parse(text.slice(0, text.indexOf('\n') < 0 ? undefined : text.indexOf('\n')))
    return !!first && typeof first === 'object' && !Array.isArray(first)
  } catch {
    return false
  }
}

/** The parser stopped at the end of the text: the file was cut short, not written wrong. */
function endsEarly(message: string, text: string): boolean {
  const at = /at position (\d+)/.exec(message)?.[1]
  return /end of JSON input/i.test(message) || (at !== undefined && Number(at) >= text.length - 1)
}
