import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  checkoutSignatures,
  type FormValue,
  s2sApmSignatures,
  s2sCardSignatures,
} from '../../src/core/signatures/index.js'
import { validate } from '../../src/core/validation/index.js'
import { expectInvalidAt, expectValid, withField } from '../helpers/schema.js'

const DIR = fileURLToPath(new URL('../../fixtures/payloads/callbacks/', import.meta.url))
const PASSWORD = 'demo-password-0123456789abcdef'
type Body = Record<string, FormValue>
const load = (name: string): Body => JSON.parse(readFileSync(join(DIR, name), 'utf8')) as Body

const CHECKOUT = 'callbacks/checkout-callback'
const S2S_CARD = 'callbacks/s2s-card-callback'
const S2S_APM = 'callbacks/s2s-apm-callback'
const REDIRECT = 'callbacks/redirect-query'
const schemaFor = (file: string): string => {
  if (file.startsWith('checkout-')) return CHECKOUT
  if (file.startsWith('s2s-card-')) return S2S_CARD
  if (file.startsWith('s2s-apm-')) return S2S_APM
  if (file.startsWith('redirect-')) return REDIRECT
  throw new Error(`No schema for fixture ${file}: name it checkout-, s2s-card-, s2s-apm- or redirect-`)
}

const settled = load('checkout-sale-settled.json')
const cardSale = load('s2s-card-sale-success.json')
const cardCreditvoid = load('s2s-card-creditvoid-reversal.json')
const apmCreditvoid = load('s2s-apm-creditvoid-refund.json')

describe('callback and redirect fixtures', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json'))

  it('covers every callback kind', () => {
    expect(new Set(files.map(schemaFor))).toEqual(new Set([CHECKOUT, S2S_CARD, S2S_APM, REDIRECT]))
  })

  it.each(files)('%s is accepted by its schema', (file) => {
    expectValid(schemaFor(file), load(file), file.startsWith('s2s-') ? 'bracket' : 'dot')
  })

  // docs/rules.md#checkout-signatures: "callback and redirect `hash` | payment_id + order.number + order.amount + order.currency + order.description + password"
  it.each(files.filter((f) => f.startsWith('checkout-')))(
    '%s carries the Checkout notification hash',
    (file) => {
      const b = load(file) as Record<string, string>
      const order = {
        number: b.order_number,
        amount: b.order_amount,
        currency: b.order_currency,
        description: b.order_description,
      }
      expect(b.hash).toBe(checkoutSignatures.notification(b.id as string, order, PASSWORD))
    },
  )

  // docs/rules.md#s2s-card-formulas: "CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS, callbacks | md5(upper(rev(payer_email) + password + trans_id + rev(first6 + last4))) of the original payment"
  it.each(files.filter((f) => f.startsWith('s2s-card-')))('%s carries the S2S CARD callback hash', (file) => {
    const b = load(file) as Record<string, string>
    const card = { cardNumber: '4111111111111111' }
    expect(b.hash).toBe(
      s2sCardSignatures.transaction('doe@example.com', PASSWORD, b.trans_id as string, card),
    )
  })

  // Authentication 6: "for S2S APM it covers the whole callback body (so it includes `creditvoid_id`)"
  it.each(files.filter((f) => f.startsWith('s2s-apm-')))('%s carries the S2S APM whole-body hash', (file) => {
    const b = load(file)
    expect(b.hash).toBe(s2sApmSignatures.callback(b, PASSWORD))
    const tampered = { ...b, creditvoid_id: 'another-id', custom_data: { basket: '13' } }
    expect(s2sApmSignatures.callback(tampered, PASSWORD)).not.toBe(b.hash)
  })
})

describe('Checkout callback', () => {
  // docs/rules.md#checkout-callback-fields: "Checkout callback fields always sent: `id` (payment id), `order_number`, `order_amount`,
  // `order_currency`, `order_description`, `order_status`, `type` ..., `status` ..., `customer_ip`, `hash`"
  it.each([
    'id',
    'order_number',
    'order_amount',
    'order_currency',
    'order_description',
    'order_status',
    'type',
    'status',
    'customer_ip',
    'hash',
  ])('refuses a callback without %s', (field) => {
    expectInvalidAt(CHECKOUT, withField(settled, field, undefined), field, 'This value should not be blank.')
  })

  // States and transitions: "On Checkout a reversal is reported as `type=refund` with `order_status=reversal`;
  // there is no `type=reversal` callback."
  it('refuses type=reversal, quoting the interface', () => {
    const reversal = { ...load('checkout-refund-reversal.json'), type: 'reversal' }
    expectInvalidAt(CHECKOUT, reversal, 'type', 'there is no `type=reversal` callback')
  })

  // Same sentence: a reversal is reported with type=refund, never with another type.
  it('refuses order_status=reversal unless type is refund', () => {
    expectValid(CHECKOUT, load('checkout-refund-reversal.json'))
    expectInvalidAt(CHECKOUT, { ...settled, order_status: 'reversal' }, 'type', 'type=refund')
  })

  // docs/rules.md#responses: "Checkout statuses are lowercase: prepare, settled, pending, 3ds, redirect, decline, refund,
  // reversal, void, chargeback."
  it.each(['captured', 'SETTLED', 'declined', ''])('refuses order_status %j', (value) => {
    expectInvalidAt(CHECKOUT, { ...settled, order_status: value }, 'order_status')
  })

  // docs/rules.md#checkout-callback-fields: "`type` (sale, 3ds, redirect, capture, refund, void, chargeback, debit, credit, recurring),
  // `status` (success, fail, waiting, undefined)"
  it('accepts every listed type and status and refuses others', () => {
    for (const type of [
      'sale',
      '3ds',
      'redirect',
      'capture',
      'refund',
      'void',
      'chargeback',
      'credit',
      'recurring',
    ])
      expectValid(CHECKOUT, { ...settled, type })
    for (const status of ['success', 'fail', 'waiting', 'undefined'])
      expectValid(CHECKOUT, { ...settled, status })
    expectInvalidAt(CHECKOUT, { ...settled, type: 'purchase' }, 'type')
    expectInvalidAt(CHECKOUT, { ...settled, status: 'declined' }, 'status')
  })

  // docs/rules.md#callback-format: "flat keys (`order_number`, not `order.number`)"
  it('refuses nested order keys', () => {
    const nested = withField(settled, 'order_number', undefined) as Body
    nested.order = { number: 'ORDER-1001' }
    expectInvalidAt(CHECKOUT, nested, 'order', 'flat keys')
    expectInvalidAt(CHECKOUT, nested, 'order_number')
  })

  // docs/schemas.md: "S2S bodies are forms: every value is a string" (callbacks are forms too, docs/rules.md#callbacks)
  it('refuses a non-string value', () => {
    expectInvalidAt(CHECKOUT, { ...settled, order_amount: 10 }, 'order_amount', 'type string')
  })

  // 2.1.1: "currency | ISO 4217 alphabetic code"; amounts as the merchant sent them, with the currency's decimals.
  // docs/rules.md#amounts: a fraction VND cannot carry (JPY's 10.00 is the platform's own form)
  it('refuses an amount whose decimals do not match the currency', () => {
    expectInvalidAt(
      CHECKOUT,
      { ...settled, order_amount: '10.50', order_currency: 'VND' },
      'order_amount',
      'no decimals',
    )
  })

  // Events: "Callbacks for `debit` carry `card_token` in every callback (including `settled`)"
  it('refuses a debit callback without card_token', () => {
    const debit = load('checkout-debit-settled-card-token.json')
    expectValid(CHECKOUT, debit)
    expectInvalidAt(CHECKOUT, withField(debit, 'card_token', undefined), 'card_token')
  })

  // Endpoints: "`card` (masked number) and `card_expiration_date` (`MM/YYYY`)"
  it.each(['4111111111111111', '4111 **** **** 1111', '41111****1111', '411111*x**1111', '411111****111'])(
    'refuses card %j (not first 6, mask, last 4)',
    (card) => {
      expectInvalidAt(CHECKOUT, { ...settled, card }, 'card', 'masked card number')
    },
  )

  it.each(['411111****1111', '555555xxxxxx4444', '601100XXXXXX0004', '371449*****8431'])(
    'accepts card %j',
    (card) => {
      expectValid(CHECKOUT, { ...settled, card })
    },
  )

  // Endpoints: "`card_expiration_date` (`MM/YYYY`)"
  it.each(['13/2030', '00/2030', '1/2030', '01/30', '2030-01'])(
    'refuses card_expiration_date %j',
    (value) => {
      expectInvalidAt(
        CHECKOUT,
        { ...settled, card_expiration_date: value },
        'card_expiration_date',
        'MM/YYYY',
      )
    },
  )

  // Events: "`ARN` (sent empty when missing; RRN alongside)"
  it('accepts an empty ARN and requires RRN alongside', () => {
    expectValid(CHECKOUT, { ...settled, ARN: '', RRN: '' })
    expectValid(CHECKOUT, { ...settled, ARN: '74567890123456789012345', RRN: '123456789012' })
    expectInvalidAt(CHECKOUT, { ...settled, ARN: '' }, 'RRN')
  })

  // Events: "authenticationFlow (frictionless or challenge)"; 2.4 formats for the 3DS values.
  it('checks the 3DS attributes', () => {
    expectInvalidAt(CHECKOUT, { ...settled, authenticationFlow: 'decoupled' }, 'authenticationFlow')
    expectInvalidAt(CHECKOUT, { ...settled, eci: '5' }, 'eci')
    expectInvalidAt(CHECKOUT, { ...settled, protocolVersion: '2.2' }, 'protocolVersion')
    expectInvalidAt(CHECKOUT, { ...settled, dsTransID: 'not-a-uuid' }, 'dsTransID')
  })

  // 2.1: "`custom_data` | object | Free-form object stored with the transaction and returned in the callback";
  // docs/rules.md#callback-format: "nested values in bracket notation"
  it('accepts nested custom_data of strings and refuses other values', () => {
    expectValid(CHECKOUT, { ...settled, custom_data: { a: '1', b: { c: '2' }, d: ['x', 'y'] } })
    expectInvalidAt(CHECKOUT, { ...settled, custom_data: { a: 1 } }, 'custom_data.a')
  })

  // Events: the callback fields are those named by the interface.
  it('refuses a field the interface does not name', () => {
    expectInvalidAt(CHECKOUT, { ...settled, creditvoid_id: 'x' }, 'creditvoid_id', 'not expected')
  })

  // docs/rules.md#checkout-signatures: Checkout hash is sha1 hex.
  it('refuses a hash that is not 40 lowercase hex characters', () => {
    expectInvalidAt(CHECKOUT, { ...settled, hash: cardSale.hash }, 'hash')
    expectInvalidAt(CHECKOUT, { ...settled, hash: String(settled.hash).toUpperCase() }, 'hash')
  })
})

describe('S2S CARD callback', () => {
  // Events: "CREDITVOID callbacks (S2S CARD and S2S APM) always carry `creditvoid_id`"
  it('refuses a CREDITVOID callback without creditvoid_id', () => {
    expectInvalidAt(
      S2S_CARD,
      withField(cardCreditvoid, 'creditvoid_id', undefined),
      'creditvoid_id',
      'not be blank',
    )
  })

  // Events: "`creditvoid_id`, the id of the refund or reversal transaction": it belongs to CREDITVOID only.
  it('refuses creditvoid_id on another action', () => {
    expectInvalidAt(
      S2S_CARD,
      { ...cardSale, creditvoid_id: 'x' },
      'creditvoid_id',
      'CREDITVOID callbacks only',
    )
  })

  // Events: "`status` in the callback is the payment status after the transaction"; States and transitions:
  // PENDING + CREDITVOID -> REVERSAL, SETTLED + CREDITVOID -> REFUND.
  it('refuses a successful CREDITVOID that leaves the payment SETTLED', () => {
    expectValid(S2S_CARD, { ...cardCreditvoid, status: 'REFUND' })
    expectInvalidAt(S2S_CARD, { ...cardCreditvoid, status: 'SETTLED' }, 'status', 'REFUND or REVERSAL')
  })

  // docs/rules.md#responses: "S2S statuses are uppercase"
  it('refuses a lowercase status', () => {
    expectInvalidAt(S2S_CARD, { ...cardSale, status: 'settled' }, 'status')
  })

  // docs/rules.md#transport: "plus `recurring_token`, `card_token`, `decline_reason` where relevant"
  it('refuses a DECLINED result without decline_reason', () => {
    const declined = load('s2s-card-sale-declined.json')
    expectInvalidAt(S2S_CARD, withField(declined, 'decline_reason', undefined), 'decline_reason')
  })

  // docs/rules.md#errors: "`result` is SUCCESS, DECLINED, REDIRECT ..., ACCEPTED (CREDITVOID) or ERROR": the last two
  // are synchronous answers.
  it.each(['ACCEPTED', 'ERROR', 'success'])('refuses result %j in a callback', (result) => {
    expectInvalidAt(S2S_CARD, { ...cardSale, result }, 'result')
  })

  // Endpoints: status lookups and schedule actions are not reported by callback.
  it.each(['GET_TRANS_STATUS', 'CREATE_SCHEDULE', 'DEBIT2VIRTUAL'])('refuses action %s', (action) => {
    expectInvalidAt(S2S_CARD, { ...cardSale, action }, 'action')
  })

  // Events: masked `card` and `card_expiration_date` (MM/YYYY).
  it('refuses a full card number', () => {
    expectInvalidAt(S2S_CARD, { ...cardSale, card: '4111111111111111' }, 'card', 'masked card number')
  })

  it('refuses a hash that is not md5 hex', () => {
    expectInvalidAt(S2S_CARD, { ...cardSale, hash: settled.hash }, 'hash')
  })
})

describe('S2S APM callback', () => {
  // Events: "CREDITVOID callbacks (S2S CARD and S2S APM) always carry `creditvoid_id`"
  it('refuses a CREDITVOID callback without creditvoid_id', () => {
    expectInvalidAt(S2S_APM, withField(apmCreditvoid, 'creditvoid_id', undefined), 'creditvoid_id')
  })

  // Endpoints: "S2S APM actions: SALE, DEBIT2VIRTUAL, DEBIT2VIRTUAL_CALC, CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS"
  it('refuses an S2S CARD action', () => {
    expectInvalidAt(S2S_APM, { ...apmCreditvoid, action: 'RECURRING_SALE' }, 'action')
  })

  // Events lists card fields for card payments; an APM callback has no card.
  it('refuses card fields', () => {
    expectInvalidAt(
      S2S_APM,
      { ...load('s2s-apm-sale-success.json'), card: '411111****1111' },
      'card',
      'not expected',
    )
  })
})

describe('redirect query', () => {
  const redirect = load('redirect-success.json')

  // Events: "`success_url` and `cancel_url` always receive `payment_id`, `trans_id`, `order_id`, `hash` as query parameters"
  it.each(['payment_id', 'trans_id', 'order_id', 'hash'])('refuses a redirect without %s', (field) => {
    expectInvalidAt(REDIRECT, withField(redirect, field, undefined), field)
  })

  // Events: "Return additional parameters ... appends further parameters, for example `payment_method` and `brand`"
  it('accepts the additional parameters and the merchant own query parameters', () => {
    expectValid(REDIRECT, load('redirect-success-additional-parameters.json'))
    expectValid(REDIRECT, { ...redirect, cart: '5' })
    expectInvalidAt(REDIRECT, { ...redirect, brand: '' }, 'brand')
  })

  it('refuses a non-sha1 hash', () => {
    const result = validate(REDIRECT, { ...redirect, hash: 'abc' })
    expect(result.errors.map((e) => e.path)).toEqual(['hash'])
  })
})
