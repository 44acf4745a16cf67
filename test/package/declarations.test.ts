import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The main entry's declarations need nothing its user did not install (issue 25, item 5): every
 * package the declaration files reachable from the entry import is a runtime dependency of
 * paysandbox (installed with it), never msw, an optional peer that only `paysandbox/msw` needs.
 * Read from the build (dist/), as a consumer's TypeScript reads it; test/package/packed-install
 * type-checks a strict project without msw against the packed tarball.
 */
const root = join(import.meta.dirname, '..', '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>
  peerDependencies: Record<string, string>
  peerDependenciesMeta: Record<string, { optional?: boolean }>
  exports: Record<string, { import?: { types?: string }; require?: { types?: string } } | string>
}

/** The packages (bare specifiers) imported by the declaration files reachable from `entry`. */
function packagesImported(entry: string): { files: number; packages: Set<string> } {
  const seen = new Set<string>()
  const packages = new Set<string>()
  const queue = [entry]
  while (queue.length) {
    const file = queue.pop() as string
    if (seen.has(file)) continue
    seen.add(file)
    // Comments hold examples (`import { mswHandlers } from 'paysandbox/msw'`), not imports.
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
    for (const [, spec] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)) {
      if (!spec) continue
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec.replace(/\.js$/, '.d.ts'))
        expect(existsSync(target), `${file} imports ${spec}`).toBe(true)
        queue.push(target)
      } else if (!spec.startsWith('node:')) {
        packages.add(
          spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string),
        )
      }
    }
  }
  return { files: seen.size, packages }
}

const typesOf = (entry: string) => {
  const target = pkg.exports[entry]
  return join(root, typeof target === 'string' ? target : (target?.import?.types ?? ''))
}

describe('the declarations of each entry point', () => {
  it('paysandbox: only runtime dependencies, no msw', () => {
    const { files, packages } = packagesImported(typesOf('.'))
    expect(files).toBeGreaterThan(10)
    expect([...packages].filter((p) => !(p in pkg.dependencies))).toEqual([])
    expect(packages.has('msw')).toBe(false)
  })

  it('paysandbox/msw: msw, an optional peer dependency, and runtime dependencies', () => {
    const { packages } = packagesImported(typesOf('./msw'))
    expect(packages.has('msw')).toBe(true)
    expect(pkg.peerDependencies.msw).toBeDefined()
    expect(pkg.peerDependenciesMeta.msw?.optional).toBe(true)
    expect([...packages].filter((p) => p !== 'msw' && !(p in pkg.dependencies))).toEqual([])
  })
})

/** Every declaration file of the build. */
const declarationFiles = (dir = join(root, 'dist', 'src')): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? declarationFiles(join(dir, e.name))
      : e.name.endsWith('.d.ts')
        ? [join(dir, e.name)]
        : [],
  )

describe('the declarations for every TypeScript consumer (issue 33, item 5)', () => {
  it("reference Node's types wherever they name them, so an empty `types` (TypeScript 7's default) still finds them", () => {
    const naming = declarationFiles().filter((f) =>
      /['"]node:[a-z_/]+['"]|\bNodeJS\.|\bBuffer\b/.test(
        readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, ''),
      ),
    )
    expect(naming.length).toBeGreaterThan(0)
    expect(
      naming.filter((f) => !readFileSync(f, 'utf8').startsWith('/// <reference types="node" />')),
    ).toEqual([])
  })

  it('give `require` its own CommonJS declarations (.d.cts), whose relative imports stay CommonJS', () => {
    for (const entry of ['.', './msw']) {
      const target = pkg.exports[entry]
      const types = typeof target === 'string' ? '' : (target?.require?.types ?? '')
      expect(types, entry).toMatch(/\.d\.cts$/)
      expect(existsSync(join(root, types)), types).toBe(true)
    }
    const twins = declarationFiles().map((f) => f.replace(/\.d\.ts$/, '.d.cts'))
    expect(twins.filter((f) => !existsSync(f))).toEqual([])
    const esmImports = twins.filter((f) =>
      /(?:\bfrom|\bimport)\s*\(?\s*['"]\.{1,2}\/[^'"]*\.js['"]/.test(readFileSync(f, 'utf8')),
    )
    expect(esmImports).toEqual([])
  })
})
