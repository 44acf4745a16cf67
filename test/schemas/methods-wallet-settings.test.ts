/**
 * Admin settings of the device wallets (interface 2.2.3): wallet1-settings and wallet2-settings,
 * referenced by the sandbox merchant configuration.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, it } from 'vitest'
import { expectInvalidAt, expectValid } from '../helpers/schema.js'

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/payloads/methods')
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>
const W1 = 'methods/wallet1-settings.schema.json'
const W2 = 'methods/wallet2-settings.schema.json'

describe('wallet1 settings (2.2.3)', () => {
  const base = fixture('wallet1-settings.minimal')

  it('needs Merchant Identifier, Country and Shop Name', () => {
    // "wallet1 | Merchant Identifier, Country, Shop Name, Certificate (uploaded file), Private Key, ..."
    for (const field of ['merchant_identifier', 'country', 'shop_name']) {
      const copy = { ...base }
      delete copy[field]
      expectInvalidAt(W1, copy, field, 'This value should not be blank.')
    }
    expectInvalidAt(W1, { ...base, country: 'USA' }, 'country', 'not a valid country')
  })

  it('takes the Processing Private Key as one line with no spaces or breaks between the BEGIN and END markers', () => {
    // "Processing Private Key (used for token decryption; entered as one line with no spaces or breaks between the BEGIN and END markers)"
    const one =
      '-----BEGIN PRIVATE KEY-----MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg+/=-----END PRIVATE KEY-----'
    expectValid(W1, { ...base, processing_private_key: one })
    expectInvalidAt(
      W1,
      { ...base, processing_private_key: one.replace('MIGH', '\nMIGH') },
      'processing_private_key',
      'one line',
    )
    expectInvalidAt(
      W1,
      { ...base, processing_private_key: one.replace('MIGH', 'MI GH') },
      'processing_private_key',
      'one line',
    )
    expectInvalidAt(
      W1,
      { ...base, processing_private_key: 'MIGHAgEAMBMGByqGSM49' },
      'processing_private_key',
      'one line',
    )
  })

  it('refuses keys that are not wallet settings (a typo would silently disable a setting)', () => {
    expectInvalidAt(
      W1,
      { ...base, merchant_identifer: 'x' },
      'merchant_identifer',
      'This field was not expected.',
    )
  })

  it('format-checks the certificate and key when given', () => {
    expectInvalidAt(W1, { ...base, certificate: 'not a pem' }, 'certificate', 'PEM')
    expectInvalidAt(W1, { ...base, supported_networks: ['visa', 'visa'] }, 'supported_networks', 'not valid')
  })
})

describe('wallet2 settings (2.2.3)', () => {
  const base = fixture('wallet2-settings.minimal')

  it('Environment is TEST or PRODUCTION', () => {
    // "Environment (`TEST` or `PRODUCTION`)"
    expectValid(W2, { ...base, environment: 'TEST' })
    expectValid(W2, { ...base, environment: 'PRODUCTION' })
    expectInvalidAt(W2, { ...base, environment: 'SANDBOX' }, 'environment', 'not a valid choice')
  })

  it('Allowed Auth Method is PAN_ONLY or CRYPTOGRAM_3DS', () => {
    // "Allowed Auth Method (`PAN_ONLY` or `CRYPTOGRAM_3DS`)"
    expectValid(W2, { ...base, allowed_auth_methods: ['PAN_ONLY'] })
    expectValid(W2, { ...base, allowed_auth_methods: ['CRYPTOGRAM_3DS'] })
    expectInvalidAt(
      W2,
      { ...base, allowed_auth_methods: ['TOKEN'] },
      'allowed_auth_methods[0]',
      'not a valid choice',
    )
    expectInvalidAt(W2, { ...base, allowed_auth_methods: [] }, 'allowed_auth_methods', '1 element or more')
  })

  it('Supported Networks are MASTERCARD, VISA, AMEX, DISCOVER, JCB', () => {
    // "Supported Networks (`MASTERCARD`, `VISA`, `AMEX`, `DISCOVER`, `JCB`)"
    expectValid(W2, { ...base, supported_networks: ['MASTERCARD', 'VISA', 'AMEX', 'DISCOVER', 'JCB'] })
    expectInvalidAt(
      W2,
      { ...base, supported_networks: ['VISA', 'MAESTRO'] },
      'supported_networks[1]',
      'not a valid choice',
    )
  })

  it('needs Merchant Identifier, Gateway and Gateway Merchant ID; Private Key only when the platform decrypts', () => {
    // "Private Key (required only when the platform decrypts the token)"
    for (const field of ['merchant_identifier', 'gateway', 'gateway_merchant_id']) {
      const copy = { ...base }
      delete copy[field]
      expectInvalidAt(W2, copy, field, 'This value should not be blank.')
    }
    expectValid(W2, base)
  })

  it('Include Additional Parameters to Token is a boolean', () => {
    expectValid(W2, { ...base, include_additional_parameters_to_token: true })
    expectInvalidAt(
      W2,
      { ...base, include_additional_parameters_to_token: 'yes' },
      'include_additional_parameters_to_token',
      'type boolean',
    )
  })
})
