/**
 * Fixtures of method parameter objects (fixtures/payloads/methods/<identifier>.<case>.json): each is
 * accepted by schemas/methods/<identifier>.schema.json, every method schema has at least one, and
 * dropping any parameter the schema does not require keeps a fixture valid (2.2: only Required and
 * Mandatory parameters are required; Conditional ones are the acquirer's business).
 * Card sets 1 and 2 are required as a group when one of their keys is sent.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { validate } from '../../src/core/validation/index.js'
import { SCHEMAS_DIR } from '../../src/schema-files.js'
import { expectValid } from '../helpers/schema.js'

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/payloads/methods')
const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'))
const schemaFor = (file: string) => `methods/${file.slice(0, file.indexOf('.'))}.schema.json`
const load = (file: string) =>
  JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Record<string, unknown>

describe('method parameter fixtures', () => {
  it('are named <identifier>.<case>.json after an existing method schema', () => {
    expect(files.length).toBeGreaterThan(100)
    const schemas = new Set(readdirSync(join(SCHEMAS_DIR, 'methods')).map((f) => `methods/${f}`))
    for (const f of files) {
      expect(f, 'name pattern').toMatch(/^[A-Za-z0-9_-]+\.[a-z0-9-]+\.json$/)
      expect(schemas.has(schemaFor(f)), `${f}: ${schemaFor(f)} exists`).toBe(true)
    }
  })

  it('cover every method schema (family-common files excepted)', () => {
    const covered = new Set(files.map(schemaFor))
    const own = readdirSync(join(SCHEMAS_DIR, 'methods')).filter(
      (f) => f.endsWith('.schema.json') && !f.startsWith('_'),
    )
    expect(own.filter((f) => !covered.has(`methods/${f}`))).toEqual([])
  })

  for (const file of files) {
    it(`${file} is accepted by ${schemaFor(file)}`, () => {
      expectValid(schemaFor(file), load(file))
    })
  }

  it('stay valid when any parameter the schema does not require is dropped', () => {
    for (const file of files) {
      const data = load(file)
      const required = new Set(
        validate(schemaFor(file), {})
          .errors.filter((e) => e.keyword === 'required')
          .map((e) => e.path),
      )
      for (const key of Object.keys(data).filter((k) => !required.has(k))) {
        const copy = { ...data }
        delete copy[key]
        // Card sets 1 and 2 are "all required" as a group: dropping one key of a group is refused by
        // dependentRequired (tested in methods-card.test.ts); any other error is a failure here.
        const errors = validate(schemaFor(file), copy).errors.filter((e) => e.keyword !== 'dependentRequired')
        expect(
          errors.map((e) => `${e.path}: ${e.message}`),
          `${file} without ${key}`,
        ).toEqual([])
      }
    }
  })
})
