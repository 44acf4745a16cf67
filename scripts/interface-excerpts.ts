/**
 * The excerpts of the gateway interface document that the tests read (data/interface/*.md), and
 * how each is cut from the document: from a heading line up to (not including) the next one named.
 *
 *   tsx scripts/interface-excerpts.ts check <gateway-interface.md>   compare the committed excerpts
 *   tsx scripts/interface-excerpts.ts write <gateway-interface.md>   refresh them from the document
 *
 * Only .ci/run calls it (with the document's path) and only when that document exists: the tests
 * themselves read the committed excerpts, so a clone without the document passes `npm test`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

interface Excerpt {
  file: string
  from: string
  to: string
}

const DIR = join(import.meta.dirname, '..', 'data', 'interface')
const EXCERPTS = JSON.parse(readFileSync(join(DIR, 'excerpts.json'), 'utf8')).excerpts as Excerpt[]

export function cut(doc: string, { from, to }: Excerpt): string {
  const start = doc.indexOf(`\n${from}`)
  const end = doc.indexOf(`\n${to}`, start + 1)
  if (start < 0 || end < 0) throw new Error(`"${from}" ... "${to}" not found in the interface document`)
  return doc.slice(start + 1, end + 1)
}

function main(argv: string[]): number {
  const [mode, path] = argv
  if ((mode !== 'check' && mode !== 'write') || !path) {
    process.stderr.write('usage: tsx scripts/interface-excerpts.ts check|write <gateway-interface.md>\n')
    return 2
  }
  const doc = readFileSync(path, 'utf8')
  let stale = 0
  for (const e of EXCERPTS) {
    const fresh = cut(doc, e)
    const file = join(DIR, e.file)
    if (mode === 'write') {
      writeFileSync(file, fresh)
      continue
    }
    const committed = readFileSync(file, 'utf8')
    if (committed === fresh) process.stdout.write(`ok       data/interface/${e.file}\n`)
    else {
      stale++
      process.stdout.write(
        `CHANGED  data/interface/${e.file}: the interface's "${e.from}" differs; run \`npx tsx scripts/interface-excerpts.ts write ${path}\`, review the diff and the tests that read it\n`,
      )
    }
  }
  return stale ? 1 : 0
}

process.exitCode = main(process.argv.slice(2))
