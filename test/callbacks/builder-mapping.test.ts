import { describe, expect, it } from 'vitest'
import type { SandboxMerchant } from '../../src/core/engine/context.js'
import type { Payment, Session } from '../../src/core/engine/model.js'
import { buildCheckout as build, session } from './build.js'
import { payment, transaction } from './harness.js'

/** A payment with a value for every mapped field. */
function fullPayment(): { p: Payment; s: Session } {
  const p = payment({
    session_id: 'sess-full',
    card_token: 'ct-full',
    schedule_id: 'sch-9',
    recurring: { init: true, token: 'rt-9' },
    three_ds: {
      required: true,
      outcome: 'pass',
      authenticationFlow: 'challenge',
      attributes: {
        threeDSServerTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e',
        dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
        acsTransID: '13c701a3-5a88-4c45-89e9-ef65e50a8bf9',
        transStatus: 'Y',
        eci: '05',
        protocolVersion: '2.2.0',
      },
    },
    browser_info: {
      color_depth: 24,
      screen_height: 1080,
      java_enabled: false,
      language: 'en-US',
      timezone_offset: -60,
    },
  })
  const s = {
    ...session(p, {
      customer: { name: 'John Ronald Doe', email: 'doe@example.com', birth_date: '1990-05-17' },
      billing_address: {
        country: 'US',
        state: 'CA',
        city: 'Los Angeles',
        address: 'Main street 1',
        zip: '90001',
      },
      schedule_start_date: '2026-12-01',
      payment_schedule_amount: '9.00',
    }),
    id: 'sess-full',
  }
  return { p, s }
}

const ALL_FLAGS = {
  callback_fields: {
    customer_ip: true,
    extended_data: true,
    schedule_start_date: true,
    payment_schedule_amount: true,
    first_recurring_date: true,
    card_token: true,
    card: true,
    card_expiration_date: true,
    checkout_payment_method: true,
    arn: true,
    initiator: true,
    source: true,
    sequence: true,
    three_ds_attributes: true,
    browser_attributes: true,
  },
  payer_attributes: { payer_first_name: true, payer_last_name: true, payer_email: true, payer_country: true },
  return_additional_parameters: ['payment_method', 'brand'] as ('payment_method' | 'brand')[],
}

describe('Checkout callback: Protocol Mapping flags (Events: "some enabled per Protocol Mapping, default off")', () => {
  const baseline = () => {
    const { p, s } = fullPayment()
    return Object.keys(build(p, transaction(p, 'sale'), { session: s }))
  }

  const cases: [string, SandboxMerchantMapping, string[]][] = [
    // docs/rules.md#extended-data: "extended data as the flat fields `connector_name`, `rrn`, `approval_code`,
    // `gateway_id`, `extra_gateway_id`, `merchant_name`, `mid_name`, `issuer_country`, `issuer_bank`": all nine
    // for a card payment (the test connector's values where the acquirer recorded none).
    [
      'extended_data (flat fields)',
      { callback_fields: { extended_data: true } },
      [
        'connector_name',
        'rrn',
        'approval_code',
        'gateway_id',
        'extra_gateway_id',
        'merchant_name',
        'mid_name',
        'issuer_country',
        'issuer_bank',
      ],
    ],
    ['schedule_start_date', { callback_fields: { schedule_start_date: true } }, ['schedule_start_date']],
    [
      'payment_schedule_amount',
      { callback_fields: { payment_schedule_amount: true } },
      ['payment_schedule_amount'],
    ],
    ['first_recurring_date', { callback_fields: { first_recurring_date: true } }, ['first_recurring_date']],
    ['card_token', { callback_fields: { card_token: true } }, ['card_token']],
    // docs/rules.md#callbacks: `card` and `card_expiration_date` are sent "when they apply", with no mapping: their flags add nothing.
    ['card', { callback_fields: { card: true } }, []],
    ['card_expiration_date', { callback_fields: { card_expiration_date: true } }, []],
    [
      'checkout_payment_method',
      { callback_fields: { checkout_payment_method: true } },
      ['checkout_payment_method'],
    ],
    ['arn (ARN with RRN beside it)', { callback_fields: { arn: true } }, ['ARN', 'RRN']],
    ['initiator', { callback_fields: { initiator: true } }, ['initiator']],
    ['source', { callback_fields: { source: true } }, ['source']],
    ['sequence', { callback_fields: { sequence: true } }, ['sequence']],
    [
      'three_ds_attributes',
      { callback_fields: { three_ds_attributes: true } },
      [
        'threeDSServerTransID',
        'dsTransID',
        'acsTransID',
        'transStatus',
        'eci',
        'protocolVersion',
        'authenticationFlow',
      ],
    ],
    [
      'browser_attributes',
      { callback_fields: { browser_attributes: true } },
      [
        'browser_color_depth',
        'browser_screen_height',
        'browser_java_enabled',
        'browser_language',
        'browser_timezone_offset',
      ],
    ],
    ['payer_first_name', { payer_attributes: { payer_first_name: true } }, ['payer_first_name']],
    ['payer_city', { payer_attributes: { payer_city: true } }, ['payer_city']],
    ['return payment_method', { return_additional_parameters: ['payment_method'] }, ['payment_method']],
    ['return brand', { return_additional_parameters: ['brand'] }, ['brand']],
  ]

  it.each(cases)('%s adds exactly its fields', (_name, mapping, added) => {
    const { p, s } = fullPayment()
    const body = build(p, transaction(p, 'sale'), { mapping, session: s })
    expect(
      Object.keys(body)
        .filter((k) => !baseline().includes(k))
        .sort(),
    ).toEqual([...added].sort())
  })

  it('customer_ip is a flag of S2S only: Checkout sends it always (docs/rules.md#callbacks)', () => {
    const { p, s } = fullPayment()
    const body = build(p, transaction(p, 'sale'), {
      mapping: { callback_fields: { customer_ip: true } },
      session: s,
    })
    expect(Object.keys(body).sort()).toEqual(baseline().sort())
  })

  it('every flag on: values as the payment recorded them, ARN sent empty with RRN beside it', () => {
    const { p, s } = fullPayment()
    const tx = transaction(p, 'sale')
    const body = build(p, tx, { mapping: ALL_FLAGS, session: s })
    expect(body).toMatchObject({
      card_token: 'ct-full',
      card: '411111******1111',
      card_expiration_date: '01/2030',
      checkout_payment_method: 'Visa',
      payment_method: 'card',
      brand: 'visa',
      ARN: '',
      schedule_start_date: '2026-12-01',
      payment_schedule_amount: '9.00',
      first_recurring_date: '2026-12-01',
      initiator: 'cardholder',
      source: 'ecommerce',
      sequence: 'initial',
      authenticationFlow: 'challenge',
      browser_color_depth: '24',
      browser_java_enabled: 'false',
      payer_first_name: 'John',
      payer_last_name: 'Ronald Doe',
      payer_email: 'doe@example.com',
      payer_country: 'US',
      connector_name: 'paysandbox test connector',
      gateway_id: tx.id,
      merchant_name: 'Demo merchant',
      mid_name: 'demo-mid',
      // docs/rules.md#extended-data: the test connector's issuer and a second gateway id.
      issuer_country: 'US',
      issuer_bank: 'Paysandbox Test Bank',
    })
    expect(body.extra_gateway_id).toMatch(/^[0-9a-f]{20}$/)
    expect(body.extra_gateway_id).not.toBe(body.gateway_id)
    expect(body).not.toHaveProperty('extended_data')
    expect(body.RRN).toMatch(/^[0-9]{12}$/)
    expect(body.rrn).toBe(body.RRN)
    expect(body.approval_code).toMatch(/^[0-9]{6}$/)
  })
})

type SandboxMerchantMapping = NonNullable<SandboxMerchant['protocol_mapping']>

describe('Checkout callback: extended data recorded by the acquirer', () => {
  // docs/rules.md#extended-data: the flat fields carry the acquirer's values where the payment recorded them.
  it('sends the recorded issuer data flat, and nothing of it without the flag', () => {
    const p = payment({
      extended_data: { issuer_country: 'US', issuer_bank: 'Test Bank', approval_code: 'A1B2C3' },
    })
    const on = build(p, transaction(p, 'sale'), { mapping: { callback_fields: { extended_data: true } } })
    expect(on).toMatchObject({ issuer_country: 'US', issuer_bank: 'Test Bank', approval_code: 'A1B2C3' })
    const off = build(p, transaction(p, 'sale'))
    for (const key of ['issuer_country', 'issuer_bank', 'approval_code', 'connector_name', 'extended_data'])
      expect(off).not.toHaveProperty(key)
  })
})
