import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { listSchemaFiles, SCHEMAS_DIR } from '../../src/schema-files.js'

/**
 * The registry loads the schemas without checking them against the JSON Schema 2020-12
 * meta-schema at every start (start-up time, issue 15); this test does it once for all of them,
 * so a schema with a malformed keyword (`"minLength": "3"`, `"required": "x"`) still fails CI.
 */
describe('every schema under schemas/ is a valid JSON Schema 2020-12 document', () => {
  const ajv = new Ajv2020({ strict: false })
  const files = listSchemaFiles()

  it('finds the schemas', () => {
    expect(files.length).toBeGreaterThan(100)
  })

  it.each(files.map((f) => [relative(SCHEMAS_DIR, f), f] as const))('%s', (_, file) => {
    const schema = JSON.parse(readFileSync(file, 'utf8'))
    const valid = ajv.validateSchema(schema)
    expect(ajv.errors ?? [], `${file} against the 2020-12 meta-schema`).toEqual([])
    expect(valid).toBe(true)
  })

  it('would catch a malformed keyword', () => {
    expect(ajv.validateSchema({ type: 'string', minLength: '3' })).toBe(false)
  })
})
