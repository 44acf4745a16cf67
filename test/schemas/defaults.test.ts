import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import ajvFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { withSchemaDefaults } from '../../src/core/validation/defaults.js'
import { resolveSchemaId, SCHEMA_VOCABULARY } from '../../src/core/validation/schema-registry.js'
import { listSchemaFiles } from '../../src/schema-files.js'
import { PACKAGE_ROOT as ROOT } from '../../src/package-root.js'

/**
 * The config loader fills the config schema's defaults with its own walker instead of compiling
 * the schema a second time with ajv's `useDefaults` (start-up time, issue 15). ajv stays the
 * reference here: for every config below both must give the same object.
 */
function ajvDefaults(schema: string, data: unknown): unknown {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, useDefaults: true, validateSchema: false })
  ajvFormats.default(ajv)
  ajv.addVocabulary([...SCHEMA_VOCABULARY])
  for (const file of listSchemaFiles()) ajv.addSchema(JSON.parse(readFileSync(file, 'utf8')))
  const copy = structuredClone(data)
  const fn = ajv.getSchema(resolveSchemaId(schema))
  expect(fn?.(copy), JSON.stringify(fn?.errors)).toBe(true)
  return copy
}

const file = (name: string) => JSON.parse(readFileSync(join(ROOT, 'fixtures', 'config', name), 'utf8'))

const CONFIGS: [string, unknown][] = [
  ['the demo config', file('demo.json')],
  ['the multi-merchant fixture', file('multi-merchant.json')],
  [
    'a bare merchant (every nested default: clock, callbacks, limits, session, mids, protocol mapping)',
    {
      merchants: [
        {
          key: 'm1',
          password: 'password-1',
          mids: [{ id: 'mid-1' }],
        },
      ],
    },
  ],
]

describe('config defaults (sandbox/config.schema.json) filled as ajv useDefaults fills them', () => {
  it.each(CONFIGS)('%s', (_, config) => {
    const expected = ajvDefaults('sandbox/config.schema.json', config)
    const actual = withSchemaDefaults('sandbox/config.schema.json', config)
    expect(actual).toEqual(expected)
    // Something was filled in, and the input was not changed.
    expect(actual).not.toEqual(config)
  })

  it('keeps what the config sets over the default', () => {
    const config = {
      clock: { mode: 'virtual' },
      merchants: [{ key: 'm1', password: 'password-1', mids: [{ id: 'mid-1' }] }],
    }
    const filled = withSchemaDefaults('sandbox/config.schema.json', config) as { clock: { mode: string } }
    expect(filled.clock.mode).toBe('virtual')
  })
})
