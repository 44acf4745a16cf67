import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { formatFieldError, validate } from '../../src/core/validation/index.js'
import { chars, expectInvalidAt, expectValid, withField } from '../helpers/schema.js'

const SESSION = 'checkout/session-request'
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../fixtures/payloads/checkout/${name}.json`, import.meta.url), 'utf8'))
const minimal = fixture('session-request.minimal')
const full = fixture('session-request.full')
const order = (amount: string, currency: string) =>
  withField(minimal, 'order', { ...(minimal.order as object), amount, currency })

describe('checkout session request: required fields (2.1)', () => {
  // 2.1: "Which top-level fields are mandatory: not shown" -> the platform's mandatory set (schema description).
  it.each(['merchant_key', 'operation', 'order', 'success_url', 'hash'])(
    'refuses a request without %s',
    (field) => {
      expectInvalidAt(SESSION, withField(minimal, field, undefined), field, 'This value should not be blank.')
    },
  )
  // 2.1.1: number, amount, currency, description (all four enter the session signature, docs/rules.md#signatures).
  it.each(['number', 'amount', 'currency', 'description'])('refuses an order without %s', (field) => {
    expectInvalidAt(SESSION, withField(minimal, `order.${field}`, undefined), `order.${field}`)
  })
  // 2.1.1 number: "Merchant order identifier (`order_id` in later operations)."
  it('refuses a blank order.number', () => {
    expectInvalidAt(
      SESSION,
      withField(minimal, 'order.number', ''),
      'order.number',
      'This value should not be blank.',
    )
  })
  // docs/schemas.md: "Requests allow properties the interface does not list (the gateway ignores them)".
  it('accepts fields the interface does not list', () => {
    expectValid(SESSION, withField(minimal, 'shop_theme', 'dark'))
  })
  // 2.1 operation: "`purchase`, `debit` or `credit`."
  it('refuses an unknown operation', () => {
    expectInvalidAt(SESSION, withField(minimal, 'operation', 'sale'), 'operation')
  })
})

describe('checkout session request: order amount and currency (2.1.1)', () => {
  // 2.1.1 currency: "ISO 4217 alphabetic code."
  it.each(['usd', 'XYZ', 'US'])('refuses currency %s', (currency) => {
    expectInvalidAt(
      SESSION,
      order('10.00', currency),
      'order.currency',
      'This value is not a valid currency.',
    )
  })
  // 2.1.1 amount: "string (decimal, dot separator)".
  it('refuses a comma as decimal separator', () => {
    expectInvalidAt(SESSION, order('10,00', 'USD'), 'order.amount')
  })
  // 2.1.1 amount: "string (decimal, dot separator)".
  it('refuses an amount sent as a number', () => {
    expectInvalidAt(SESSION, withField(minimal, 'order.amount', 10), 'order.amount')
  })
  // docs/schemas.md: decimals match the currency's ISO 4217 minor unit (JPY 0, USD 2, KWD 3).
  it.each([
    ['100', 'JPY'],
    ['10.00', 'USD'],
    ['10.000', 'KWD'],
  ])('accepts %s %s', (amount, currency) => {
    expectValid(SESSION, order(amount, currency))
  })
  // docs/schemas.md: "AmountMatchesCurrency ... so the decimals match the currency's ISO 4217 minor unit."
  // docs/rules.md#amounts: JPY as 100.00, and fewer decimals (10 USD) pass with a warning; finer than the minor unit is refused
  it.each([
    ['100.50', 'JPY', 'no minor unit'],
    ['10.001', 'USD', '2 decimals'],
    ['10.0001', 'KWD', '3 decimals'],
    ['10.5', 'VND', 'no decimals'],
  ])('refuses %s %s', (amount, currency, hint) => {
    expectInvalidAt(SESSION, order(amount, currency), 'order.amount', hint)
  })
  // 2.1.1: "A zero amount is accepted only on an authorization-only request or on the request that initializes a
  // recurring chain, and only when the payment provider supports zero-value transactions" -> the engine's check.
  it('leaves zero amounts to the engine', () => {
    expectValid(SESSION, order('0.00', 'USD'))
  })
  // docs/schemas.md x-section: "the deepest one on a field's path is reported with its errors".
  it('reports order errors with section 2.1.1', () => {
    expect(expectInvalidAt(SESSION, order('10,00', 'USD'), 'order.amount').section).toBe('2.1.1')
  })
})

describe('checkout session request: methods, parameters and URLs (2.1)', () => {
  // 2.1 methods: "array of string | Method identifiers offered on the payment form".
  it('refuses an empty methods list', () => {
    expectInvalidAt(SESSION, withField(minimal, 'methods', []), 'methods')
  })
  // 2.1 methods: "Method identifiers offered on the payment form" (each offered once).
  it('refuses a method listed twice', () => {
    expectInvalidAt(SESSION, withField(minimal, 'methods', ['card', 'card']), 'methods', 'unique')
  })
  // 2.1 methods: "array of string".
  it('refuses a method identifier that is not a string', () => {
    expectInvalidAt(SESSION, withField(minimal, 'methods', [7]), 'methods[0]')
  })
  // 2.1 parameters: "Keys are method identifiers ...; value is that method's parameter object."
  it('refuses a method parameter value that is not an object', () => {
    const error = expectInvalidAt(SESSION, withField(minimal, 'parameters', { card: 'x' }), 'parameters.card')
    expect(error.section).toBe('2.2')
  })
  // 2.1 url_target: "`_blank`, `_self`, `_parent`, `_top`."
  it.each(['_blank', '_self', '_parent', '_top'])('accepts url_target %s', (target) => {
    expectValid(SESSION, withField(minimal, 'url_target', target))
  })
  // 2.1 url_target: "`_blank`, `_self`, `_parent`, `_top`."
  it.each(['_new', 'top', '_TOP'])('refuses url_target %s', (target) => {
    expectInvalidAt(SESSION, withField(minimal, 'url_target', target), 'url_target')
  })
  // 2.1 cancel_url / success_url / expiry_url / error_url: "string (URL)".
  it.each(['cancel_url', 'success_url', 'expiry_url', 'error_url'])(
    'refuses a %s that is not a URL',
    (field) => {
      expectInvalidAt(
        SESSION,
        withField(minimal, field, 'merchant.example/x'),
        field,
        'This value is not a valid URL.',
      )
    },
  )
  // 2.1 req_token, recurring_init, auth: "boolean" (JSON body: booleans are booleans).
  it('refuses req_token sent as a string', () => {
    expectInvalidAt(SESSION, withField(minimal, 'req_token', 'yes'), 'req_token', 'of type boolean')
  })
  // 2.1 payer_ip: "Payer IP address."
  it('refuses a payer_ip that is not an IP address', () => {
    expectInvalidAt(SESSION, withField(minimal, 'payer_ip', '999.1.1.1'), 'payer_ip')
  })
  // 2.1 custom_data: "Free-form object".
  it('refuses custom_data that is not an object', () => {
    expectInvalidAt(SESSION, withField(minimal, 'custom_data', 'x'), 'custom_data')
  })
  // 2.1: "Objects `payee` and `payee_billing_address` also exist for credit; their fields: not shown."
  it('refuses a payee that is not an object', () => {
    expectInvalidAt(SESSION, withField(minimal, 'payee', 'Hana'), 'payee')
  })
  // 2.1 moto_type: "`phone_moto`, `email_moto`, `default_moto`, `ecommerce`."
  it.each(['phone_moto', 'email_moto', 'default_moto', 'ecommerce'])('accepts moto_type %s', (value) => {
    expectValid(SESSION, withField(minimal, 'moto_type', value))
  })
  // 2.5: "`moto_type` (values in 2.1) is accepted ... on the Checkout session request."
  it('refuses another moto_type, reported under 2.5', () => {
    expect(expectInvalidAt(SESSION, withField(minimal, 'moto_type', 'moto'), 'moto_type').section).toBe('2.5')
  })
})

describe('checkout session request: session_expiry (2.1, docs/rules.md#sessions)', () => {
  // 2.1 session_expiry: "Session lifetime. Unit of measure: not shown." docs/rules.md#session-expiry: "in minutes, 1 to 720".
  it.each([1, 60, 720])('accepts %i minutes', (minutes) => {
    expectValid(SESSION, withField(minimal, 'session_expiry', minutes))
  })
  // docs/rules.md#session-expiry: "`session_expiry` is in minutes, 1 to 720, default 60."
  it.each([
    [0, 'greater than or equal to 1'],
    [721, 'less than or equal to 720'],
  ])('refuses %i minutes', (minutes, message) => {
    expectInvalidAt(SESSION, withField(minimal, 'session_expiry', minutes), 'session_expiry', message)
  })
  // docs/rules.md#session-expiry: "in minutes" (whole minutes).
  it('refuses a fractional number of minutes', () => {
    expectInvalidAt(SESSION, withField(minimal, 'session_expiry', 30.5), 'session_expiry', 'of type integer')
  })
})

describe('checkout session request: auth (2.1)', () => {
  // 2.1 auth: "Default `false`. Only valid for `purchase`. `true` requests authentication/authorization without capture."
  it('accepts auth=true on purchase', () => {
    expectValid(SESSION, withField(minimal, 'auth', true))
  })
  // 2.1 auth: "Only valid for `purchase`."
  it.each(['debit', 'credit'])('refuses auth=true on %s, at auth', (operation) => {
    const data = withField(withField(minimal, 'auth', true), 'operation', operation)
    const error = expectInvalidAt(SESSION, data, 'auth', 'auth=true is only valid for operation purchase')
    expect(formatFieldError(error)).toBe(
      'auth: This value should be false: auth=true is only valid for operation purchase.',
    )
  })
  // 2.1 auth: "Default `false`." (the default is harmless on any operation)
  it('accepts auth=false on debit', () => {
    expectValid(SESSION, withField(withField(minimal, 'auth', false), 'operation', 'debit'))
  })
})

describe('checkout session request: schedules (2.1, 2.3)', () => {
  // 2.1 schedule_start_date: "Date `YYYY-MM-DD` of the first scheduled payment; requires `schedule_id`."
  // 2.1 payment_schedule_amount: "...; requires `schedule_id`."
  it.each([
    ['schedule_start_date', '2026-05-01'],
    ['payment_schedule_amount', '25.00'],
  ])('refuses %s without schedule_id, at schedule_id', (field, value) => {
    const data = withField(minimal, field, value)
    expectInvalidAt(
      SESSION,
      data,
      'schedule_id',
      'when schedule_start_date or payment_schedule_amount is sent',
    )
    expectValid(SESSION, withField(data, 'schedule_id', 'sch-1'))
  })
  // 2.1 schedule_start_date: "Date `YYYY-MM-DD` of the first scheduled payment".
  it('refuses a schedule_start_date that is not YYYY-MM-DD', () => {
    const data = withField(withField(minimal, 'schedule_id', 'sch-1'), 'schedule_start_date', '2026/05/01')
    expectInvalidAt(SESSION, data, 'schedule_start_date', 'This value is not a valid date.')
  })
  // 2.1 payment_schedule_amount: "string (decimal)" -> same decimals as order.currency (docs/schemas.md amounts).
  it('refuses a payment_schedule_amount with the wrong decimals for order.currency', () => {
    const data = withField(withField(minimal, 'schedule_id', 'sch-1'), 'payment_schedule_amount', '25')
    expectInvalidAt(SESSION, data, 'payment_schedule_amount', '2 decimals')
    expectValid(SESSION, withField(withField(data, 'order.currency', 'JPY'), 'order.amount', '10'))
  })
})

describe('checkout session request: customer and billing_address (2.1.2, 2.1.3)', () => {
  const billing = (field: string, value: unknown) =>
    withField(full, 'billing_address', { ...(full.billing_address as object), [field]: value })
  // 2.1.2 email: "E-mail"; birth_date: "`YYYY-MM-DD`".
  it('refuses an invalid customer e-mail and birth date', () => {
    expectInvalidAt(SESSION, withField(full, 'customer.email', 'doe@'), 'customer.email')
    expectInvalidAt(SESSION, withField(full, 'customer.birth_date', '21-04-1990'), 'customer.birth_date')
  })
  // 2.1.3 country: "ISO 3166-1 alpha-2."
  it.each(['USA', 'XX', 'us'])('refuses country %s, reported under 2.1.3', (country) => {
    const error = expectInvalidAt(SESSION, billing('country', country), 'billing_address.country')
    expect(error.message).toBe('This value is not a valid country.')
    expect(error.section).toBe('2.1.3')
  })
  // 2.1.3 phone_country_code: "Digits, up to 10 characters, a hyphen allowed for composite codes."
  it('accepts 10 characters and refuses 11', () => {
    expectValid(SESSION, billing('phone_country_code', chars(10, '1')))
    expectInvalidAt(
      SESSION,
      billing('phone_country_code', chars(11, '1')),
      'billing_address.phone_country_code',
      '10',
    )
  })
  // 2.1.3 phone_country_code: "a hyphen allowed for composite codes."
  it('accepts the hyphen form of composite codes', () => {
    expectValid(SESSION, billing('phone_country_code', '1-684'))
  })
  // 2.1.3 phone_country_code: "Digits, up to 10 characters" (no letters, no plus sign).
  it.each(['44a', '+44', 'ab'])('refuses %s', (code) => {
    expectInvalidAt(SESSION, billing('phone_country_code', code), 'billing_address.phone_country_code')
  })
  // 2.1.3 state: "Collected from the payer only when country is CA, US, JP, AU or IN; for other countries the field
  // is hidden and not validated."
  it.each([
    ['US', 'CA'],
    ['DE', 'Bavaria'],
    ['FR', 'anything at all'],
  ])('accepts country %s with state %s', (country, state) => {
    expectValid(SESSION, withField(billing('state', state), 'billing_address.country', country))
  })
  // 2.1.3 language: "Case-insensitive; not validated; an unlisted value falls back to English."
  it.each(['ZH-tw', 'zz', 'EN'])('accepts language %s', (language) => {
    expectValid(SESSION, billing('language', language))
  })
  // 2.1.3 language: "string".
  it('refuses a language that is not a string', () => {
    expectInvalidAt(SESSION, billing('language', 5), 'billing_address.language')
  })
})

describe('checkout session request: validation report', () => {
  // docs/rules.md#errors: messages in the form "order.amount: This value should be greater than 0." (path, colon, message).
  it('reports every problem of one request with its path', () => {
    const data = withField(withField(order('10,00', 'usd'), 'session_expiry', 0), 'url_target', '_new')
    const lines = validate(SESSION, data).errors.map(formatFieldError)
    expect(lines).toContain('order.currency: This value is not a valid currency.')
    expect(lines).toContain('session_expiry: This value should be greater than or equal to 1.')
    expect(lines.some((l) => l.startsWith('order.amount: '))).toBe(true)
    expect(lines.some((l) => l.startsWith('url_target: '))).toBe(true)
  })
})
