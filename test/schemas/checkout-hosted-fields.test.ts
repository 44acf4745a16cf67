import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { validate } from '../../src/core/validation/index.js'
import { chars, expectInvalidAt, expectValid, withField } from '../helpers/schema.js'

const TOKEN = 'checkout/session-token-request'
const UPDATE = 'checkout/session-update-request'
const PURCHASE = 'checkout/hpf-purchase-card-request'
const DEBIT = 'checkout/hpf-debit-card-request'
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../fixtures/payloads/checkout/${name}.json`, import.meta.url), 'utf8'))

describe('checkout session-token request (Endpoints, 2.1.2)', () => {
  const token = fixture('session-token-request.minimal')
  // 2.1.2 ip: "Payer IP; used only on the Hosted Payment Fields session-token request."
  it.each(['203.0.113.7', '2001:db8::1'])('accepts customer.ip %s', (ip) => {
    expectValid(TOKEN, withField(token, 'customer', { name: 'John Doe', ip }))
  })
  // 2.1.2 ip: "Payer IP" (IPv4 or IPv6).
  it.each(['localhost', '300.1.1.1', ''])('refuses customer.ip %j', (ip) => {
    expectInvalidAt(
      TOKEN,
      withField(token, 'customer', { ip }),
      'customer.ip',
      'This is not a valid IP address.',
    )
  })
  // Endpoints: "Same shape as the session request plus `customer.ip`".
  it('applies every session request rule', () => {
    expectInvalidAt(TOKEN, withField(token, 'hash', undefined), 'hash', 'This value should not be blank.')
    expectInvalidAt(TOKEN, withField(token, 'order.currency', 'EURO'), 'order.currency')
    expectInvalidAt(TOKEN, withField(token, 'session_expiry', 721), 'session_expiry')
    const debitAuth = withField(withField(token, 'operation', 'debit'), 'auth', true)
    expectInvalidAt(TOKEN, debitAuth, 'auth', 'only valid for operation purchase')
    expectInvalidAt(TOKEN, withField(token, 'schedule_start_date', '2026-05-01'), 'schedule_id')
  })
  // 2.1.2 email: "E-mail" (the session's customer rules stay beside ip).
  it('keeps the customer fields of 2.1.2 next to ip', () => {
    const data = withField(token, 'customer', { email: 'not-an-email', ip: '203.0.113.7' })
    expectInvalidAt(TOKEN, data, 'customer.email')
  })
})

describe('checkout session update (Endpoints: PUT /api/v1/session/update)', () => {
  // Endpoints: "body holds only the changed fields among: order_amount, order_currency, recurring_init, req_token,
  // schedule_id, parameters, custom_data."
  it.each([
    ['order_amount', '15.00'],
    ['order_currency', 'EUR'],
    ['recurring_init', false],
    ['req_token', true],
    ['schedule_id', 'sch-2'],
    ['parameters', { card: { descriptor: 'X' } }],
    ['custom_data', { a: 1 }],
  ])('accepts a body with only %s', (field, value) => {
    expectValid(UPDATE, { [field]: value })
  })
  // Endpoints: "body holds only the changed fields among" the seven listed: nothing else.
  it.each([
    ['merchant_key', 'k'],
    ['order', { amount: '10.00' }],
    ['session_expiry', 30],
    ['methods', ['card']],
  ])('refuses the unlisted field %s', (field, value) => {
    expectInvalidAt(UPDATE, { order_amount: '15.00', [field]: value }, field, 'This field was not expected.')
  })
  // Endpoints: "body holds only the changed fields": an update changes at least one.
  it('refuses an empty body', () => {
    expectInvalidAt(UPDATE, {}, '', 'send at least one of order_amount')
  })
  // 2.1.1 amount: "string (decimal, dot separator)"; decimals of the currency (docs/schemas.md).
  it('checks order_amount against order_currency when both are sent', () => {
    // docs/rules.md#amounts: finer than the minor unit is refused; fewer decimals pass (with a warning in a request)
    expectInvalidAt(UPDATE, { order_amount: '15.005', order_currency: 'EUR' }, 'order_amount', '2 decimals')
    expectInvalidAt(UPDATE, { order_amount: '15.50', order_currency: 'JPY' }, 'order_amount', 'no minor unit')
    expectValid(UPDATE, { order_amount: '15.00', order_currency: 'JPY' })
    expectValid(UPDATE, { order_amount: '15', order_currency: 'JPY' })
  })
  // 2.1.1 amount: "string (decimal, dot separator)"; currency: "ISO 4217 alphabetic code."
  it('refuses a comma amount and an unknown currency', () => {
    expectInvalidAt(UPDATE, { order_amount: '15,00' }, 'order_amount')
    expectInvalidAt(
      UPDATE,
      { order_currency: 'EURO' },
      'order_currency',
      'This value is not a valid currency.',
    )
  })
  // 2.1: recurring_init "boolean"; parameters: "value is that method's parameter object."
  it('refuses flags sent as strings and method parameters that are not objects', () => {
    // docs/rules.md#booleans: "true"/"false"/"Y"/"N" are read as booleans (with a warning); other strings are refused
    expectInvalidAt(UPDATE, { recurring_init: 'yes' }, 'recurring_init', 'of type boolean')
    expectInvalidAt(UPDATE, { parameters: { card: 1 } }, 'parameters.card')
  })
})

describe('Hosted Payment Fields card payment (Endpoints; docs/rules.md#beyond-the-interface)', () => {
  const card = fixture('hpf-purchase-card-request.minimal')
  // docs/rules.md#beyond-the-interface: "JSON {card_number, card_exp_month, card_exp_year, card_cvv2, card_holder?, payer_email?,
  // browser_info?}" (Luhn and expiry in the past are the engine's checks).
  it.each([
    ['12 digits', chars(12, '4'), true],
    ['19 digits', chars(19, '4'), true],
    ['11 digits', chars(11, '4'), false],
    ['20 digits', chars(20, '4'), false],
    ['spaces', '4111 1111 1111 1111', false],
    ['letters', '4111abcd11111111', false],
  ])('card_number with %s', (_label, value, ok) => {
    const data = withField(card, 'card_number', value)
    if (ok) expectValid(PURCHASE, data)
    else expectInvalidAt(PURCHASE, data, 'card_number', 'This value is not a valid card number.')
  })
  // docs/rules.md#beyond-the-interface: card_exp_month (two digits, 01 to 12).
  it.each([
    ['01', true],
    ['12', true],
    ['00', false],
    ['13', false],
    ['1', false],
  ])('card_exp_month %s', (value, ok) => {
    const data = withField(card, 'card_exp_month', value)
    if (ok) expectValid(PURCHASE, data)
    else expectInvalidAt(PURCHASE, data, 'card_exp_month', '01 to 12')
  })
  // docs/rules.md#beyond-the-interface: card_exp_year (four digits).
  it.each([
    ['2030', true],
    ['30', false],
    ['20300', false],
  ])('card_exp_year %s', (value, ok) => {
    const data = withField(card, 'card_exp_year', value)
    if (ok) expectValid(PURCHASE, data)
    else expectInvalidAt(PURCHASE, data, 'card_exp_year', 'four digits')
  })
  // docs/rules.md#beyond-the-interface: card_cvv2 (3 or 4 digits).
  it.each([
    ['123', true],
    ['1234', true],
    ['12', false],
    ['12345', false],
    ['abc', false],
  ])('card_cvv2 %s', (value, ok) => {
    const data = withField(card, 'card_cvv2', value)
    if (ok) expectValid(PURCHASE, data)
    else expectInvalidAt(PURCHASE, data, 'card_cvv2', '3 or 4 digits')
  })
  // docs/rules.md#sessions: the payment request carries no card data (the fields put it into the session); the
  // card the frames send is checked by its own schema, where every field is required.
  it('takes a payment body without card data, and requires every card field when the frames send one', () => {
    expectValid(PURCHASE, { with_hosted_fields: true, name: 'Jane Doe', email: 'jane@shop.example' })
    for (const field of ['card_number', 'card_exp_month', 'card_exp_year'])
      expectInvalidAt(
        'sandbox/hpf-collect-request',
        withField(card, field, undefined),
        field,
        'This value should not be blank.',
      )
  })
  // 2.5: "For a MOTO value: the card security code is optional" -> the schema leaves card_cvv2 to the engine.
  it('accepts a payment without card_cvv2 (MOTO sessions)', () => {
    expectValid(PURCHASE, withField(card, 'card_cvv2', undefined))
  })
  // docs/rules.md#beyond-the-interface: "JSON {card_number, card_exp_month, ...}": card fields are strings (leading zeros matter).
  it('refuses card fields sent as numbers', () => {
    expectInvalidAt(PURCHASE, withField(card, 'card_exp_month', 1), 'card_exp_month', 'of type string')
  })
  // docs/rules.md#beyond-the-interface: "payer_email?" (an e-mail address when sent).
  it('refuses an invalid payer_email', () => {
    expectInvalidAt(PURCHASE, withField(card, 'payer_email', 'doe@'), 'payer_email')
  })
  // Endpoints: "May include `browser_info.accept_headers`, which is mapped to the payer's extra details and
  // forwarded to the connector." Events: "Browser attributes: browser_color_depth, ..."
  it('checks the browser_info attributes', () => {
    expectValid(PURCHASE, withField(card, 'browser_info', { accept_headers: 'text/html' }))
    expectInvalidAt(
      PURCHASE,
      withField(card, 'browser_info', { accept_headers: 5 }),
      'browser_info.accept_headers',
    )
    expectInvalidAt(
      PURCHASE,
      withField(card, 'browser_info', { color_depth: '24' }),
      'browser_info.color_depth',
    )
    expectInvalidAt(
      PURCHASE,
      withField(card, 'browser_info', { javascript_enabled: 'yes' }),
      'browser_info.javascript_enabled',
    )
    expectInvalidAt(PURCHASE, withField(card, 'browser_info', 'text/html'), 'browser_info')
  })
  // Endpoints: debit/card is "Same, for a session created with `operation=debit`."
  it('applies the same rules on the debit endpoint', () => {
    expectValid(DEBIT, fixture('hpf-debit-card-request.minimal'))
    expectInvalidAt(DEBIT, withField(card, 'card_exp_month', '13'), 'card_exp_month')
    expectInvalidAt(DEBIT, withField(card, 'card_number', chars(20, '4')), 'card_number')
    const purchase = validate(PURCHASE, withField(card, 'card_cvv2', '12')).errors
    const debit = validate(DEBIT, withField(card, 'card_cvv2', '12')).errors
    expect(debit).toEqual(purchase)
  })
})
