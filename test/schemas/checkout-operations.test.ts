import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { formatFieldError, validate } from '../../src/core/validation/index.js'
import { expectInvalidAt, expectValid, withField } from '../helpers/schema.js'

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../fixtures/payloads/checkout/${name}.json`, import.meta.url), 'utf8'))

describe('checkout credit (POST /api/v1/payment/card/credit)', () => {
  const CREDIT = 'checkout/credit-request'
  const credit = fixture('credit-request.minimal')
  // Endpoints: "merchant_key, order_id, order_amount, order_currency, order_description, card_token,
  // payee_first_name (optional), payee_last_name (optional), hash <OPERATION_HASH>."
  it.each(['merchant_key', 'order_id', 'order_amount', 'order_currency', 'order_description', 'hash'])(
    'refuses a credit without %s',
    (field) => {
      expectInvalidAt(CREDIT, withField(credit, field, undefined), field, 'This value should not be blank.')
    },
  )
  // docs/rules.md#card-credit: "Identify the card either by card_number or by a card_token"
  // The schema takes the card fields in either form, card_number alone too; which card (one of the
  // two, an expiry only with card_number) is the engine's check, with messages naming what was wrong
  // (test/checkout/card-credit-identification.test.ts).
  it('takes the card by card_token, by card_number with its expiry, or by card_number alone', () => {
    const byNumber = {
      ...withField(credit, 'card_token', undefined),
      card_number: '4601541833776519',
      card_exp_month: '01',
      card_exp_year: '2038',
    }
    expectValid(CREDIT, byNumber)
    expectValid(CREDIT, { ...withField(credit, 'card_token', undefined), card_number: '4601541833776519' })
    expectInvalidAt(CREDIT, { ...byNumber, card_exp_month: '13' }, 'card_exp_month')
  })
  // Endpoints: "payee_first_name (optional), payee_last_name (optional)".
  it('accepts a credit without the optional payee names', () => {
    expectValid(
      CREDIT,
      withField(withField(credit, 'payee_first_name', undefined), 'payee_last_name', undefined),
    )
  })
  // docs/schemas.md: OrderAmountMatchesCurrency (decimals of the ISO 4217 minor unit).
  it('checks order_amount against order_currency', () => {
    expectInvalidAt(CREDIT, withField(credit, 'order_amount', '100.001'), 'order_amount', '2 decimals')
    expectInvalidAt(CREDIT, withField(credit, 'order_amount', '100,00'), 'order_amount')
    expectValid(CREDIT, withField(withField(credit, 'order_currency', 'JPY'), 'order_amount', '100'))
    expectInvalidAt(CREDIT, withField(credit, 'order_currency', 'eur'), 'order_currency')
  })
  // 2.1 custom_data: "Accepted on purchase, debit, credit ...".
  it('refuses custom_data that is not an object', () => {
    expectInvalidAt(CREDIT, withField(credit, 'custom_data', ['x']), 'custom_data')
  })
})

describe('checkout capture, void, refund, retry', () => {
  // Endpoints: "POST {base_url}/api/v1/payment/capture | DMS capture. Body: not shown." (docs/rules.md#signatures fields)
  const capture = fixture('capture-request.partial')
  // docs/rules.md#checkout-signatures: "capture, refund | payment_id + amount + password"; Authentication 1: merchant_key and hash.
  it.each(['merchant_key', 'payment_id', 'hash'])('refuses a capture without %s', (field) => {
    expectInvalidAt('checkout/capture-request', withField(capture, field, undefined), field)
  })
  // Endpoints capture: "Body: not shown." -> amount optional, the full authorized amount when absent (schema description).
  it('accepts a capture without amount (full capture)', () => {
    expectValid('checkout/capture-request', withField(capture, 'amount', undefined))
  })
  // 2.1.1 amount: "string (decimal, dot separator)".
  it('refuses a capture amount with a comma or a sign', () => {
    expectInvalidAt('checkout/capture-request', withField(capture, 'amount', '5,00'), 'amount')
    expectInvalidAt('checkout/capture-request', withField(capture, 'amount', '-5.00'), 'amount')
  })
  // 2.7: "The optional `parameters` object (... Checkout a JSON object) is accepted on ... Checkout capture, void and refund."
  it.each([
    ['capture', 'capture-request.partial'],
    ['void', 'void-request.parameters'],
    ['refund', 'refund-request.partial'],
  ])('refuses %s parameters that are not an object, reported under 2.7', (op, name) => {
    const error = expectInvalidAt(
      `checkout/${op}-request`,
      withField(fixture(name), 'parameters', 'x'),
      'parameters',
    )
    expect(error.section).toBe('2.7')
  })
  // docs/rules.md#checkout-signatures: "void, retry, status by payment_id | payment_id + password".
  it.each(['merchant_key', 'payment_id', 'hash'])('refuses a void without %s', (field) => {
    expectInvalidAt(
      'checkout/void-request',
      withField(fixture('void-request.minimal'), field, undefined),
      field,
    )
  })
  // docs/rules.md#checkout-signatures: "capture, refund | payment_id + amount + password" (amount optional: full refund when absent).
  it('accepts a refund without amount and refuses a malformed one', () => {
    const refund = fixture('refund-request.partial')
    expectValid('checkout/refund-request', withField(refund, 'amount', undefined))
    expectInvalidAt('checkout/refund-request', withField(refund, 'amount', '0.1.9'), 'amount')
    expectInvalidAt('checkout/refund-request', withField(refund, 'amount', 0.19), 'amount', 'of type string')
  })
  // docs/rules.md#checkout-signatures: "void, retry, status by payment_id | payment_id + password".
  it.each(['merchant_key', 'payment_id', 'hash'])('refuses a retry without %s', (field) => {
    expectInvalidAt(
      'checkout/retry-request',
      withField(fixture('retry-request.minimal'), field, undefined),
      field,
    )
  })
})

describe('checkout recurring (2.3)', () => {
  const RECURRING = 'checkout/recurring-request'
  const recurring = fixture('recurring-request.minimal')
  // 2.3: "Secondary payments use the recurring request with `recurring_init_trans_id` and `recurring_token`,
  // without card data."
  it.each(['merchant_key', 'recurring_init_trans_id', 'recurring_token', 'order', 'hash'])(
    'refuses a recurring payment without %s',
    (field) => {
      expectInvalidAt(RECURRING, withField(recurring, field, undefined), field)
    },
  )
  // docs/rules.md#checkout-signatures: "recurring | ... + order.number + order.amount + order.description + password".
  it.each(['number', 'amount', 'description'])('refuses an order without %s', (field) => {
    expectInvalidAt(RECURRING, withField(recurring, `order.${field}`, undefined), `order.${field}`)
  })
  // 2.1.1 currency: "ISO 4217 alphabetic code"; decimals of its minor unit (docs/schemas.md).
  it('checks the amount against order.currency when it is sent', () => {
    expectValid(RECURRING, recurring)
    const jpy = withField(recurring, 'order.currency', 'JPY')
    expectInvalidAt(RECURRING, withField(jpy, 'order.amount', '10.50'), 'order.amount', 'no minor unit')
    expectValid(RECURRING, withField(jpy, 'order.amount', '10'))
    expectInvalidAt(RECURRING, withField(recurring, 'order.currency', 'YEN'), 'order.currency')
  })
  // 2.1 custom_data: "Accepted ... on secondary recurring requests".
  it('refuses custom_data that is not an object', () => {
    expectInvalidAt(RECURRING, withField(recurring, 'custom_data', 'x'), 'custom_data')
  })
})

describe('checkout status lookup (Endpoints, Limits, Errors)', () => {
  const STATUS = 'checkout/status-request'
  const byOrder = fixture('status-request.by-order')
  const byPayment = fixture('status-request.by-payment')
  // Errors: "`size` above 100 | not shown | not shown | size should be within 1..100"; Limits: "1 to 100".
  it.each([1, 100])('accepts size %i with order_id', (size) => {
    expectValid(STATUS, withField(byOrder, 'size', size))
  })
  // Errors: "`size` above 100 | ... | size should be within 1..100"; Limits: "1 to 100".
  it.each([0, 101])('refuses size %i with the exact message', (size) => {
    const error = expectInvalidAt(STATUS, withField(byOrder, 'size', size), 'size')
    expect(error.message).toBe('size should be within 1..100')
    expect(formatFieldError(error)).toBe('size: size should be within 1..100')
  })
  // Endpoints: "`size` (1 to 100)": a count.
  it('refuses a size that is not an integer', () => {
    // docs/rules.md#booleans: a numeric string ("10") is read as the number; other strings are refused
    expectInvalidAt(STATUS, withField(byOrder, 'size', 'ten'), 'size', 'of type integer')
    expectInvalidAt(STATUS, withField(byOrder, 'size', 2.5), 'size', 'of type integer')
  })
  // Endpoints: "With `order_id`, the optional `size` (1 to 100) controls the reply".
  it('refuses size with payment_id', () => {
    expectInvalidAt(STATUS, withField(byPayment, 'size', 10), 'size', 'only accepted with order_id')
  })
  // Endpoints: "take merchant_key and hash plus either `payment_id` or `order_id`".
  it('refuses both payment_id and order_id, and neither', () => {
    const both = withField(byPayment, 'order_id', 'order-1234')
    expectInvalidAt(STATUS, both, '', 'Send exactly one of payment_id and order_id.')
    expectInvalidAt(STATUS, withField(byPayment, 'payment_id', undefined), '', 'exactly one of')
  })
  // Endpoints: "Checkout status lookups (`GET_TRANS_STATUS`) take merchant_key and hash".
  it.each(['merchant_key', 'hash'])('refuses a lookup without %s', (field) => {
    expectInvalidAt(STATUS, withField(byOrder, field, undefined), field, 'This value should not be blank.')
  })
  // Endpoints: "plus either `payment_id` or `order_id`" (a blank id identifies nothing).
  it('refuses a blank order_id', () => {
    expect(validate(STATUS, withField(byOrder, 'order_id', '')).valid).toBe(false)
    expectInvalidAt(STATUS, withField(byOrder, 'order_id', ''), 'order_id', 'This value should not be blank.')
  })
})
