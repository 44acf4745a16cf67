import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Issue 11 point 6 (docs/architecture.md): src/core imports nothing from the pages, the UI, the
 * adapters or Node I/O; its schemas and catalogues come as data through the schema source port,
 * and its types from src/generated. Allowed packages are the pure ones it computes with.
 */
const ROOT = resolve(import.meta.dirname, '..', '..')
const CORE = join(ROOT, 'src', 'core')
const ALLOWED_PACKAGES = ['ajv', 'ajv-formats', 'qs', 'node:crypto']
const ALLOWED_OUTSIDE = [join(ROOT, 'src', 'generated')]

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  )
}

const importsOf = (text: string) =>
  [
    ...text.matchAll(
      /(?:^|\n)\s*(?:import|export)[^'"\n]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    ),
  ].map((m) => (m[1] ?? m[2]) as string)

describe('src/core boundaries', () => {
  const offences: string[] = []
  for (const file of files(CORE)) {
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      const where = relative(ROOT, file)
      if (!spec.startsWith('.')) {
        const name = spec.startsWith('@')
          ? spec.split('/').slice(0, 2).join('/')
          : (spec.split('/')[0] as string)
        if (!ALLOWED_PACKAGES.includes(name)) offences.push(`${where}: imports ${spec}`)
        continue
      }
      const target = resolve(dirname(file), spec)
      const inside = target.startsWith(CORE + '/') || ALLOWED_OUTSIDE.some((d) => target.startsWith(d + '/'))
      if (!inside) offences.push(`${where}: imports ${relative(ROOT, target)}`)
    }
  }

  it('imports only the core, the generated types and pure packages', () => {
    expect(offences).toEqual([])
  })

  it('finds the imports it checks (the scan itself works)', () => {
    expect(importsOf("import { a } from '../pages/x.js'\nexport { b } from 'node:fs'")).toEqual([
      '../pages/x.js',
      'node:fs',
    ])
  })
})
