import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  createSchemaRegistry,
  formatFieldError,
  formatPath,
  type SchemaRegistry,
  validate,
} from '../../src/core/validation/index.js'
import { fileSchemaSource, SCHEMAS_DIR } from '../../src/schema-files.js'
import { scratchDir } from '../helpers/scratch.js'

const probe = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://paysandbox.dev/schemas/probe/order.schema.json',
  title: 'Probe',
  'x-section': '2.1',
  type: 'object',
  required: ['order'],
  properties: {
    payer_ip: { $ref: '../common.schema.json#/$defs/Ip' },
    size: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      'x-messages': { maximum: 'size should be within 1..100' },
    },
    mpi_data: {
      type: 'object',
      'x-section': '2.4',
      properties: { eci: { type: 'string', minLength: 2, maxLength: 2 } },
    },
    items: {
      type: 'array',
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    },
    order: {
      type: 'object',
      'x-section': '2.1.1',
      required: ['number'],
      properties: {
        number: { type: 'string' },
        amount: { $ref: '../common.schema.json#/$defs/Amount' },
        currency: { $ref: '../common.schema.json#/$defs/CurrencyCode' },
      },
      allOf: [{ $ref: '../common.schema.json#/$defs/AmountMatchesCurrency' }],
    },
  },
}

let registry: SchemaRegistry
beforeAll(() => {
  const dir = scratchDir('schemas-')
  mkdirSync(join(dir, 'probe'))
  copyFileSync(join(SCHEMAS_DIR, 'common.schema.json'), join(dir, 'common.schema.json'))
  writeFileSync(join(dir, 'probe', 'order.schema.json'), JSON.stringify(probe))
  registry = createSchemaRegistry(fileSchemaSource(dir))
})

const check = (data: unknown, pathStyle: 'dot' | 'bracket' = 'dot') =>
  validate('probe/order', data, { registry, pathStyle }).errors.map(
    (e) => `${formatFieldError(e)} [${e.section}]`,
  )

describe('validation module', () => {
  it('reports a missing field at its own path with the section of its parent object', () => {
    expect(check({ order: {} })).toEqual(['order.number: This value should not be blank. [2.1.1]'])
  })

  it('checks amount decimals against the currency (ISO 4217 minor units)', () => {
    expect(check({ order: { number: '1', amount: '10.00', currency: 'USD' } })).toEqual([])
    expect(check({ order: { number: '1', amount: '100', currency: 'JPY' } })).toEqual([])
    expect(check({ order: { number: '1', amount: '1.000', currency: 'KWD' } })).toEqual([])
    expect(check({ order: { number: '1', amount: '10.001', currency: 'USD' } })[0]).toMatch(
      /^order\.amount: This value is not valid\. This currency has 2 decimals/,
    )
    expect(check({ order: { number: '1', amount: '10.5', currency: 'VND' } })[0]).toMatch(/has no decimals/)
    expect(check({ order: { number: '1', amount: '10,00', currency: 'EUR' } })[0]).toMatch(
      /^order\.amount: This value is not valid\. Use digits and a dot separator/,
    )
  })

  it('refuses unknown ISO codes', () => {
    expect(check({ order: { number: '1', currency: 'XYZ' } })).toEqual([
      'order.currency: This value is not a valid currency. [2.1.1]',
    ])
  })

  it('reports one message for a failed anyOf instead of one per branch', () => {
    expect(check({ order: { number: '1' }, payer_ip: 'not-an-ip' })).toEqual([
      'payer_ip: This is not a valid IP address. [2.1]',
    ])
    expect(check({ order: { number: '1' }, payer_ip: '2001:db8::1' })).toEqual([])
  })

  it('uses x-messages overrides and Symfony-style defaults', () => {
    expect(check({ order: { number: '1' }, size: 101 })).toEqual(['size: size should be within 1..100 [2.1]'])
    expect(check({ order: { number: '1' }, size: 0 })).toEqual([
      'size: This value should be greater than or equal to 1. [2.1]',
    ])
    expect(check({ order: { number: '1' }, mpi_data: { eci: '123' } })).toEqual([
      'mpi_data.eci: This value is too long. It should have 2 characters or less. [2.4]',
    ])
  })

  it('writes S2S paths in bracket notation and array indexes in both styles', () => {
    expect(check({ order: { number: '1' }, mpi_data: { eci: '1' } }, 'bracket')).toEqual([
      'mpi_data[eci]: This value is too short. It should have 2 characters or more. [2.4]',
    ])
    expect(check({ order: { number: '1' }, items: [{ name: 'a' }, {}] })).toEqual([
      'items[1].name: This value should not be blank. [2.1]',
    ])
    expect(formatPath(['cart', 'items', '0', 'name'], 'bracket')).toBe('cart[items][0][name]')
  })

  it('refuses a schema file whose $id does not match its path', () => {
    const dir = scratchDir('schemas-bad-')
    writeFileSync(
      join(dir, 'x.schema.json'),
      JSON.stringify({ $id: 'https://paysandbox.dev/schemas/y.schema.json' }),
    )
    expect(() => createSchemaRegistry(fileSchemaSource(dir))).toThrow(/x\.schema\.json: \$id must be/)
  })

  it('names the known schemas when asked for an unknown one', () => {
    expect(() => registry.validator('probe/nope')).toThrow(/Unknown schema probe\/nope/)
  })
})
