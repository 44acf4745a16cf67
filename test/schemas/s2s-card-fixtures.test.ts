import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { schemaRegistry } from '../../src/core/validation/index.js'
import { expectValid } from '../helpers/schema.js'

const FIXTURES = new URL('../../fixtures/payloads/s2s-card/', import.meta.url)
const SCHEMAS = new URL('../../schemas/s2s-card/', import.meta.url)
const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'))
const schemaFiles = readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json') && !f.startsWith('_'))
const requests = schemaFiles.filter((f) => f.endsWith('-request.schema.json'))
const baseOf = (file: string) => file.slice(0, file.indexOf('.'))

interface Endpoint {
  method: string
  path: string
  contentType: string
  action: string
  response: string
  responseV2?: string
  summary: string
}
const registry = schemaRegistry()
const endpointOf = (file: string) => registry.schema(`s2s-card/${file}`)?.['x-endpoint'] as Endpoint

describe('S2S CARD example payloads', () => {
  // docs/schemas.md: S2S bodies are forms: every value is a string, nested values are objects.
  it.each(fixtures)('%s is valid against its schema', (file) => {
    const data: unknown = JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8'))
    expectValid(`s2s-card/${baseOf(file)}`, data, 'bracket')
  })
  it.each(schemaFiles)('%s has at least one example payload', (file) => {
    expect(fixtures.map(baseOf)).toContain(file.replace('.schema.json', ''))
  })
  // docs/schemas.md: "S2S bodies are forms: **every value is a string**".
  it.each(fixtures.filter((f) => f.includes('-request.')))('%s carries only string values', (file) => {
    const strings = (v: unknown): boolean =>
      typeof v === 'string' || (typeof v === 'object' && v !== null && Object.values(v).every(strings))
    expect(strings(JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')))).toBe(true)
  })
})

describe('S2S CARD request schemas declare their endpoint', () => {
  // Endpoints: "S2S CARD actions: SALE (with `auth=Y` for authorization-only), AUTH, DEBIT, CARD2CARD, CAPTURE, VOID,
  // CREDITVOID, RECURRING_SALE, RECURRING_DEBIT, GET_TRANS_STATUS (by `trans_id`), GET_TRANS_STATUS_BY_ORDER (by
  // `order_id`), and the schedule actions of 2.3." 2.3: "CREATE_SCHEDULE, UPDATE_SCHEDULE ..., DELETE_SCHEDULE, PAUSE,
  // RUN, SCHEDULE_INFO, DESCHEDULE".
  it('has one request schema per action of the interface', () => {
    const actions = requests.map((f) => endpointOf(f).action).sort()
    expect(actions).toEqual(
      [
        'SALE',
        'AUTH',
        'DEBIT',
        'CARD2CARD',
        'CREDIT2CARD',
        'GET_TRANS_DETAILS',
        'RETRY',
        'CAPTURE',
        'VOID',
        'CREDITVOID',
        'RECURRING_SALE',
        'RECURRING_DEBIT',
        'GET_TRANS_STATUS',
        'GET_TRANS_STATUS_BY_ORDER',
        'CREATE_SCHEDULE',
        'UPDATE_SCHEDULE',
        'DELETE_SCHEDULE',
        'PAUSE',
        'RUN',
        'SCHEDULE_INFO',
        'DESCHEDULE',
      ].sort(),
    )
  })
  // docs/rules.md#endpoints: "S2S CARD: `POST {base_url}/post`, form-urlencoded".
  it.each(requests)('%s posts a form to /post with its action as a const', (file) => {
    const endpoint = endpointOf(file)
    expect(endpoint.method).toBe('POST')
    expect(endpoint.path).toBe('/post')
    expect(endpoint.contentType).toBe('application/x-www-form-urlencoded')
    expect(endpoint.summary.length).toBeGreaterThan(0)
    expect(file).toBe(`${endpoint.action.toLowerCase().replaceAll('_', '-')}-request.schema.json`)
    const properties = (registry.schema(`s2s-card/${file}`)?.properties ?? {}) as Record<string, unknown>
    // PAUSE and RUN also take the platform's PAUSE_SCHEDULE / RUN_SCHEDULE (docs/rules.md#beyond-the-interface): an enum, the interface's name first.
    const action = properties.action as { const?: string; enum?: string[] } | undefined
    expect(action?.const ?? action?.enum?.[0]).toBe(endpoint.action)
    expect(registry.schema(endpoint.response), endpoint.response).toBeDefined()
  })
  // docs/rules.md#responses: "`POST {base_url}/v2/post` answers `redirect_params` as an array of `{name, value}`".
  it.each(['sale', 'auth', 'debit', 'card2card'])('%s declares its /v2/post response variant', (name) => {
    const endpoint = endpointOf(`${name}-request.schema.json`)
    expect(endpoint.responseV2).toBe(`s2s-card/${name}-response-v2.schema.json`)
    expect(registry.schema(endpoint.responseV2 as string)).toBeDefined()
  })
  // docs/schemas.md: `x-endpoint` "drives the OpenAPI document": every answer must be reachable from a request.
  it('every response schema is the /post or /v2/post answer of some request', () => {
    const answered = requests.flatMap((f) => [endpointOf(f).response, endpointOf(f).responseV2])
    for (const file of schemaFiles.filter((f) => f.includes('-response'))) {
      expect(answered).toContain(`s2s-card/${file}`)
    }
  })
  // docs/schemas.md: "Every file has a unique PascalCase `title`".
  it('every S2S CARD title carries the S2sCard prefix', () => {
    for (const file of readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json'))) {
      const text = readFileSync(new URL(file, SCHEMAS), 'utf8')
      for (const [, title] of text.matchAll(/"title": "([^"]+)"/g)) expect(title).toMatch(/^S2sCard/)
    }
  })
})
