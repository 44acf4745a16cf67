import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { schemaRegistry, validate } from '../../src/core/validation/index.js'
import { expectInvalidAt, expectValid, withField } from '../helpers/schema.js'

type Form = Record<string, unknown>
const FIXTURES = new URL('../../fixtures/payloads/s2s-apm/', import.meta.url)
const SCHEMAS = new URL('../../schemas/s2s-apm/', import.meta.url)
const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'))
const schemaFiles = readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json') && !f.startsWith('_'))
const baseOf = (file: string) => file.slice(0, file.indexOf('.'))
const fixture = (name: string): Form => JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8'))
const valid = (schema: string, data: unknown) => expectValid(schema, data, 'bracket')
const refusedOnlyAt = (schema: string, data: unknown, path: string, message?: string) => {
  const error = expectInvalidAt(schema, data, path, message, 'bracket')
  expect(validate(schema, data, { pathStyle: 'bracket' }).errors.map((e) => e.path)).toEqual([path])
  return error
}

interface Endpoint {
  method: string
  path: string
  contentType: string
  action: string
  response: string
  summary: string
}

describe('S2S APM example payloads and endpoints', () => {
  // docs/schemas.md: S2S bodies are forms; every schema has valid examples in fixtures/payloads/s2s-apm/.
  it.each(fixtures)('%s is valid against its schema', (file) => {
    valid(`s2s-apm/${baseOf(file)}`, JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')))
  })
  it.each(schemaFiles)('%s has at least one example payload', (file) => {
    expect(fixtures.map(baseOf)).toContain(file.replace('.schema.json', ''))
  })
  // Endpoints: "S2S APM actions: SALE, DEBIT2VIRTUAL, DEBIT2VIRTUAL_CALC, CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS."
  // docs/rules.md#endpoints: "S2S APM: `POST {base_url}/post-va`, form-urlencoded."
  it('has one request schema per action, each a form posted to /post-va', () => {
    const registry = schemaRegistry()
    const requests = schemaFiles.filter((f) => f.endsWith('-request.schema.json'))
    const endpoints = requests.map((f) => registry.schema(`s2s-apm/${f}`)?.['x-endpoint'] as Endpoint)
    expect(endpoints.map((e) => e.action).sort()).toEqual(
      [
        'SALE',
        'DEBIT2VIRTUAL',
        'DEBIT2VIRTUAL_CALC',
        'DEBIT2VIRTUAL_COMPLETE',
        'CREDIT2VIRTUAL',
        'CREDIT2CRYPTO',
        'CAPTURE',
        'VOID',
        'CREDITVOID',
        'GET_TRANS_STATUS',
      ].sort(),
    )
    for (const e of endpoints) {
      expect(e).toMatchObject({
        method: 'POST',
        path: '/post-va',
        contentType: 'application/x-www-form-urlencoded',
      })
      expect(registry.schema(e.response), e.response).toBeDefined()
    }
  })
  // docs/schemas.md: "Every file has a unique PascalCase `title`".
  it('every S2S APM title carries the S2sApm prefix', () => {
    for (const file of readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json'))) {
      const text = readFileSync(new URL(file, SCHEMAS), 'utf8')
      for (const [, title] of text.matchAll(/"title": "([^"]+)"/g)) expect(title).toMatch(/^S2sApm/)
    }
  })
})

describe('S2S APM SALE', () => {
  const SALE = 's2s-apm/sale-request'
  const sale = fixture('sale-request.basic')
  // Endpoints: "S2S APM SALE takes `auth` (`Y` or `N`, default `N`); only the exact value `Y` holds funds, any other
  // value is an immediate sale."
  it.each(['Y', 'N', 'y', 'yes', 'true', '', '1'])('accepts auth %j', (auth) => {
    valid(SALE, withField(sale, 'auth', auth))
  })
  it('accepts a SALE without auth (default N)', () => {
    expect(sale.auth).toBeUndefined()
    valid(SALE, sale)
  })
  // docs/schemas.md: "S2S bodies are forms: **every value is a string**" — any string, but a string.
  it('still refuses a non-string auth (form values are strings)', () => {
    refusedOnlyAt(SALE, withField(sale, 'auth', { value: 'Y' }), 'auth')
  })
  // docs/rules.md#s2s-card-formulas: SALE signature "md5(upper(rev(identifier + order_id + order_amount + order_currency + password)))";
  // docs/rules.md#apm-test-brand: "S2S APM test brand `vcard`: identifier or e-mail `success@gmail.com` succeeds".
  // payer_ip: the platform's S2S APM convention (schema description); the other payer_* fields are optional.
  it.each([
    'brand',
    'identifier',
    'order_id',
    'order_amount',
    'order_currency',
    'order_description',
    'payer_ip',
    'return_url',
    'hash',
  ])('requires %s', (field) => {
    refusedOnlyAt(SALE, withField(sale, field, undefined), field, 'should not be blank')
  })
  // 2.1.3: "`payer_language` (... S2S APM: SALE, DEBIT2VIRTUAL, DEBIT2VIRTUAL_CALC)".
  it('accepts the optional payer fields, payer_language and the method parameters', () => {
    valid(SALE, fixture('sale-request.auth-y'))
    for (const name of [
      'sale-request.basic',
      'debit2virtual-request.basic',
      'debit2virtual-calc-request.basic',
    ]) {
      const schema = `s2s-apm/${baseOf(`${name}.json`)}`
      valid(schema, withField(fixture(name), 'payer_language', 'pt'))
    }
  })
  // 2.1.1: "amount | string (decimal, dot separator)"; "currency | ISO 4217 alphabetic code".
  it('checks the amount decimals against the currency and the URL form', () => {
    refusedOnlyAt(SALE, withField(sale, 'order_amount', '15.001'), 'order_amount', '2 decimals')
    refusedOnlyAt(SALE, withField(sale, 'return_url', 'merchant.example.com'), 'return_url')
  })
})

describe('S2S APM DEBIT2VIRTUAL_CALC and follow-up actions', () => {
  // Endpoints: DEBIT2VIRTUAL_CALC is an S2S APM action (answer with `commission` and `total_amount`).
  it('DEBIT2VIRTUAL_CALC answers commission and total_amount', () => {
    const calc = fixture('debit2virtual-calc-response.success')
    for (const field of ['commission', 'total_amount']) {
      refusedOnlyAt('s2s-apm/debit2virtual-calc-response', withField(calc, field, undefined), field)
      refusedOnlyAt('s2s-apm/debit2virtual-calc-response', withField(calc, field, '0,45'), field)
    }
  })
  // Authentication 3: "S2S APM CAPTURE, VOID and GET_TRANS_STATUS are signed with: md5 of ... `trans_id` and the
  // merchant password"; States: "PENDING | CAPTURE (S2S CARD or S2S APM ...) with the authorization `trans_id`".
  it.each(['capture', 'void', 'get-trans-status'])('%s needs trans_id and hash', (name) => {
    const body = fixture(`${name}-request.basic`)
    refusedOnlyAt(`s2s-apm/${name}-request`, withField(body, 'trans_id', undefined), 'trans_id')
    refusedOnlyAt(`s2s-apm/${name}-request`, withField(body, 'hash', ''), 'hash')
  })
  // Endpoints: "With `auth=Y`: SALE holds, CAPTURE ... settles, CREDITVOID releases." docs/rules.md#signatures: CREDITVOID
  // signature md5(upper(rev(trans_id + password))) — the amount is not signed and is optional.
  it('CREDITVOID accepts no amount (full) and a partial amount', () => {
    const partial = fixture('creditvoid-request.partial')
    valid('s2s-apm/creditvoid-request', partial)
    valid('s2s-apm/creditvoid-request', withField(partial, 'amount', undefined))
    refusedOnlyAt('s2s-apm/creditvoid-request', withField(partial, 'amount', '5,00'), 'amount')
  })
  // Events: CREDITVOID (S2S CARD and S2S APM) "always carry `creditvoid_id`"; docs/rules.md#responses: "ACCEPTED (CREDITVOID)".
  it('an ACCEPTED CREDITVOID answer carries creditvoid_id', () => {
    const accepted = fixture('creditvoid-response.accepted')
    refusedOnlyAt(
      's2s-apm/creditvoid-response',
      withField(accepted, 'creditvoid_id', undefined),
      'creditvoid_id',
    )
  })
  // docs/rules.md#responses: S2S statuses are uppercase; REDIRECT needs redirect_url, redirect_params, redirect_method.
  it('the SALE answer checks status, redirect and date forms', () => {
    const redirect = fixture('sale-response.redirect')
    refusedOnlyAt('s2s-apm/sale-response', withField(redirect, 'redirect_url', undefined), 'redirect_url')
    refusedOnlyAt('s2s-apm/sale-response', withField(redirect, 'status', 'redirect'), 'status')
    refusedOnlyAt('s2s-apm/sale-response', withField(redirect, 'trans_date', '2026-03-01'), 'trans_date')
  })
})
