/**
 * Issue 25 item 7: `npm run screenshots` (docs/hosted-pages.md) crashed at once with "Vitest failed to access
 * its internal state": the script imported the browser tests' harness, which calls vitest's `vi`
 * as it loads, and the script runs under plain tsx. Each module it imports must load outside
 * vitest (as the script runs them); the whole run drives chromium for about two minutes, so the
 * test loads its imports rather than taking every picture.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const SCRIPT = readFileSync(join(ROOT, 'scripts', 'screenshots.ts'), 'utf8')

/** Loads `modules` in a plain node process with tsx, as `npm run screenshots` runs. */
function loadOutsideVitest(modules: string[]) {
  const code = `${modules.map((m) => `await import(${JSON.stringify(m)})`).join(';')};console.log('loaded')`
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  })
}

describe('npm run screenshots', () => {
  it('is the script docs/hosted-pages.md (linked from the README) names', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    expect(pkg.scripts.screenshots).toContain('scripts/screenshots.ts')
    expect(readFileSync(join(ROOT, 'docs', 'hosted-pages.md'), 'utf8')).toContain('`npm run screenshots`')
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('(docs/hosted-pages.md)')
  })

  it('imports only modules that load outside vitest', () => {
    const imports = [...SCRIPT.matchAll(/^import [^'"]*from '(\.[^']+)'/gm)].map((m) =>
      join(ROOT, 'scripts', (m[1] as string).replace(/\.js$/, '.ts')),
    )
    expect(imports.length).toBeGreaterThan(0)
    expect(SCRIPT).not.toMatch(/from 'vitest'|e2e\/harness\.js/)
    const r = loadOutsideVitest(imports)
    expect(r.stderr).not.toContain('Vitest failed to access its internal state')
    expect(r.stdout.trim(), r.stderr).toBe('loaded')
  })

  it('would have caught the crash: the harness of the browser tests does not load outside vitest', () => {
    const r = loadOutsideVitest([join(ROOT, 'test', 'e2e', 'harness.ts')])
    expect(r.stdout).not.toContain('loaded')
    expect(r.stderr).toContain('Vitest failed to access its internal state')
  })
})
