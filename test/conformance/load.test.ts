import { interfaceExcerpt } from '../helpers/interface-excerpts.js'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  BUNDLED_SCENARIOS,
  loadScenarioFile,
  loadScenarios,
  ScenarioLoadError,
} from '../../src/conformance/load.js'
import { scenarioDir, ref } from './helpers.js'

const base = { title: 'T', section: 'Events', mode: 'gateway' }
const problemsOf = (content: unknown): string[] => {
  const dir = scenarioDir({ 'broken.json': content })
  try {
    loadScenarioFile(join(dir, 'broken.json'))
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioLoadError)
    expect((error as Error).message).toContain('broken.json')
    return (error as ScenarioLoadError).problems
  }
  throw new Error('expected a load error')
}

// Issue 7: "Scenario files in scenarios/, validated by the scenario schema ... friendly errors naming file and step"
describe('loading a scenario file', () => {
  it('reads a valid file and names it by its file name', () => {
    const dir = scenarioDir({ 'my-check.json': { ...base, steps: [{ step: 'clock.advance', seconds: 5 }] } })
    const loaded = loadScenarioFile(join(dir, 'my-check.json'))
    expect(loaded.slug).toBe('my-check')
    expect(loaded.scenario.steps).toHaveLength(1)
  })

  it('reports unreadable JSON', () => {
    expect(problemsOf('{"title": ')[0]).toMatch(/cannot be read as JSON/)
  })

  it("names the step and its kind's own rule when a step is wrong", () => {
    const problems = problemsOf({
      ...base,
      steps: [
        { step: 'clock.advance', seconds: 5 },
        { step: 'clock.advance', seconds: 0, name: 'tick' },
      ],
    })
    expect(problems).toEqual([expect.stringMatching(/^step 2 \(clock\.advance "tick"\): seconds: /)])
  })

  it('names an unknown step kind with the known ones', () => {
    expect(problemsOf({ ...base, steps: [{ step: 'payer.dance' }] })[0]).toMatch(
      /^step 1 \(payer\.dance\): .*Known: merchant\.start/,
    )
  })

  it('refuses a variable used before any step captures it, and accepts automatic captures', () => {
    const problems = problemsOf({
      ...base,
      steps: [
        {
          step: 'gateway.call',
          api: 'checkout',
          path: '/api/v1/payment/status',
          body: { payment_id: ref('pid') },
        },
      ],
    })
    expect(problems[0]).toMatch(/step 1 \(gateway\.call\): \$\{pid\} is used before any step captures it/)
    const dir = scenarioDir({
      'ok.json': {
        ...base,
        steps: [
          { step: 'merchant.start', api: 'checkout', order: { amount: '1.00', currency: 'EUR' } },
          { step: 'payer.card', outcome: 'success' },
          {
            step: 'gateway.call',
            api: 'checkout',
            path: '/api/v1/payment/status',
            body: { payment_id: ref('payment_id'), order: ref('order_number') },
          },
        ],
      },
    })
    expect(loadScenarioFile(join(dir, 'ok.json')).slug).toBe('ok')
  })

  it('refuses an error id that is not in the catalogue and a schema that does not exist', () => {
    const problems = problemsOf({
      ...base,
      steps: [
        { step: 'gateway.call', api: 'checkout', path: '/x', expect: { error: 'NO_SUCH_ROW' } },
        { step: 'gateway.call', api: 'checkout', path: '/x', expect: { schema: 'checkout/nothing-here' } },
      ],
    })
    expect(problems).toEqual([
      expect.stringMatching(/step 1 .*"NO_SUCH_ROW" is not a row of schemas\/catalogue\/errors\.json/),
      expect.stringMatching(/step 2 .*"checkout\/nothing-here" is not a schema/),
    ])
  })

  it('collects every broken file and refuses two scenarios with one name', () => {
    const dir = scenarioDir({
      'a.json': '{',
      'b.json': { ...base },
      'c.json': { ...base, steps: [{ step: 'payer.abandon' }] },
    })
    const { scenarios, errors } = loadScenarios([dir])
    expect(scenarios.map((s) => s.slug)).toEqual(['c'])
    expect(errors.map((e) => e.file)).toEqual([
      expect.stringMatching(/a\.json$/),
      expect.stringMatching(/b\.json$/),
    ])
    expect(loadScenarios([dir, join(dir, 'c.json')]).errors.at(-1)?.problems[0]).toMatch(/same name/)
  })
})

describe('the bundled scenarios', () => {
  // Every check, as for a merchant's own files: the kit loads these unchecked at run time.
  const { scenarios, errors } = loadScenarios([BUNDLED_SCENARIOS], { checked: true })
  const gatewayFacing = scenarios.filter((s) => s.scenario.mode !== 'merchant')

  it('all load, and there are at least 60 (at least 40 gateway-facing)', () => {
    expect(errors.map((e) => e.message)).toEqual([])
    expect(scenarios.length).toBeGreaterThanOrEqual(60)
    expect(gatewayFacing.length).toBeGreaterThanOrEqual(40)
  })

  it('load the same unchecked at run time; a file elsewhere is always checked', () => {
    const unchecked = loadScenarios()
    expect(unchecked.errors).toEqual([])
    expect(unchecked.scenarios).toEqual(scenarios)
    // The same broken file outside the bundled directory is refused, even when asked unchecked.
    const dir = scenarioDir({ 'b.json': { ...base } })
    expect(loadScenarios([dir], { checked: false }).errors.map((e) => e.file)).toEqual([
      expect.stringMatching(/b\.json$/),
    ])
  })

  it('each has a title, a section, tags and a description: they read as documentation', () => {
    for (const { slug, scenario } of scenarios) {
      expect(scenario.title.length, slug).toBeGreaterThan(10)
      expect(scenario.tags?.length, slug).toBeGreaterThan(0)
      expect(scenario.description?.length ?? 0, slug).toBeGreaterThan(10)
    }
  })

  // Issue 7: "each error row of the interface's Errors table (one scenario per row, quoting it)".
  it('quote every row of the interface Errors table, one scenario per row', () => {
    // The interface's Errors section, as the repository keeps it (docs/interface-data.md).
    const spec = interfaceExcerpt('errors')
    const table = spec.slice(
      spec.indexOf('| Condition | HTTP | Code | Message |'),
      spec.indexOf('Rules: the not-found code'),
    )
    const rows = table
      .split('\n')
      .slice(2)
      .filter((l) => l.startsWith('|'))
      .map((l) => l.split('|')[1]?.trim() as string)
    expect(rows).toHaveLength(14)
    for (const condition of rows) {
      const quoting = scenarios.filter(
        (s) => s.scenario.section === 'Errors' && String(s.scenario.quote ?? '').startsWith(condition),
      )
      expect(
        quoting.map((s) => s.slug),
        condition,
      ).toHaveLength(1)
    }
  })

  it('cover every part of the interface named by issue 7', () => {
    const tags = new Set(gatewayFacing.flatMap((s) => s.scenario.tags ?? []))
    for (const tag of [
      'dms',
      'refund',
      'reversal',
      'recurring',
      'schedules',
      'moto',
      'mpi-data',
      'errors',
      'callback',
      'redirect',
      'status',
      'size',
      'session-update',
      'hosted-fields',
      'method-groups',
      'credit',
      'void',
      'capture',
      's2s-apm',
      's2s-card',
      'checkout',
    ])
      expect(tags.has(tag), tag).toBe(true)
  })
})
