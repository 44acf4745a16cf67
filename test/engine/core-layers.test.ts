import { describe, expect, it } from 'vitest'
import { CORE_LAYERS, coreLayerReport, runtimeImports } from '../../scripts/core-layers.js'

/**
 * Issue 32 point 8 (docs/architecture.md, "Layers"): src/core depends downward only. The engine
 * imports no feature (features register with it: engine/modules.ts `EngineModule`, its
 * `LifecycleHooks`, assembled by src/assembly.ts); no runtime import cycle exists between files of
 * src/core; a runtime import points to its own layer or below (the layers: scripts/core-layers.ts
 * `CORE_LAYERS`). `npx tsx scripts/core-layers.ts` prints what points up.
 *
 * The imports that still point up are listed here, each with why, and the list only shrinks: an
 * import that stops pointing up must leave it, and a new one fails the test.
 */
const KNOWN_UPWARD: Record<string, string> = {
  // The payer's side of a Checkout session lives in payments/ (the S2S payer shares it), while the
  // session's access, table and routing live in checkout/: moving them below payments is the
  // next step of issue 32 point 8.
  'payments/payer.ts -> checkout/methods.ts': 'the payer picks a method of the session (checkout session)',
  'payments/payer.ts -> checkout/session-access.ts': 'the payer reads the session request',
  'payments/payer.ts -> checkout/session-lifecycle.ts': 'the payer moves the session (session table)',
  'payments/payer.ts -> checkout/session-rules.ts': 'the payer routes the session to a MID',
  'payments/card-entry.ts -> checkout/session-access.ts': 'card entry reads the session request',
  'payments/session-payment.ts -> checkout/session-access.ts':
    'the session payment reads the session request',
  'payments/hosted-fields.ts -> checkout/session-lifecycle.ts': 'an HPF payment moves the session',
  'payments/outcome.ts -> checkout/session-lifecycle.ts': 'a paid session is recorded as paid',
  // The Checkout answers build the same redirect and attributes the callbacks carry.
  'payments/hpf-answer.ts -> callbacks/redirect.ts': 'the HPF answer names the redirect a callback names',
  'checkout/operations/status-record.ts -> callbacks/attributes.ts':
    'the status answer maps the attributes the callback maps',
}

const ENGINE_LAYERS = new Set(CORE_LAYERS.slice(0, 2).flat())

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

  it('points up only where the shrinking list of known exceptions says why', () => {
    expect(upward.filter((u) => !(u in KNOWN_UPWARD))).toEqual([])
    // An exception fixed leaves the list: the list never names an import that no longer points up.
    expect(Object.keys(KNOWN_UPWARD).filter((u) => !upward.includes(u))).toEqual([])
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
})
