import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CORE_LAYERS, coreLayerReport, runtimeImports } from '../../scripts/core-layers.js'

/**
 * Issue 32 point 8 (docs/architecture.md, "Layers"): src/core depends downward only. The engine
 * imports no feature (features register with it: engine/modules.ts `EngineModule`, its
 * `LifecycleHooks`, assembled by src/assembly.ts); no runtime import cycle exists between files of
 * src/core; a runtime import points to its own layer or below (the layers: scripts/core-layers.ts
 * `CORE_LAYERS`). `npx tsx scripts/core-layers.ts` prints what points up.
 */
/** The engine's layer and the ones under it. */
const ENGINE_LAYERS = new Set(
  CORE_LAYERS.slice(0, CORE_LAYERS.findIndex((l) => l.includes('engine')) + 1).flat(),
)

describe('src/core layers (issue 32 point 8)', () => {
  const report = coreLayerReport()
  const upward = report.upward.map((i) => `${i.from} -> ${i.to}`)

  it('has no runtime import cycle between its files', () => {
    expect(report.cycles).toEqual([])
  })

  it('places every folder of src/core in a layer', () => {
    expect(report.unplaced).toEqual([])
  })

  it('the engine imports no feature: features register with it', () => {
    const fromEngine = report.upward.filter((i) => ENGINE_LAYERS.has(i.from.split('/')[0] as string))
    expect(fromEngine).toEqual([])
  })

  it('has no runtime import that points up the layers', () => {
    expect(upward).toEqual([])
  })

  it('finds the imports it checks: `import type` and `export type` are erased, the rest count', () => {
    const text = [
      "import type { A } from './a.js'",
      "export type { B } from './b.js'",
      "import { type C, d } from './c.js'",
      "import {\n  e,\n  f,\n} from './e.js'",
      "export { g } from './g.js'",
      "import './side-effect.js'",
      "const h = await import('./h.js')",
    ].join('\n')
    expect(runtimeImports(text)).toEqual(['./c.js', './e.js', './g.js', './side-effect.js', './h.js'])
  })

  it('fails on what it forbids: an engine importing a feature that imports it back', () => {
    // The shape src/core had before (engine/pipeline.ts imported checkout/session-access.ts).
    const core = fixture({
      'engine/pipeline.ts': "import { apiSession } from '../checkout/session-access.js'\n",
      'checkout/session-access.ts': "import { fail } from '../engine/pipeline.js'\n",
      'checkout/session.ts': "import type { Pipeline } from '../engine/pipeline.js'\n",
    })
    const found = coreLayerReport(core)
    expect(found.upward.map((i) => `${i.from} -> ${i.to}`)).toEqual([
      'engine/pipeline.ts -> checkout/session-access.ts',
    ])
    expect(found.cycles).toEqual([['checkout/session-access.ts', 'engine/pipeline.ts']])
  })
})

const fixtures: string[] = []
afterAll(() => {
  for (const dir of fixtures) rmSync(dir, { recursive: true, force: true })
})

/** A throw-away src/core of a few files, to show the checks catch what they forbid. */
function fixture(files: Record<string, string>): string {
  const core = mkdtempSync(join(tmpdir(), 'core-layers-'))
  fixtures.push(core)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(core, path)), { recursive: true })
    writeFileSync(join(core, path), text)
  }
  return core
}
