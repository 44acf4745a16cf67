import { describe, expect, it } from 'vitest'
import { createSchemaRegistry } from '../../src/core/validation/schema-registry.js'
import { fileSchemaSource } from '../../src/schema-files.js'

/**
 * A registry compiles a validator with only the schemas its `$ref`s reach (issue 15: `validate`
 * compiles one schema, not all 190). Each schema below is compiled in a registry of its own, so
 * one that reached a file through a `$ref` the closure missed would fail to compile here rather
 * than pass because an earlier compile had added that file.
 */
const ENTRY_POINTS = [
  'checkout/session-request',
  'checkout/status-response',
  's2s-card/sale-request',
  's2s-card/sale-response',
  's2s-apm/sale-request',
  's2s-apm/debit2virtual-request',
  'callbacks/checkout-callback',
  'sandbox/config',
  'sandbox/scenario',
]

describe('a validator compiled with only the schemas its $refs reach', () => {
  const files = fileSchemaSource().files()
  it.each(ENTRY_POINTS)('%s compiles in a fresh registry and rejects a wrong type', (schema) => {
    const registry = createSchemaRegistry({ files: () => files })
    const validate = registry.validator(schema)
    expect(validate(42)).toBe(false)
  })

  it('the entry points exist, and one reaches across files', () => {
    const registry = createSchemaRegistry({ files: () => files })
    for (const schema of ENTRY_POINTS) expect(registry.schema(schema), schema).toBeDefined()
    expect(JSON.stringify(registry.schema('checkout/session-request'))).toMatch(/"\$ref":"\.\.?\//)
  })
})
