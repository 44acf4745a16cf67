import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Temporary directories the tests write configs, scenario files, payloads and data files into.
 * test/setup.ts removes them after each test file, once the file's own hooks (which stop the
 * servers and processes using them) have run: before, every `npm test` left about 70 of them in
 * the temporary directory.
 */
const made: string[] = []

/** A fresh directory under the temporary directory, named `prefix` and random characters. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  made.push(dir)
  return dir
}

/** Removes every directory `scratchDir` made so far. */
export function removeScratchDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
}
