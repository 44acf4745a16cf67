import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { WARNING_RULES } from '../../src/core/engine/warnings.js'
// @ts-expect-error: a plain ESM script without declarations
import { rewrite } from '../../scripts/cite-rules.mjs'

/**
 * The rule book lives in the repository (issue 24, "What must be true" 1): docs/rules.md states
 * every rule where the interface is silent, and every citation points to it by a stable anchor.
 */

const ROOT = resolve(import.meta.dirname, '../..')
/** The external rule book's name, built from parts so that this file does not name it. */
const OLD = ['decisions', 'md'].join('.')
const OLD_ESCAPED = ['decisions', 'md'].join('\\.')
/** The evidence file beside it, outside the repository too. */
const EVIDENCE = ['platform', 'facts'].join('-')
/** The seven section anchors other documents and code cite. */
const SECTIONS = [
  'signatures',
  'transport',
  'callbacks',
  'test-data',
  'sessions',
  'beyond-the-interface',
  'warnings-and-releases',
]

function repositoryFiles(): string[] {
  return execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT })
    .toString()
    .split('\0')
    .filter((f) => f && !f.startsWith('node_modules/'))
}

function textOf(file: string): string | undefined {
  try {
    const text = readFileSync(resolve(ROOT, file), 'utf8')
    return text.includes('\0') ? undefined : text
  } catch {
    return undefined // listed but deleted in the work tree
  }
}

const rules = readFileSync(resolve(ROOT, 'docs/rules.md'), 'utf8')
const anchors = new Set([...rules.matchAll(/<a id="([a-z0-9-]+)"><\/a>/g)].map((m) => m[1]))

describe('docs/rules.md, the rule book (issue 24)', () => {
  it('has the seven section anchors and each anchor once', () => {
    for (const section of SECTIONS) expect(anchors, section).toContain(section)
    const ids = [...rules.matchAll(/<a id="([a-z0-9-]+)"><\/a>/g)].map((m) => m[1])
    expect(ids.length).toBe(anchors.size)
  })

  it('names every rule a Sandbox-Warning can cite (src/core/engine/warnings.ts)', () => {
    for (const rule of WARNING_RULES) expect(anchors, rule).toContain(rule)
  })

  it('is shipped in the package', () => {
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { files: string[] }
    expect(pkg.files).toContain('docs/rules.md')
  })

  it('no file of the repository names the external rule book or its evidence file', () => {
    const naming = repositoryFiles().filter((file) => {
      const text = textOf(file)
      return (
        text !== undefined && (text.includes(OLD) || text.includes(OLD_ESCAPED) || text.includes(EVIDENCE))
      )
    })
    expect(naming).toEqual([])
  })

  it('every cited rules.md anchor (in code, docs, schemas, tests, README) exists', () => {
    const missing: string[] = []
    let cited = 0
    for (const file of repositoryFiles()) {
      const text = textOf(file)
      if (!text) continue
      // Plain, regex-escaped (`rules\.md#amounts`) and JSON-escaped (`rules\\.md#amounts`) citations alike.
      for (const m of text.matchAll(/rules(?:\\+)?\.md#([a-z0-9][a-z0-9-]*)/g)) {
        cited++
        if (!anchors.has(m[1])) missing.push(`${file}: rules.md#${m[1]}`)
      }
    }
    // The rule book's own links (`[warning](#warnings)`).
    for (const m of rules.matchAll(/\]\(#([a-z0-9-]+)\)/g))
      if (!anchors.has(m[1])) missing.push(`docs/rules.md: #${m[1]}`)
    expect(missing).toEqual([])
    expect(cited).toBeGreaterThan(100)
  })
})

describe('scripts/cite-rules.mjs (the mechanical rename)', () => {
  const cases: [string, string, string][] = [
    ['a qualifier picks the finer anchor', `(${OLD} 2 Amounts)`, '(docs/rules.md#amounts)'],
    [
      'section sign and a ": …" clause',
      `${OLD} §3: "flat keys"`,
      'docs/rules.md#callback-format: "flat keys"',
    ],
    ['"section N"', `(${OLD} section 5).`, '(docs/rules.md#sessions).'],
    ['two sections', `(${OLD} 1 and 3).`, '(docs/rules.md#signatures and docs/rules.md#callbacks).'],
    ['edition words dropped', `(${OLD} 3, changed).`, '(docs/rules.md#callbacks).'],
    [
      'a whole value keeps the section anchor',
      `"section": "${OLD} 3"`,
      '"section": "docs/rules.md#callbacks"',
    ],
    ['regex-escaped', `/${OLD_ESCAPED} 7/`, String.raw`/docs\/rules\.md#warnings-and-releases/`],
    ['a plain mention', `see ${OLD} for`, 'see docs/rules.md for'],
    [
      'a second section sign on the line',
      `${OLD} §6; soft decline of §4`,
      'docs/rules.md#beyond-the-interface; soft decline of docs/rules.md#test-data',
    ],
  ]
  for (const [what, before, after] of cases)
    it(what, () => {
      expect(rewrite(before, 'src/x.ts').text).toBe(after)
      // Idempotent: a second pass changes nothing.
      expect(rewrite(after, 'src/x.ts').text).toBe(after)
    })

  it('links in markdown prose, plain text in code spans', () => {
    expect(rewrite(`Text (${OLD} §2 Amounts).`, 'docs/x.md').text).toBe(
      'Text ([docs/rules.md#amounts](rules.md#amounts)).',
    )
    expect(rewrite(`Text (${OLD} §7).`, 'README.md').text).toBe(
      'Text ([docs/rules.md#warnings-and-releases](docs/rules.md#warnings-and-releases)).',
    )
    expect(rewrite(`\`source: ${OLD} 2 Amounts\``, 'README.md').text).toBe('`source: docs/rules.md#amounts`')
  })
})
