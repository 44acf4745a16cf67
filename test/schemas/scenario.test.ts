import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { SCHEMA_BASE, schemaRegistry, validate } from '../../src/core/validation/index.js'
import { expectInvalidAt, expectValid, withField } from '../helpers/schema.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DRAFTS = join(ROOT, 'fixtures/scenarios-draft')
const SCENARIO = 'sandbox/scenario'
const scenarioSchema = JSON.parse(
  readFileSync(join(ROOT, 'schemas/sandbox/scenario.schema.json'), 'utf8'),
) as {
  $defs: { Step: { oneOf: { properties: { step: { const: string } } }[] } }
}
/** The `oneOf` branch of one step kind, for the detailed errors the `oneOf` summary does not give. */
const kindSchema = (kind: string) => {
  const index = scenarioSchema.$defs.Step.oneOf.findIndex((b) => b.properties.step.const === kind)
  if (index < 0) throw new Error(`No step kind ${kind}`)
  return `${SCHEMA_BASE}sandbox/scenario.schema.json#/$defs/Step/oneOf/${index}`
}

type Step = Record<string, unknown> & { step: string }
interface Scenario {
  mode: string
  variables?: Record<string, string>
  steps: Step[]
}
const files = readdirSync(DRAFTS).filter((f) => f.endsWith('.json'))
const load = (f: string) => JSON.parse(readFileSync(join(DRAFTS, f), 'utf8')) as Scenario
const errorIds = new Set(
  (
    JSON.parse(readFileSync(join(ROOT, 'schemas/catalogue/errors.json'), 'utf8')) as {
      errors: { id: string }[]
    }
  ).errors.map((e) => e.id),
)

const base = {
  title: 'A scenario',
  section: 'Events',
  mode: 'both',
  steps: [{ step: 'clock.advance', seconds: 60 }],
}
const withSteps = (mode: string, ...steps: Step[]) => ({ ...base, mode, steps })

describe('draft scenarios', () => {
  it.each(files)('%s is valid', (file) => {
    expectValid(SCENARIO, load(file))
  })

  it('cover the three modes', () => {
    expect(new Set(files.map((f) => load(f).mode))).toEqual(new Set(['merchant', 'gateway', 'both']))
  })

  // Errors: codes and messages live in one catalogue; a scenario names the row it expects by id.
  it.each(files)('%s names only catalogue errors and existing schemas', (file) => {
    const registry = schemaRegistry()
    for (const step of load(file).steps) {
      const expectation = step.expect as { error?: string; schema?: string } | undefined
      if (expectation?.error) expect(errorIds.has(expectation.error), expectation.error).toBe(true)
      for (const schema of [expectation?.schema, step.schema as string | undefined].filter(Boolean)) {
        expect(() => registry.validator(schema as string), String(schema)).not.toThrow()
      }
    }
  })

  // Scenario format: `capture: {name: jsonpath}` in a step, `${name}` in later steps.
  it.each(files)('%s uses each interpolated name only after it is captured', (file) => {
    const scenario = load(file)
    const known = new Set(['run_id', ...Object.keys(scenario.variables ?? {})])
    for (const [i, step] of scenario.steps.entries()) {
      const { capture, ...rest } = step
      for (const [, name] of JSON.stringify(rest).matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
        expect(known.has(name as string), `step ${i} uses \${${name}} before it is captured`).toBe(true)
      }
      for (const name of Object.keys((capture as Record<string, string> | undefined) ?? {})) known.add(name)
    }
  })
})

describe('scenario format', () => {
  it.each(['title', 'section', 'mode', 'steps'])('refuses a scenario without %s', (field) => {
    expectInvalidAt(SCENARIO, withField(base, field, undefined), field)
  })

  it('refuses an unknown mode and an empty step list', () => {
    expectInvalidAt(SCENARIO, { ...base, mode: 'merchants' }, 'mode')
    expectInvalidAt(SCENARIO, { ...base, steps: [] }, 'steps')
  })

  // Scenario format: "steps[] where a step is one of" the listed kinds, with a `step` discriminator.
  it('refuses an unknown step kind, naming the known ones', () => {
    expectInvalidAt(
      SCENARIO,
      withSteps('both', { step: 'payer.dance' }),
      'steps[0].step',
      'Unknown step kind. Known:',
    )
    expectInvalidAt(
      SCENARIO,
      withSteps('both', { step: 'clock.advance', seconds: 60 }, { seconds: 5 } as unknown as Step),
      'steps[1].step',
    )
  })

  it('refuses a known step that breaks its kind, with the detail at the kind', () => {
    const step = { step: 'clock.advance', seconds: 0 }
    expectInvalidAt(SCENARIO, withSteps('both', step), 'steps[0]', 'not valid for its kind')
    expectInvalidAt(kindSchema('clock.advance'), step, 'seconds')
    expectInvalidAt(kindSchema('clock.advance'), { ...step, seconds: '60' }, 'seconds')
    expectInvalidAt(
      kindSchema('clock.advance'),
      { ...step, seconds: 60, minutes: 1 },
      'minutes',
      'not expected',
    )
  })

  // docs/rules.md#endpoints: S2S requests are `action`-based ("POST {base_url}/post"); Checkout requests have paths.
  it('needs an action for S2S calls and a path for Checkout calls', () => {
    const s2s = { step: 'gateway.call', api: 's2s-card', body: { trans_id: 'x' } }
    expectInvalidAt(kindSchema('gateway.call'), s2s, 'action')
    expectValid(kindSchema('gateway.call'), { ...s2s, action: 'CREDITVOID' })
    const checkout = { step: 'gateway.call', api: 'checkout', body: {} }
    expectInvalidAt(kindSchema('gateway.call'), checkout, 'path')
    expectValid(kindSchema('gateway.call'), { ...checkout, path: '/api/v1/payment/refund' })
    expectInvalidAt(
      kindSchema('gateway.call'),
      { ...checkout, path: '/x', expect: { error: 'not-an-id' } },
      'expect.error',
    )
  })

  // docs/rules.md#test-cards: outcomes of the test card; 3DS pass or fail; APM approve, decline, pending, expire.
  it('every step kind has one branch with its own title', () => {
    const titles = scenarioSchema.$defs.Step.oneOf.map((b) => (b as { title?: string }).title)
    expect(titles.every((t) => t?.startsWith('Scenario') && t.endsWith('Step'))).toBe(true)
    expect(new Set(titles).size).toBe(titles.length)
  })

  it('checks the payer steps', () => {
    expectValid(kindSchema('payer.card'), { step: 'payer.card', outcome: '3ds_decline' })
    expectInvalidAt(kindSchema('payer.card'), { step: 'payer.card' }, '', 'Give either outcome or card')
    expectInvalidAt(kindSchema('payer.card'), { step: 'payer.card', outcome: 'maybe' }, 'outcome')
    expectInvalidAt(kindSchema('payer.3ds'), { step: 'payer.3ds', result: 'skip' }, 'result')
    expectInvalidAt(
      kindSchema('payer.apm'),
      { step: 'payer.apm', method: 'sepa', action: 'refund' },
      'action',
    )
  })

  it('checks capture names and JSONPaths', () => {
    const advance = { step: 'clock.advance', seconds: 1 }
    expectValid(kindSchema('clock.advance'), { ...advance, capture: { now: '$.now' } })
    expectInvalidAt(
      kindSchema('clock.advance'),
      { ...advance, capture: { now: 'now' } },
      'capture.now',
      'JSONPath',
    )
    expectInvalidAt(
      kindSchema('clock.advance'),
      { ...advance, capture: { '1st': '$.x' } },
      'capture',
      'not starting with a digit',
    )
  })
})

describe('modes', () => {
  const merchantOrder = { step: 'expect.merchant_order', order_number: 'O-1', fields: { '$.status': 'paid' } }
  const call = { step: 'gateway.call', api: 'checkout', path: '/api/v1/payment/status', body: {} }
  const forge = { step: 'callbacks.forge', tamper: 'hash' }

  it('refuses merchant-side steps in a gateway scenario', () => {
    expectInvalidAt(
      SCENARIO,
      withSteps('gateway', call, merchantOrder),
      'steps[1].step',
      'needs a merchant integration',
    )
    expectInvalidAt(SCENARIO, withSteps('gateway', forge), 'steps[0].step', 'needs a merchant integration')
  })

  it('refuses gateway calls in a merchant scenario', () => {
    expectInvalidAt(
      SCENARIO,
      withSteps('merchant', merchantOrder, call),
      'steps[1].step',
      'needs a gateway under test',
    )
  })

  it('allows both sides in a scenario for both modes', () => {
    const result = validate(SCENARIO, withSteps('both', call, merchantOrder, forge))
    expect(result.errors).toEqual([])
  })
})
