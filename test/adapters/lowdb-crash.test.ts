import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { createLowdbStore } from '../../src/adapters/index.js'

/**
 * Issue: "A process killed during writes never leaves an unreadable file." A child writes without
 * pause (journal appends and, every few KB, a new snapshot) and is SIGKILLed at random moments;
 * each time the files must load and hold a prefix of the writes that includes every flushed one.
 */
const child = fileURLToPath(new URL('./lowdb-crash-child.ts', import.meta.url))
const cwd = fileURLToPath(new URL('../..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'paysandbox-crash-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What the child has written once record `last` is: see lowdb-crash-child.ts. */
function expectedIds(last: number): string[] {
  const ids: string[] = []
  for (let j = 0; j <= last; j++) if (!(j + 50 <= last && j % 7 === 0)) ids.push(`r${j}`)
  return ids
}

/** Starts the child, kills it `delayMs` after it is ready; resolves with the last `flushed` it printed. */
function runAndKill(file: string, delayMs: number): Promise<{ ready: number; flushed: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, file], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    let ready = -1
    let flushed = -1
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const lines = out.split('\n')
      out = lines.pop() ?? ''
      for (const line of lines) {
        const [word, value] = line.split(' ')
        if (word === 'ready' && ready < 0) {
          ready = Number(value)
          setTimeout(() => proc.kill('SIGKILL'), delayMs)
        }
        if (word === 'flushed') flushed = Number(value)
      }
    })
    proc.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString()
    })
    proc.on('error', reject)
    proc.on('exit', (_code, signal) => {
      if (signal === 'SIGKILL') resolve({ ready, flushed })
      else reject(new Error(`the writer stopped by itself (${_code}): ${err}`))
    })
  })
}

it('a writer killed at random moments leaves files that load with a prefix of its writes', async () => {
  const file = join(dir, 'nested', 'crash.json')
  const delays = Array.from({ length: 5 }, () => 50 + Math.floor(Math.random() * 250))
  let before = -1
  for (const delayMs of delays) {
    const { ready, flushed } = await runAndKill(file, delayMs)
    const at = `(killed ${delayMs} ms after start; delays ${delays.join(', ')})`
    expect(ready, `resumed after the last record ${at}`).toBe(before + 1)
    expect(() => JSON.parse(readFileSync(file, 'utf8')), `snapshot is JSON ${at}`).not.toThrow()
    const store = await createLowdbStore<{
      records: { id: string; i: number }
      meta: { id: string; last: number }
    }>({
      file,
    })
    const last = store.get('meta', 'meta')?.last ?? -1
    expect(last, `every flushed write survived ${at}`).toBeGreaterThanOrEqual(Math.max(flushed, before))
    expect(
      store.list('records').map((r) => r.id),
      `a prefix of the writes ${at}`,
    ).toEqual(expectedIds(last))
    expect(store.list('records').every((r) => r.id === `r${r.i}`)).toBe(true)
    before = last
    await store.close()
  }
  expect(before, 'the writer got somewhere').toBeGreaterThan(100)
})
