import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A HAR document as the replay tests change it. */
export interface Capture {
  log: {
    entries: {
      startedDateTime: string
      request: {
        method: string
        url: string
        headers: { name: string; value: string }[]
        postData?: { mimeType?: string; text?: string }
      }
      response: {
        status: number
        headers: { name: string; value: string }[]
        content: { mimeType?: string; text?: string }
      }
    }[]
  }
}

const dirs: string[] = []

/** Temporary capture files, removed after each test. */
export const temps = {
  clean: () => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  },
}

/** Writes `content` (a document as JSON, or text as it is) to a temporary file named `name`. */
export function tempCapture(name: string, content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'paysandbox-replay-'))
  dirs.push(dir)
  const file = join(dir, name)
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
  return file
}
