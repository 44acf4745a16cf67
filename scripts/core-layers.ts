import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * src/core depends downward only (issue 32 point 8, docs/architecture.md): the layers of src/core,
 * bottom first. A runtime import may point to its own layer or below, never up, and no runtime
 * import cycle may exist between files. `import type` / `export type` are erased and do not
 * count; `import { type A }` does (under `verbatimModuleSyntax` it stays an import at run time).
 * Dynamic `import()` counts too.
 *
 * `npx tsx scripts/core-layers.ts` prints the imports that point up and the cycles;
 * test/engine/core-layers.test.ts fails on either.
 */
export const CORE_LAYERS: readonly (readonly string[])[] = [
  // The ports and the pure primitives the engine computes with.
  ['ports', 'signatures'],
  // The engine: the one request lifecycle, its model, errors, pipeline and request validation.
  ['engine', 'validation'],
  // The Checkout session's state table and its access by token, under every feature that pays one.
  ['sessions'],
  // Features: each registers its routes (and hooks) with the engine through EngineModule.
  ['faults'],
  ['payments'],
  ['request-log'],
  ['apm'],
  // Callbacks build from the payment (and an APM payment's details); Checkout answers reuse their
  // redirect and attributes.
  ['callbacks'],
  ['checkout'],
  ['schedules'],
  // S2S APM's actions are served at S2S CARD's /post too: s2s-card/module.ts dispatches to them.
  ['s2s-apm'],
  ['s2s-card'],
  ['signing', 'order-scenario'],
  // The control API reads and writes every feature's records (export, import, support).
  ['control'],
]

export interface CoreImport {
  from: string
  to: string
  /** As written in the source. */
  spec: string
}

export interface CoreLayerReport {
  files: number
  imports: CoreImport[]
  /** Runtime imports whose target's layer is above the importer's. */
  upward: CoreImport[]
  /** Folders of src/core with no layer (a new folder must be placed). */
  unplaced: string[]
  /** Strongly connected groups of two or more files (each contains a cycle). */
  cycles: string[][]
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const CORE = join(ROOT, 'src', 'core')

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  )
}

/** Relative specifiers of a file's runtime imports and re-exports (type-only ones left out). */
export function runtimeImports(text: string): string[] {
  const out: string[] = []
  const statements =
    /(?:^|\n)[ \t]*(import|export)(\s+type\b)?([^;'"]*?)\bfrom\s*['"]([^'"]+)['"]|(?:^|\n)[ \t]*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g
  for (const m of text.matchAll(statements)) {
    if (m[2]) continue
    const spec = (m[4] ?? m[5] ?? m[6]) as string
    out.push(spec)
  }
  return out
}

/** The report for the tree under `core` (src/core; another tree, such as an older checkout, for comparison). */
export function coreLayerReport(core: string = CORE): CoreLayerReport {
  const folderOf = (file: string) => relative(core, file).split(/[\\/]/)[0] as string
  const all = files(core)
  const layerOf = new Map<string, number>()
  CORE_LAYERS.forEach((folders, i) => {
    for (const f of folders) layerOf.set(f, i)
  })
  const imports: CoreImport[] = []
  const graph = new Map<string, string[]>()
  for (const file of all) {
    const from = relative(core, file).split('\\').join('/')
    const targets: string[] = []
    for (const spec of runtimeImports(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue
      const target = resolve(dirname(file), spec).replace(/\.js$/, '')
      const found = [`${target}.ts`, `${target}.tsx`, join(target, 'index.ts')].find((t) => all.includes(t))
      if (!found) continue
      const to = relative(core, found).split('\\').join('/')
      imports.push({ from, to, spec })
      targets.push(to)
    }
    graph.set(from, targets)
  }
  const folders = [...new Set(all.map(folderOf))].filter((f) => !f.includes('.'))
  const unplaced = folders.filter((f) => !layerOf.has(f))
  const rank = (path: string) => layerOf.get(path.split('/')[0] as string) ?? -1
  const upward = imports.filter((i) => rank(i.to) > rank(i.from))
  return { files: all.length, imports, upward, unplaced, cycles: stronglyConnected(graph) }
}

/** Tarjan's algorithm: the groups of files that import each other, directly or around a loop. */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  let index = 0
  const indices = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const groups: string[][] = []
  const visit = (v: string) => {
    indices.set(v, index)
    low.set(v, index)
    index++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, indices.get(w) as number))
    }
    if (low.get(v) === indices.get(v)) {
      const group: string[] = []
      let w: string
      do {
        w = stack.pop() as string
        onStack.delete(w)
        group.push(w)
      } while (w !== v)
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) groups.push(group.sort())
    }
  }
  for (const v of graph.keys()) if (!indices.has(v)) visit(v)
  return groups
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = coreLayerReport()
  const byFolders = new Map<string, number>()
  for (const i of report.upward) {
    const key = `${i.from.split('/')[0]} -> ${i.to.split('/')[0]}`
    byFolders.set(key, (byFolders.get(key) ?? 0) + 1)
  }
  const folderCycles = report.cycles.map((g) => [...new Set(g.map((f) => f.split('/')[0]))].sort())
  console.log(`src/core: ${report.files} files, ${report.imports.length} runtime imports inside core`)
  console.log(`imports pointing up the layers: ${report.upward.length}`)
  for (const i of report.upward) console.log(`  ${i.from} -> ${i.to}`)
  console.log(`folder arrows pointing up: ${byFolders.size}`)
  for (const [k, n] of byFolders) console.log(`  ${k} (${n})`)
  console.log(`runtime import cycles (groups of files): ${report.cycles.length}`)
  for (const [i, g] of report.cycles.entries())
    console.log(`  ${g.length} files across ${folderCycles[i]?.join(', ')}`)
  if (report.unplaced.length) console.log(`folders with no layer: ${report.unplaced.join(', ')}`)
}
