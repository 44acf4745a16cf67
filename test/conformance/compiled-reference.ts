import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..', '..')
const source = join(root, 'fixtures', 'merchants', 'reference')

/**
 * The reference merchant (fixtures/merchants/reference, TypeScript) compiled once to JavaScript in
 * a directory of its own, so that a test starting many merchant processes runs them with plain
 * `node` instead of compiling the sources again in each process (tsx). `dispose` removes it.
 */
export function compileReferenceMerchant(): { main: string; dispose: () => void } {
  const out = mkdtempSync(join(tmpdir(), 'reference-merchant-'))
  const files = readdirSync(source)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(source, f))
  const tsc = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '--ignoreConfig',
      '--outDir',
      out,
      '--rootDir',
      source,
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--types',
      'node',
      '--skipLibCheck',
      '--noCheck',
      ...files,
    ],
    { cwd: root, encoding: 'utf8' },
  )
  if (tsc.status !== 0)
    throw new Error(`compiling the reference merchant failed:\n${tsc.stdout}${tsc.stderr}`)
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n')
  return { main: join(out, 'main.js'), dispose: () => rmSync(out, { recursive: true, force: true }) }
}

/** Runs `task` over `items` with at most `limit` at once (merchant processes on a 2-core machine). */
export async function inBatches<T>(
  items: T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items]
  const workers = Array.from({ length: Math.min(limit, queue.length) }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item)
  })
  await Promise.all(workers)
}
