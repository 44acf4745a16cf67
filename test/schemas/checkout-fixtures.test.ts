import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { schemaRegistry } from '../../src/core/validation/index.js'
import { expectValid } from '../helpers/schema.js'

const FIXTURES = new URL('../../fixtures/payloads/checkout/', import.meta.url)
const SCHEMAS = new URL('../../schemas/checkout/', import.meta.url)
const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'))
const schemaFiles = readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json') && !f.startsWith('_'))
const baseOf = (file: string) => file.slice(0, file.indexOf('.'))

interface Endpoint {
  method: string
  path: string
  contentType: string
  response: string
  summary: string
  headers?: string[]
}

describe('checkout example payloads', () => {
  // docs/schemas.md: every request and response schema has valid examples in fixtures/payloads/checkout/.
  it.each(fixtures)('%s is valid against its schema', (file) => {
    const data: unknown = JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8'))
    expectValid(`checkout/${baseOf(file)}`, data)
  })
  // Preamble: one or more example payloads per request/response schema, named <schema-base-name>.<case>.json.
  it.each(schemaFiles)('%s has at least one example payload', (file) => {
    expect(fixtures.map(baseOf)).toContain(file.replace('.schema.json', ''))
  })
})

describe('checkout request schemas declare their endpoint', () => {
  const registry = schemaRegistry()
  const endpointOf = (file: string): Endpoint => {
    const endpoint = registry.schema(`checkout/${file}`)?.['x-endpoint']
    if (!endpoint) throw new Error(`${file} has no x-endpoint`)
    return endpoint as Endpoint
  }
  const requests = schemaFiles.filter((f) => f.endsWith('-request.schema.json'))
  // Endpoints: "All Checkout bodies are JSON (`Content-Type: application/json`)."
  it.each(requests)('%s has x-endpoint with a JSON body and an existing response schema', (file) => {
    const endpoint = endpointOf(file)
    expect(endpoint.contentType).toBe('application/json')
    expect(endpoint.path).toMatch(/^\/api\/v1\//)
    expect(endpoint.summary.length).toBeGreaterThan(0)
    expect(registry.schema(endpoint.response), endpoint.response).toBeDefined()
  })
  // Authentication 2: "`PUT /api/v1/session/update` authenticates with the header `Token`"; the Hosted Payment
  // Fields payments carry it too (docs/rules.md#beyond-the-interface).
  it.each(['session-update', 'hpf-purchase-card', 'hpf-debit-card'])(
    '%s declares the Token header',
    (name) => {
      const endpoint = endpointOf(`${name}-request.schema.json`)
      expect(endpoint.headers).toEqual(['Token'])
    },
  )
  // docs/schemas.md x-endpoint: "{method, path, contentType, action?, response, summary}".
  it('every response schema is the answer of some request', () => {
    const answered = requests.map((f) => endpointOf(f).response)
    for (const file of schemaFiles.filter((f) => f.endsWith('-response.schema.json'))) {
      expect(answered).toContain(`checkout/${file}`)
    }
  })
  // docs/schemas.md: "Every file has a unique PascalCase `title`" (prefixed with the area).
  it('every checkout title carries the Checkout prefix', () => {
    for (const file of readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json'))) {
      const text = readFileSync(new URL(file, SCHEMAS), 'utf8')
      for (const [, title] of text.matchAll(/"title": "([^"]+)"/g)) expect(title).toMatch(/^Checkout/)
    }
  })
})
