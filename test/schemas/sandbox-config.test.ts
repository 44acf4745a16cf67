import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import ajvFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { SCHEMA_VOCABULARY } from '../../src/core/validation/schema-registry.js'
import { listSchemaFiles } from '../../src/schema-files.js'
import { interfaceExcerpt } from '../helpers/interface-excerpts.js'
import { expectInvalidAt, expectValid, withField } from '../helpers/schema.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const load = (name: string) =>
  JSON.parse(readFileSync(join(ROOT, 'fixtures/config', name), 'utf8')) as Record<string, unknown>
const CONFIG = 'sandbox/config'
const MAPPING = 'sandbox/protocol-mapping'
const ADAPTER = 'sandbox/merchant-adapter'

const demo = load('demo.json')
const multi = load('multi-merchant.json')
const minimal = {
  merchants: [
    {
      key: 'm1',
      password: 'password-1',
      notification_url: 'http://localhost:3000/cb',
      mids: [{ id: 'mid-1' }],
    },
  ],
}
const mid = 'merchants[0].mids[0]'

/** The config after ajv fills in every `default`, as the loader will. */
function withDefaults(config: unknown): Record<string, unknown> {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, useDefaults: true })
  ajvFormats.default(ajv)
  ajv.addVocabulary([...SCHEMA_VOCABULARY])
  for (const file of listSchemaFiles()) ajv.addSchema(JSON.parse(readFileSync(file, 'utf8')))
  const validate = ajv.getSchema('https://paysandbox.dev/schemas/sandbox/config.schema.json')
  const copy = structuredClone(config)
  expect(validate?.(copy), JSON.stringify(validate?.errors)).toBe(true)
  return copy as Record<string, unknown>
}

describe('sandbox configuration fixtures', () => {
  // docs/rules.md#configuration: "Without a file, a documented demo merchant is built in."
  it('demo.json is valid and holds the documented demo merchant', () => {
    expectValid(CONFIG, demo)
    const [merchant] = demo.merchants as { key: string; password: string }[]
    expect(merchant).toMatchObject({ key: 'demo-merchant', password: 'demo-password-0123456789abcdef' })
  })

  it('multi-merchant.json (every option, two merchants, wallets) is valid', () => {
    expectValid(CONFIG, multi)
    expect((multi.merchants as unknown[]).length).toBeGreaterThan(1)
  })
})

describe('defaults', () => {
  const filled = withDefaults(minimal)
  const merchant = (filled.merchants as Record<string, unknown>[])[0] as Record<string, unknown>
  const firstMid = (merchant.mids as Record<string, unknown>[])[0]
  const mapping = merchant.protocol_mapping as Record<string, Record<string, unknown>>

  // Versioning 6.7.0: "Payment Mode gains `SMS/DMS` as the new default"
  // docs/rules.md#configuration: "moto": false, "card_on_file": false, "zero_amount": false, "override_link_target": null
  it('gives a MID the 6.7.0 payment mode and every attribute off', () => {
    expect(firstMid).toEqual({
      id: 'mid-1',
      payment_mode: 'SMS/DMS',
      moto: false,
      card_on_file: false,
      zero_amount: false,
      override_link_target: null,
    })
  })

  // docs/rules.md#retries: retries "on by default at 1 min, 5 min, 15 min, 1 h, 6 h, 24 h"; "a time-out (10 s)"
  // docs/rules.md#session-expiry: "`session_expiry` is in minutes, 1 to 720, default 60"
  it('gives the sandbox options their documented values', () => {
    expect(filled.callbacks).toEqual({
      retries: true,
      retry_schedule_seconds: [60, 300, 900, 3600, 21600, 86400],
      timeout_seconds: 10,
    })
    expect(filled.sessions).toEqual({ default_expiry_minutes: 60 })
    expect(filled.clock).toEqual({ mode: 'system' })
    // retain_demo: the demo page keeps 50 sessions apart (docs/rules.md#retention; retain has no schema
    // default: serve fills 10,000 in memory, none with a data file).
    // request_log: the request log keeps 1,000 requests per merchant, 16 KiB of each body (docs/rules.md#request-log).
    expect(filled.limits).toEqual({
      body_bytes: 1048576,
      retain_demo: 50,
      request_log: 1000,
      request_log_body_bytes: 16384,
    })
    expect(filled.base_url).toBe('http://localhost:8080')
  })

  // Events: "some enabled per Protocol Mapping, default off"; "Payer attributes (individually configurable)";
  // "Return additional parameters (empty by default ...)"; T&C "not ticked by default"; 2.1.3: "(default mappings
  // mark them Optional)"
  it('turns every Protocol Mapping option off', () => {
    const flags = { ...mapping.callback_fields, ...mapping.payer_attributes }
    expect(Object.keys(flags).length).toBeGreaterThan(25)
    expect(Object.values(flags).every((v) => v === false)).toBe(true)
    expect(mapping.payer_attributes).toHaveProperty('payer_district', false)
    expect(mapping.return_additional_parameters).toEqual([])
    expect(mapping.terms_and_conditions).toEqual({ enabled: false })
    expect(mapping.default_language).toBeNull()
    expect(mapping.payer_address_fields).toEqual({
      payer_address: 'Optional',
      payer_country: 'Optional',
      payer_city: 'Optional',
      payer_zip: 'Optional',
    })
  })
})

describe('sandbox configuration rules', () => {
  // Versioning 6.7.0: Payment Mode values SMS, DMS and SMS/DMS.
  it.each(['SMS', 'DMS', 'SMS/DMS'])('accepts payment_mode %s', (mode) => {
    expectValid(CONFIG, withField(minimal, 'merchants.0.mids.0.payment_mode', mode))
  })

  it.each(['AUTH', 'sms', 'DMS/SMS'])('refuses payment_mode %s', (mode) => {
    expectInvalidAt(
      CONFIG,
      withField(minimal, 'merchants.0.mids.0.payment_mode', mode),
      `${mid}.payment_mode`,
    )
  })

  // 2.1: "An administrator-set MID attribute Override Link Target (same four values) wins over the merchant value;
  // when it is unset the merchant value is used."
  it.each([null, '_blank', '_self', '_parent', '_top'])('accepts override_link_target %j', (value) => {
    expectValid(CONFIG, withField(minimal, 'merchants.0.mids.0.override_link_target', value))
  })

  it.each(['_new', 'top', ''])('refuses override_link_target %j', (value) => {
    expectInvalidAt(
      CONFIG,
      withField(minimal, 'merchants.0.mids.0.override_link_target', value),
      `${mid}.override_link_target`,
      '_blank, _self, _parent or _top',
    )
  })

  // docs/rules.md#configuration: merchants have key, password, mids.
  it.each(['key', 'password', 'mids'])('refuses a merchant without %s', (field) => {
    expectInvalidAt(CONFIG, withField(minimal, `merchants.0.${field}`, undefined), `merchants[0].${field}`)
  })

  // docs/rules.md#callback-destination: "the merchant's `notification_url` (optional in the configuration; none and no `callback_url`
  // means no callbacks for that payment, ever)"; "Retries are per merchant … off with `callbacks.retries: false`".
  it('accepts a merchant without notification_url, and callbacks.retries per merchant and sandbox-wide', () => {
    expectValid(CONFIG, withField(minimal, 'merchants.0.notification_url', undefined))
    expectValid(
      CONFIG,
      withField({ ...minimal, callbacks: { retries: false } }, 'merchants.0.callbacks', { retries: true }),
    )
    expectInvalidAt(
      CONFIG,
      withField(minimal, 'merchants.0.callbacks', { retries: 'no' }),
      'merchants[0].callbacks.retries',
    )
  })

  // docs/rules.md#session-expiry: "`session_expiry` is in minutes, 1 to 720"
  it('refuses a default session expiry outside 1..720 minutes', () => {
    expectInvalidAt(
      CONFIG,
      { ...minimal, sessions: { default_expiry_minutes: 721 } },
      'sessions.default_expiry_minutes',
    )
    expectInvalidAt(
      CONFIG,
      { ...minimal, sessions: { default_expiry_minutes: 0 } },
      'sessions.default_expiry_minutes',
    )
  })

  // docs/rules.md#session-expiry: "The sandbox clock is virtual: it can be advanced"
  it('refuses an unknown clock mode and unknown keys', () => {
    expectInvalidAt(CONFIG, { ...minimal, clock: { mode: 'frozen' } }, 'clock.mode')
    expectInvalidAt(CONFIG, { ...minimal, port: 8080 }, 'port', 'not expected')
    expectInvalidAt(CONFIG, withField(minimal, 'merchants.0.mids.0.moto', 'yes'), `${mid}.moto`)
  })

  it('refuses a non-URL notification_url and an empty MID list', () => {
    expectInvalidAt(
      CONFIG,
      withField(minimal, 'merchants.0.notification_url', 'localhost/cb'),
      'merchants[0].notification_url',
    )
    expectInvalidAt(CONFIG, withField(minimal, 'merchants.0.mids', []), 'merchants[0].mids')
  })

  // 2.2.3: wallet1 admin settings include Merchant Identifier, Country, Shop Name.
  it('checks wallet settings with the method schemas', () => {
    const wallets = { wallet1: { country: 'DE', shop_name: 'Shop' } }
    expectInvalidAt(
      CONFIG,
      withField(minimal, 'merchants.0.wallets', wallets),
      'merchants[0].wallets.wallet1.merchant_identifier',
    )
  })
})

describe('Protocol Mapping', () => {
  // Events: "Return additional parameters (empty by default; available: payment method) appends further
  // parameters, for example `payment_method` and `brand`"
  it('allows payment_method and brand as additional parameters, nothing else', () => {
    expectValid(MAPPING, { return_additional_parameters: ['payment_method', 'brand'] })
    expectInvalidAt(
      MAPPING,
      { return_additional_parameters: ['currency'] },
      'return_additional_parameters[0]',
    )
    expectInvalidAt(
      MAPPING,
      { return_additional_parameters: ['brand', 'brand'] },
      'return_additional_parameters',
    )
  })

  // 2.1.3: "the four fields payer_address, payer_country, payer_city, payer_zip are optional unless the Protocol
  // Mapping marks them Required"
  it('knows Optional and Required for the four payer address fields only', () => {
    expectValid(MAPPING, { payer_address_fields: { payer_zip: 'Required' } })
    expectInvalidAt(
      MAPPING,
      { payer_address_fields: { payer_zip: 'Mandatory' } },
      'payer_address_fields.payer_zip',
    )
    expectInvalidAt(
      MAPPING,
      { payer_address_fields: { payer_state: 'Required' } },
      'payer_address_fields.payer_state',
    )
  })

  // 2.1.3: "Values: en, sp, ar, ... When omitted: Protocol Mapping default language, then the payer's browser language."
  it('takes a listed default language or null', () => {
    expectValid(MAPPING, { default_language: 'zh-TW' })
    expectValid(MAPPING, { default_language: null })
    expectInvalidAt(MAPPING, { default_language: 'es' }, 'default_language')
  })

  // Events: T&C "link to the merchant's own terms URL when set"
  it('checks the Terms & Conditions options', () => {
    expectValid(MAPPING, { terms_and_conditions: { enabled: true, url: 'https://shop.example/terms' } })
    expectInvalidAt(MAPPING, { terms_and_conditions: { enabled: 'yes' } }, 'terms_and_conditions.enabled')
    expectInvalidAt(MAPPING, { terms_and_conditions: { url: 'terms.html' } }, 'terms_and_conditions.url')
  })

  // 2.5: "`moto_type` is returned in the SALE response, the callback and the status response" and Events:
  // `creditvoid_id` "No mapping setting is needed for it": no flag exists for them.
  it.each(['moto_type', 'creditvoid_id', 'custom_data'])('has no flag for %s (always returned)', (name) => {
    expectInvalidAt(MAPPING, { callback_fields: { [name]: true } }, `callback_fields.${name}`, 'not expected')
  })

  // Events: "Payer attributes (individually configurable): payer_first_name, ..., payer_ip."
  it('has one flag per payer attribute', () => {
    const md = interfaceExcerpt('events')
    const line = md.split('\n').find((l) => l.startsWith('- Payer attributes (individually configurable):'))
    expect(line, 'the Payer attributes line of Events').toBeDefined()
    const names =
      (line as string)
        .split(':')[1]
        ?.replace(/\.$/, '')
        .split(',')
        .map((s) => s.trim()) ?? []
    expect(names.length).toBe(15)
    expectValid(MAPPING, { payer_attributes: Object.fromEntries(names.map((n) => [n, true])) })
    expectInvalidAt(
      MAPPING,
      { payer_attributes: { payer_nickname: true } },
      'payer_attributes.payer_nickname',
    )
  })
})

describe('merchant adapter (docs/conformance.md)', () => {
  const adapter = load('merchant-adapter-example.json')

  it('the example is valid', () => {
    expectValid(ADAPTER, adapter)
  })

  it('needs credentials, a base URL, a start hook and a callback path', () => {
    expectInvalidAt(ADAPTER, withField(adapter, 'credentials.password', undefined), 'credentials.password')
    expectInvalidAt(ADAPTER, withField(adapter, 'notification_path', undefined), 'notification_path')
    expectInvalidAt(ADAPTER, withField(adapter, 'base_url', 'localhost:3000'), 'base_url')
    expectInvalidAt(ADAPTER, withField(adapter, 'start_payment', {}), 'start_payment')
    expectInvalidAt(ADAPTER, { ...adapter, paypal: {} }, 'paypal')
  })

  it('takes a shell command instead of an HTTP hook, and no process for a running integration', () => {
    const { process: _started, ...running } = adapter as Record<string, unknown>
    expectValid(ADAPTER, { ...running, start_payment: { command: ['./start-payment.sh'] } })
  })
})
