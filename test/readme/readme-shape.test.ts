/**
 * Issue 33, item 1: the README is a newcomer's path of at most 400 lines. It starts with the two
 * commands (the sandbox, the tests: `.ci/run` runs `npm test`), then, in this order: your own
 * merchant, a first payment, callbacks, refund/capture/void, method ids, making the gateway fail,
 * the kit in CI, the console, support. Everything else moved to docs/ and is linked; the links
 * resolve, the CI workflow it shows is examples/ci/payments-conformance.yml byte for byte, every
 * dependency's reason is in docs/dependencies.md, and the console keys it lists are the console's
 * (src/ui/keys.ts). The commands themselves run in readme-examples.test.ts and ci-workflow.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BINDINGS, keysIn } from '../../src/ui/keys.js'

const ROOT = join(import.meta.dirname, '..', '..')
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')

/** The README's `## ` headings, outside code blocks. */
function headings(text: string): string[] {
  return text
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .filter((l) => l.startsWith('## '))
}

function section(title: string): string {
  const start = README.indexOf(`\n## ${title}`)
  expect(start, `the README has a "## ${title}" section`).toBeGreaterThan(0)
  const end = README.indexOf('\n## ', start + 1)
  return README.slice(start, end < 0 ? undefined : end)
}

describe('README: a newcomer path', () => {
  it('is at most 400 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(400)
  })

  it('starts with the two commands: the sandbox, then the tests (which .ci/run runs)', () => {
    const first = /```sh\n([\s\S]*?)```/.exec(README)
    expect(first?.index).toBeLessThan(README.indexOf('\n## '))
    const commands = String(first?.[1])
      .trim()
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, ''))
    expect(commands).toEqual(['npm install && npm start', 'npm install && npm test'])
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m)
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    expect(pkg.scripts.start).toContain('serve')
  })

  it('goes through the merchant basics in order', () => {
    const order = [
      /^## Your own merchant/,
      /^## A first payment/,
      /^## Callbacks/,
      /^## Refund, capture and void/,
      /^## Method ids/,
      /^## Making the gateway fail/,
      /^## The kit in CI/,
      /^## The console/,
      /^## Support: request log and replay/,
      /^## More/,
    ]
    const found = headings(README)
    expect(found.length).toBe(order.length)
    for (const [i, pattern] of order.entries()) expect(found[i]).toMatch(pattern)
  })

  it('links only files that exist, and links every page the old README parts moved to', () => {
    const links = [...README.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1] as string)
    const local = links.filter((l) => !/^https?:/.test(l))
    for (const link of local) expect(existsSync(join(ROOT, link)), link).toBe(true)
    for (const page of [
      'docs/sandbox.md',
      'docs/library.md',
      'docs/cli.md',
      'docs/kit.md',
      'docs/hosted-pages.md',
      'docs/internals.md',
      'docs/dependencies.md',
      'docs/benchmarks.md',
      'docs/signatures.md',
      'docs/rules.md',
      'docs/replay.md',
      'docs/conformance.md',
    ])
      expect(local, page).toContain(page)
  })

  it("the moved pages' own links resolve", () => {
    for (const page of ['sandbox', 'library', 'cli', 'kit', 'hosted-pages', 'internals', 'dependencies']) {
      const file = join(ROOT, 'docs', `${page}.md`)
      const text = readFileSync(file, 'utf8')
      for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const link = m[1] as string
        if (/^https?:/.test(link)) continue
        expect(existsSync(join(dirname(file), link)), `${page}.md: ${link}`).toBe(true)
      }
    }
  })

  it('shows the CI workflow of examples/ci/payments-conformance.yml as it is', () => {
    const block = /```yaml\n([\s\S]*?)```/.exec(section('The kit in CI'))?.[1]
    expect(block).toBe(readFileSync(join(ROOT, 'examples', 'ci', 'payments-conformance.yml'), 'utf8'))
  })

  it('says why each dependency is there, in docs/dependencies.md', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    const doc = readFileSync(join(ROOT, 'docs', 'dependencies.md'), 'utf8')
    const rows = doc.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| package'))
    const named = new Set(
      rows.flatMap((r) => (r.split('|')[1] as string).split(/,\s*|\s+\(/)).map((n) => n.trim()),
    )
    const all = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies ?? {})]
    for (const name of all) {
      expect(named.has(name), `docs/dependencies.md names ${name}`).toBe(true)
      const row = rows.find((r) => (r.split('|')[1] as string).includes(name)) as string
      expect((row.split('|')[2] as string).trim().length, `a reason for ${name}`).toBeGreaterThan(10)
    }
  })

  it("lists console keys that are the console's, in the view it names", () => {
    const scopes: Record<string, string[]> = {
      everywhere: ['everywhere'],
      'payments, callbacks': ['payments', 'callbacks'],
      lists: ['lists'],
      payment: ['payment'],
      callbacks: ['callbacks'],
      clock: ['clock', 'everywhere'],
      scenarios: ['scenarios'],
      confirm: ['confirm'],
    }
    const rows = section('The console')
      .split('\n')
      .filter((l) => /^\| `/.test(l))
    expect(rows.length).toBeGreaterThan(8)
    for (const row of rows) {
      const [, keys, where] = row.split('|').map((c) => c.trim()) as [string, string, string]
      const inScopes = scopes[where]
      expect(inScopes, `a known view: ${where}`).toBeDefined()
      const known = BINDINGS.filter((b) => inScopes?.includes(b.scope)).flatMap(keysIn)
      const named = [...keys.matchAll(/`([^`]+)`/g)].flatMap((m) =>
        (m[1] as string).split(/[\s/]+|-/).filter((k) => k !== ''),
      )
      for (const key of named) expect(known, `${where}: key ${key}`).toContain(key)
    }
  })
})
