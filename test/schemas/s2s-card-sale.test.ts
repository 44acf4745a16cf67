import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { validate } from '../../src/core/validation/index.js'
import { chars, expectInvalidAt, expectValid, withField } from '../helpers/schema.js'

type Form = Record<string, unknown>
const fixture = (name: string): Form =>
  JSON.parse(readFileSync(new URL(`../../fixtures/payloads/s2s-card/${name}.json`, import.meta.url), 'utf8'))
const valid = (schema: string, data: unknown) => expectValid(schema, data, 'bracket')
const invalidAt = (schema: string, data: unknown, path: string, message?: string) =>
  expectInvalidAt(schema, data, path, message, 'bracket')
/** Refused, and for this field only: the boundary value breaks nothing else. */
const refusedOnlyAt = (schema: string, data: unknown, path: string, message?: string) => {
  const error = invalidAt(schema, data, path, message)
  expect(validate(schema, data, { pathStyle: 'bracket' }).errors.map((e) => e.path)).toEqual([path])
  return error
}

const SALE = 's2s-card/sale-request'
const sale = fixture('sale-request.basic')
const withMpi = fixture('sale-request.mpi-data')
const mpi = (field: string, value: unknown) => withField(withMpi, `mpi_data.${field}`, value)

describe('S2S CARD SALE: mpi_data (2.4)', () => {
  // 2.4: "mpi_data[eci] | yes | exactly 2 characters"
  it('accepts eci of exactly 2 characters and refuses 1 or 3', () => {
    valid(SALE, mpi('eci', '05'))
    const short = refusedOnlyAt(SALE, mpi('eci', '5'), 'mpi_data[eci]', 'exactly 2 characters')
    expect(short.section).toBe('2.4')
    refusedOnlyAt(SALE, mpi('eci', '050'), 'mpi_data[eci]', 'exactly 2 characters')
  })
  // 2.4: "mpi_data[authentication_value] | yes | 28 to 64 characters"
  it.each([28, 64])('accepts an authentication_value of %i characters', (n) => {
    valid(SALE, mpi('authentication_value', chars(n, 'A')))
  })
  it.each([27, 65])('refuses an authentication_value of %i characters', (n) => {
    refusedOnlyAt(SALE, mpi('authentication_value', chars(n, 'A')), 'mpi_data[authentication_value]')
  })
  // 2.4: "mpi_data[xid] | no | up to 64 characters"
  it('accepts an xid of 64 characters, refuses 65, and accepts its absence', () => {
    valid(SALE, mpi('xid', chars(64, 'x')))
    refusedOnlyAt(SALE, mpi('xid', chars(65, 'x')), 'mpi_data[xid]', 'too long')
    valid(SALE, mpi('xid', undefined))
  })
  // 2.4: "mpi_data[ds_trans_id] | yes | UUID"
  it.each([
    'not-a-uuid',
    'f25084f0-5b16-4c0a-ae5d-b24808a95e4',
    'f25084f05b164c0aae5db24808a95e4b',
    'urn:uuid:f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
  ])('refuses ds_trans_id %s', (value) => {
    refusedOnlyAt(SALE, mpi('ds_trans_id', value), 'mpi_data[ds_trans_id]', 'not a valid UUID')
  })
  // 2.4: "mpi_data[ds_trans_id] | yes | UUID" (hexadecimal digits are case-insensitive in RFC 4122).
  it('accepts an upper-case UUID as ds_trans_id', () => {
    valid(SALE, mpi('ds_trans_id', 'F25084F0-5B16-4C0A-AE5D-B24808A95E4B'))
  })
  // 2.4: "mpi_data[3ds_version] | yes | X.Y.Z"
  it.each(['2.1.0', '2.2.0', '1.0.2', '2.10.11'])('accepts 3ds_version %s', (version) => {
    valid(SALE, mpi('3ds_version', version))
  })
  it.each(['2.1', '2', '2.1.0.1', 'v2.1.0', '2.x.0'])('refuses 3ds_version %s', (version) => {
    refusedOnlyAt(SALE, mpi('3ds_version', version), 'mpi_data[3ds_version]')
  })
  // 2.4: "mpi_data[trans_status] | no | one uppercase letter"; "the payment is not declined because of
  // `trans_status` values N, U or R".
  it.each(['Y', 'N', 'U', 'R', 'A'])('accepts trans_status %s', (status) => {
    valid(SALE, mpi('trans_status', status))
  })
  it.each(['y', 'n', 'YY', '1', ''])('refuses trans_status %s', (status) => {
    refusedOnlyAt(SALE, mpi('trans_status', status), 'mpi_data[trans_status]')
  })
  it('accepts mpi_data without trans_status', () => {
    valid(SALE, mpi('trans_status', undefined))
  })
  // 2.4: eci, authentication_value, ds_trans_id and 3ds_version are "Required: yes".
  it.each(['eci', 'authentication_value', 'ds_trans_id', '3ds_version'])('requires mpi_data[%s]', (field) => {
    refusedOnlyAt(SALE, mpi(field, undefined), `mpi_data[${field}]`, 'should not be blank')
  })
  // 2.4: "Optional object on `action=SALE`, also with `recurring_init=Y`".
  it('accepts a SALE without mpi_data and with mpi_data plus recurring_init=Y', () => {
    valid(SALE, sale)
    valid(SALE, withField(withMpi, 'recurring_init', 'Y'))
  })
})

describe('S2S CARD SALE: MOTO (2.5)', () => {
  // 2.1: "moto_type | string | `phone_moto`, `email_moto`, `default_moto`, `ecommerce`."
  it.each(['phone_moto', 'email_moto', 'default_moto', 'ecommerce'])('accepts moto_type %s', (value) => {
    valid(SALE, withField(sale, 'moto_type', value))
  })
  it.each(['moto', 'PHONE_MOTO', 'mail_moto', ''])('refuses moto_type %s', (value) => {
    const error = invalidAt(SALE, withField(sale, 'moto_type', value), 'moto_type', 'not a valid choice')
    expect(error.section).toBe('2.5')
  })
  // 2.5: "For a MOTO value: the card security code is optional".
  it.each(['phone_moto', 'email_moto', 'default_moto'])('accepts no card_cvv2 with moto_type %s', (value) => {
    valid(SALE, withField(withField(sale, 'card_cvv2', undefined), 'moto_type', value))
  })
  // 2.5: `ecommerce` is not a MOTO value, so the security code stays required.
  it('requires card_cvv2 with moto_type ecommerce and without moto_type', () => {
    const noCvv = withField(sale, 'card_cvv2', undefined)
    refusedOnlyAt(SALE, withField(noCvv, 'moto_type', 'ecommerce'), 'card_cvv2', 'should not be blank')
    refusedOnlyAt(SALE, noCvv, 'card_cvv2', 'should not be blank')
  })
  // 2.5: "`moto_type` ... is accepted on S2S CARD SALE (also with `auth=Y`)".
  it('accepts a MOTO authorization without card_cvv2 (SALE auth=Y and AUTH)', () => {
    valid(SALE, withField(fixture('sale-request.moto'), 'auth', 'Y'))
    valid('s2s-card/auth-request', fixture('auth-request.moto'))
    const auth = withField(fixture('auth-request.basic'), 'card_cvv2', undefined)
    invalidAt('s2s-card/auth-request', auth, 'card_cvv2', 'should not be blank')
  })
  // 2.5 names SALE only: DEBIT has no MOTO, so the security code stays required there.
  it('still requires card_cvv2 on DEBIT whatever moto_type says', () => {
    const debit = withField(fixture('debit-request.basic'), 'card_cvv2', undefined)
    invalidAt(
      's2s-card/debit-request',
      withField(debit, 'moto_type', 'phone_moto'),
      'card_cvv2',
      'should not be blank',
    )
  })
  // 2.5: "For a MOTO value: the card security code is optional" — optional, still checked when sent.
  it('keeps checking the form of a card_cvv2 that is sent with a MOTO value', () => {
    const moto = withField(sale, 'moto_type', 'phone_moto')
    refusedOnlyAt(SALE, withField(moto, 'card_cvv2', '12'), 'card_cvv2')
  })
})

describe('S2S CARD SALE: card data or card_token', () => {
  // 2.1: "card_token | string | Token of a saved card." 2.3: secondary payments go "without card data".
  it('accepts card_token instead of the card data', () => {
    valid(SALE, fixture('sale-request.card-token'))
    valid('s2s-card/debit-request', withField(fixture('sale-request.card-token'), 'action', 'DEBIT'))
  })
  // 2.1: "card_token | string | Token of a saved card." Without it the card itself must be sent.
  it.each(['card_number', 'card_exp_month', 'card_exp_year'])(
    'requires %s when no card_token is sent',
    (field) => {
      refusedOnlyAt(SALE, withField(sale, field, undefined), field, 'should not be blank')
    },
  )
  // docs/rules.md#beyond-the-interface names the card fields card_number, card_exp_month, card_exp_year, card_cvv2 (forms: schema descriptions).
  it.each([
    ['card_number', '4111 1111 1111 1111'],
    ['card_number', '41111111111'],
    ['card_exp_month', '1'],
    ['card_exp_month', '13'],
    ['card_exp_month', '00'],
    ['card_exp_year', '39'],
    ['card_cvv2', '12345'],
    ['card_cvv2', 'abc'],
  ])('refuses %s = %s', (field, value) => {
    refusedOnlyAt(SALE, withField(sale, field, value), field)
  })
  // docs/rules.md#test-cards: "`1111222233334444`: "Brand of card does not support."" — the engine's answer, not the schema's.
  it('lets the unsupported-brand test card through to the engine', () => {
    valid(SALE, withField(sale, 'card_number', '1111222233334444'))
  })
})

describe('S2S CARD SALE: payer fields (2.1.3, 6.7.0)', () => {
  // 2.1.3: "the four fields payer_address, payer_country, payer_city, payer_zip are optional unless the Protocol
  // Mapping marks them Required (default mappings mark them Optional)".
  it.each(['payer_address', 'payer_country', 'payer_city', 'payer_zip', 'payer_state'])(
    'accepts a SALE without %s',
    (field) => {
      valid(SALE, withField(sale, field, undefined))
    },
  )
  // 6.7.0: "S2S CARD payer address fields optional".
  it('accepts a SALE with none of the address fields', () => {
    valid(SALE, fixture('sale-request.no-address'))
  })
  // docs/rules.md#s2s-card-formulas: the SALE signature is md5(upper(rev(payer_email) + password + ...)): the e-mail is needed.
  it.each(['payer_email', 'payer_ip', 'payer_first_name', 'payer_last_name', 'payer_phone', 'term_url_3ds'])(
    'requires %s',
    (field) => {
      refusedOnlyAt(SALE, withField(sale, field, undefined), field, 'should not be blank')
    },
  )
  // 2.1.3: "country | ISO 3166-1 alpha-2"; "phone_country_code | Digits, up to 10 characters"; 2.1.2 e-mail and IP.
  it.each([
    ['payer_email', 'doe@'],
    ['payer_ip', '203.0.113'],
    ['payer_country', 'USA'],
    ['payer_phone_country_code', '+1'],
    ['payer_phone_country_code', '12345678901'],
    ['term_url_3ds', 'merchant.example.com/3ds'],
    ['payer_first_name', chars(33)],
  ])('refuses %s = %s', (field, value) => {
    refusedOnlyAt(SALE, withField(sale, field, value), field)
  })
  // 2.1.3: "phone_country_code | Digits, up to 10 characters, a hyphen allowed for composite codes."
  it('accepts a composite payer_phone_country_code', () => {
    valid(SALE, withField(sale, 'payer_phone_country_code', '1-684'))
  })
  // 2.1.3: "language ... Case-insensitive; not validated; an unlisted value falls back to English." and
  // "On S2S requests the equivalent request-only parameter is `payer_language`".
  it.each(['EN', 'zh-TW', 'xx'])('accepts payer_language %s', (language) => {
    valid(SALE, withField(sale, 'payer_language', language))
  })
})

describe('S2S CARD SALE: order, flags and signature', () => {
  // 2.1.1: "amount | string (decimal, dot separator)"; "currency | ISO 4217 alphabetic code".
  it('checks the amount against the currency decimals', () => {
    valid(SALE, fixture('sale-request.zero-decimal-currency'))
    refusedOnlyAt(SALE, withField(sale, 'order_amount', '10.001'), 'order_amount', '2 decimals')
    refusedOnlyAt(SALE, withField(sale, 'order_amount', '10,00'), 'order_amount')
    refusedOnlyAt(SALE, withField(sale, 'order_currency', 'usd'), 'order_currency', 'not a valid currency')
  })
  // Errors: "Zero amount on plain SALE or purchase | ... | amount: This value should be greater than 0." — that depends
  // on auth, recurring_init and the MID, so the engine decides; the schema accepts the form.
  it('leaves the zero-amount decision to the engine', () => {
    valid(SALE, withField(sale, 'order_amount', '0.00'))
  })
  // 2.3: "`recurring_init` (... `recurring_init=Y` on S2S)"; Endpoints: "SALE (with `auth=Y` for authorization-only)".
  it.each(['auth', 'recurring_init', 'req_token', 'payer_present'])('accepts %s Y and N only', (field) => {
    valid(SALE, withField(sale, field, 'Y'))
    valid(SALE, withField(sale, field, 'N'))
    refusedOnlyAt(SALE, withField(sale, field, 'y'), field, 'not a valid choice')
    refusedOnlyAt(SALE, withField(sale, field, 'true'), field, 'not a valid choice')
  })
  // 2.7: "`parameters` object (S2S CARD notation `parameters[key]`...) is accepted on S2S CARD SALE".
  // 2.1: "custom_data | object | Free-form object stored with the transaction and returned in the callback."
  it('accepts nested parameters and custom_data', () => {
    valid(SALE, fixture('sale-request.auth-recurring-init'))
  })
  // Authentication: every request carries the signature; docs/rules.md#signatures gives the S2S CARD formulas.
  it.each(['client_key', 'hash', 'order_id', 'order_amount', 'order_currency', 'order_description'])(
    'requires %s',
    (field) => {
      refusedOnlyAt(SALE, withField(sale, field, undefined), field, 'should not be blank')
    },
  )
  // Authentication 1: every request carries "a request signature in `hash`"; a blank one is no signature.
  it('refuses an empty hash and an empty order_id', () => {
    refusedOnlyAt(SALE, withField(sale, 'hash', ''), 'hash', 'should not be blank')
    refusedOnlyAt(SALE, withField(sale, 'order_id', ''), 'order_id', 'should not be blank')
  })
})
