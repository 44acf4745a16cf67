import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * `npm install` on a fresh clone leaves `git status` clean and prints no install-script warning.
 * Two ways it did not: the lock file lacked Biome's packages for other platforms, which npm 11
 * records whatever the platform (so every install added them back), and the packages with install
 * scripts were not listed in package.json's `allowScripts` (npm 11 skips such scripts and warns).
 * The whole check, run by .ci/run on every fresh clone: `npm install` then
 * `git diff --exit-code package.json package-lock.json`.
 */
const root = join(import.meta.dirname, '..', '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  allowScripts?: Record<string, boolean>
}
interface LockEntry {
  version?: string
  hasInstallScript?: boolean
  optionalDependencies?: Record<string, string>
}
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number
  packages: Record<string, LockEntry>
}

/** The package name of a lock key such as node_modules/a/node_modules/@s/b. */
const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)

describe('package-lock.json is the one npm writes', () => {
  it('is lockfile version 3', () => {
    expect(lock.lockfileVersion).toBe(3)
  })

  it('records every optional dependency of every package, for every platform', () => {
    const missing: string[] = []
    for (const [key, entry] of Object.entries(lock.packages)) {
      for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
        // npm resolves from the package's own node_modules up to the root's.
        const candidates = [`${key ? `${key}/` : ''}node_modules/${dep}`, `node_modules/${dep}`]
        if (!candidates.some((c) => c in lock.packages)) missing.push(`${key || '(root)'} -> ${dep}`)
      }
    }
    expect(missing).toEqual([])
  })

  it('has an allowScripts decision in package.json for every package with an install script', () => {
    const allow = pkg.allowScripts ?? {}
    const decided = (name: string, version?: string) =>
      name in allow || (version !== undefined && `${name}@${version}` in allow)
    const undecided = Object.entries(lock.packages)
      .filter(([key, entry]) => key && entry.hasInstallScript)
      .map(([key, entry]) => ({ name: nameOf(key), version: entry.version }))
      .filter(({ name, version }) => !decided(name, version))
      .map(({ name, version }) => `${name}@${version}`)
    expect(undecided).toEqual([])
  })

  it('approves no install script of a package the lock does not hold', () => {
    const names = new Set(Object.keys(lock.packages).filter(Boolean).map(nameOf))
    const stale = Object.keys(pkg.allowScripts ?? {}).filter(
      (spec) => !names.has(spec.replace(/(?<=.)@[^@]*$/, '')),
    )
    expect(stale).toEqual([])
  })
})
