import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const run = (...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'bin', 'paysandbox.js'), 'tui', ...args], {
    cwd: root,
    encoding: 'utf8',
  })

// cli/exit-codes.ts: "usage or configuration error: unknown command, kind or option, unreadable file" exits 2
describe('paysandbox tui: usage errors before any UI starts', () => {
  it.each([
    [
      ['--url', 'localhost:8080'],
      '--url must be an http(s) address such as http://localhost:8080, got "localhost:8080"',
    ],
    [['--data', 'no/such/file.json'], '--data no/such/file.json: no such file'],
    [['--url', 'http://localhost:8080', '--data', 'x.json'], 'Arguments url and data are mutually exclusive'],
    [['--key', 'demo-merchant'], 'Implications failed:\n key -> password'],
    [[], 'paysandbox tui needs an interactive terminal'],
  ])('%j exits 2 saying why', (args, message) => {
    const r = run(...args)
    expect(r.status).toBe(2)
    expect(r.stderr).toContain(message)
  })
})
