/**
 * Method parameter schemas of 2.2.2 (parameters.<identifier>): required parameters refused when
 * missing, every method limit of the Limits table at its boundary, listed values refused when
 * unlisted. All three are table-driven: REQUIRED, LIMITS and ENUMS below.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { validate } from '../../src/core/validation/index.js'
import { chars, expectInvalidAt, expectValid } from '../helpers/schema.js'

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/payloads/methods')
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>
const schemaOf = (id: string) => `methods/${id}.schema.json`

/** Deep copy of `base` with `value` at `path` (`a.b`, `list[0].x`); undefined deletes. */
function put(base: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(base)
  const keys = path.split(/\.|(?=\[)/).map((k) => (k.startsWith('[') ? Number(k.slice(1, -1)) : k))
  let node = copy as Record<string | number, unknown>
  keys.forEach((key, i) => {
    if (i === keys.length - 1) {
      if (value === undefined) delete node[key]
      else node[key] = value
      return
    }
    node[key] ??= typeof keys[i + 1] === 'number' ? [] : {}
    node = node[key] as Record<string | number, unknown>
  })
  return copy
}

const INF_COMMON = [
  'amount',
  'expiryDate',
  'callbackUrl',
  'reference',
  'merchantType',
  'merchantName',
  'accountId',
  'market',
  'type',
  'currency',
]

/** [identifier, fixture, required parameters, the interface's words]. */
const REQUIRED: [string, string, string[], string][] = [
  ['awcc', 'awcc.full', ['crypto_type'], 'awcc | crypto_type | string | Required'],
  [
    'bankMY',
    'bankMY.full',
    ['bank_code', 'bank_account_number'],
    'bankMY | bank_code ... Required; bank_account_number ... Required',
  ],
  ['cryptoA', 'cryptoA.full', ['cryptoCurrency'], 'cryptoA | cryptoCurrency | string | Required'],
  [
    'm2p-debit',
    'm2p-debit.full',
    ['paymentGatewayName', 'paymentCurrency'],
    'm2p-debit | paymentGatewayName / paymentCurrency | Required',
  ],
  [
    'm2p-withdrawal',
    'm2p-withdrawal.full',
    ['withdrawCurrency', 'address'],
    'm2p-withdrawal | withdrawCurrency / address | Required',
  ],
  [
    'next-level-finance',
    'next-level-finance.full',
    ['toCurrency'],
    'next-level-finance | toCurrency | Required',
  ],
  ['paythrough-upi', 'paythrough-upi.full', ['upi_id'], 'paythrough-upi | upi_id | Required'],
  ['sz-in-upi', 'sz-in-upi.full', ['upiAddress'], 'sz-in-upi | upiAddress | Required'],
  [
    'bnplA',
    'bnplA.full',
    ['category', 'buyer_registered_since', 'buyer_loyalty_level'],
    'bnplA | category, buyer_registered_since, buyer_loyalty_level | Required',
  ],
  [
    'bnplB',
    'bnplB.full',
    [
      'shipping_amount',
      'tax_amount',
      'product_amount',
      'product_reference_id',
      'product_type',
      'product_sku',
    ],
    'bnplB | shipping_amount, tax_amount, product_amount / product_reference_id, product_type, product_sku | Required',
  ],
  [
    'openbankA',
    'openbankA.full',
    ['payee_name', 'payee_country', 'payee_identifications'],
    'openbankA | payee_name, payee_country / payee_identifications | Required',
  ],
  [
    'smlpz-out-india',
    'smlpz-out-india.full',
    ['paymentMethod', 'cashAccount', 'ifscCode'],
    'Parameters (all mandatory unless marked)',
  ],
  [
    'smlpz-out-indonesia',
    'smlpz-out-indonesia.full',
    ['paymentMethod', 'cashAccount'],
    'paymentMethod, cashAccount; optional: name, accountNo',
  ],
  [
    'smlpz-out-thailand',
    'smlpz-out-thailand.full',
    ['paymentMethod', 'cashAccount'],
    'paymentMethod, cashAccount (up to 32)',
  ],
  [
    'smlpz-out-mexico',
    'smlpz-out-mexico.full',
    ['paymentMethod', 'cashAccount'],
    'paymentMethod (up to 6), cashAccount (up to 32)',
  ],
  [
    'smlpz-out-brasil',
    'smlpz-out-brasil.full',
    ['paymentMethod', 'cashAccount', 'taxNumber'],
    'paymentMethod, cashAccount, taxNumber',
  ],
  [
    'smlpz-out-colombia',
    'smlpz-out-colombia.full',
    ['paymentMethod', 'cashAccount', 'cashAccountType', 'idType', 'identity'],
    'paymentMethod, cashAccount, cashAccountType, idType, identity',
  ],
  [
    'smlpz-out-peru',
    'smlpz-out-peru.full',
    [
      'paymentMethod',
      'cashAccount',
      'cashAccountType',
      'cci',
      'name',
      'email',
      'phone',
      'idType',
      'identity',
    ],
    'paymentMethod, cashAccount, cashAccountType, cci, name, email, phone, idType, identity',
  ],
  ['inf-br-qr-copy', 'inf-br-qr-copy.full', INF_COMMON, 'Common request parameters, all required'],
  [
    'inf-ar-btr-offline',
    'inf-ar-btr-offline.full',
    [...INF_COMMON, 'redirectUrl', 'clientTaxId'],
    'inf-ar-btr-offline | `OFFLINE` | redirectUrl (string), clientTaxId',
  ],
  [
    'inf-py-btr-offline',
    'inf-py-btr-offline.full',
    [...INF_COMMON, 'redirectUrl', 'clientname'],
    'inf-py-btr-offline | redirectUrl, clientname',
  ],
  [
    'inf-pe-btr-offline',
    'inf-pe-btr-offline.full',
    [...INF_COMMON, 'redirectUrl', 'clientname'],
    'inf-pe-btr-offline | redirectUrl, clientname',
  ],
  [
    'inf-pe-offline-service-payment',
    'inf-pe-offline-service-payment.full',
    [...INF_COMMON, 'redirectUrl'],
    'inf-pe-offline-service-payment | redirectUrl',
  ],
  [
    'inf-cl-btr-offline',
    'inf-cl-btr-offline.full',
    [...INF_COMMON, 'redirectUrl', 'clientTaxId'],
    'inf-cl-btr-offline | redirectUrl, clientTaxId',
  ],
  [
    'inf-mx-btr-spei',
    'inf-mx-btr-spei.full',
    [...INF_COMMON, 'redirectUrl'],
    'inf-mx-btr-spei | `SPEI` | redirectUrl',
  ],
  [
    'inf-ar-btr-pull',
    'inf-ar-btr-pull.full',
    INF_COMMON,
    'inf-ar-btr-pull | bankDetails.cbu, bankDetails.alias (collected at interaction)',
  ],
  [
    'inf-pe-btr-pull',
    'inf-pe-btr-pull.full',
    INF_COMMON,
    'inf-pe-btr-pull | bankDetails.phoneNumber, bankDetails.otp (collected at interaction)',
  ],
  ['saq-payin', 'saq-payin.full', ['fine'], 'saq-payin | fine | Mandatory'],
  ['saq-payout', 'saq-payout.random-key', ['key'], 'saq-payout | parameters[key] | Mandatory'],
  [
    'voucherA-deposit',
    'voucherA-deposit.full',
    ['payer_id'],
    'voucherA-deposit: "Requires ... merchant-side unique payer id"',
  ],
]

describe('required parameters of each 2.2.2 row are refused when missing', () => {
  for (const [id, name, fields, quote] of REQUIRED) {
    it(`${id}: ${fields.join(', ')} (${quote})`, () => {
      const base = fixture(name)
      expectValid(schemaOf(id), base)
      for (const field of fields) {
        expectInvalidAt(schemaOf(id), put(base, field, undefined), field, 'This value should not be blank.')
        if (typeof base[field] === 'string') expectInvalidAt(schemaOf(id), put(base, field, ''), field)
      }
    })
    it(`${id}: nothing but ${fields.length} parameter(s) is required`, () => {
      const result = validate(schemaOf(id), {})
      const missing = result.errors.filter((e) => e.keyword === 'required').map((e) => e.path)
      expect(missing.sort()).toEqual([...fields].sort())
    })
  }

  it('rows that are Conditional or Optional accept an empty parameter object', () => {
    // e.g. "dl, procA | document_number | Conditional; collected on the page when absent."
    const optionalOnly = [
      'bts-ars',
      'bts-mxn',
      'dl',
      'procA',
      'procB',
      'doku-hpp',
      'walletTR',
      'payok-upi',
      'pyk-upi',
      'pyk-pix',
      'pyk-iban',
      'pyk-momo',
      'pyk-viettelpay',
      'pyk-zalopay',
      'pyk-nequipush',
      'pyk-bkmexpress',
      'pyk-paparawallet',
      'pyk-promptpay',
      'pyk-truemoney',
      'ptn-email',
      'ptn-sms',
      'yo-uganda-limited',
      'swifipay-withdrawal',
      'kora-mobile-money',
      'paycash-mexico',
    ]
    for (const id of optionalOnly) expectValid(schemaOf(id), {})
  })

  it('openbankA payee_identifications entries need both type and identification', () => {
    // "objects with `type` and `identification` (both required strings)"
    const base = fixture('openbankA.full')
    expectInvalidAt(
      schemaOf('openbankA'),
      put(base, 'payee_identifications[0].type', undefined),
      'payee_identifications[0].type',
      'should not be blank',
    )
    expectInvalidAt(
      schemaOf('openbankA'),
      put(base, 'payee_identifications[1].identification', undefined),
      'payee_identifications[1].identification',
      'should not be blank',
    )
    expectInvalidAt(
      schemaOf('openbankA'),
      put(base, 'payee_identifications', []),
      'payee_identifications',
      '1 element or more',
    )
  })
})

/** One limit: values accepted at the limit, values one past it refused (with part of the message). */
interface Limit {
  ids: string[]
  base: (id: string) => Record<string, unknown>
  field: string
  accepted: unknown[]
  refused: [unknown, string][]
  quote: string
}
const empty = () => ({})
const full = (id: string) => fixture(`${id}.full`)
const PYK_BANK = ['pyk-bkmexpress', 'pyk-paparawallet', 'pyk-promptpay', 'pyk-truemoney']
const PAYCASH = [
  'guatemala',
  'honduras',
  'panama',
  'colombia',
  'costarica',
  'ecuador',
  'dominicana',
  'peru',
  'chile',
  'mexico',
].map((c) => `paycash-${c}`)

const LIMITS: Limit[] = [
  {
    ids: ['ptn-email', 'ptn-sms'],
    base: empty,
    field: 'SecurityQuestionAnswer',
    accepted: [chars(3), chars(25), 'a-b_c!d'],
    refused: [
      [chars(2), 'It should have 3 characters or more.'],
      [chars(26), 'It should have 25 characters or less.'],
      ['my answer', 'Spaces are not allowed.'],
      ['tab\there', 'Spaces are not allowed.'],
    ],
    quote: 'Limits: "SecurityQuestionAnswer | 3 to 25 characters, no spaces"',
  },
  {
    ids: PYK_BANK,
    base: empty,
    field: 'accountName',
    accepted: [chars(1), chars(64)],
    refused: [
      ['', 'It should have 1 character or more.'],
      [chars(65), 'It should have 64 characters or less.'],
    ],
    quote: 'Limits: "accountName (bank-type methods) | 1 to 64 characters"',
  },
  {
    ids: ['doku-hpp'],
    base: empty,
    field: 'product_reference_id',
    accepted: [chars(64)],
    refused: [[chars(65), 'It should have 64 characters or less.']],
    quote: 'Limits: "doku-hpp product_reference_id / product_name / product_quantity | 64 / 255 / 4"',
  },
  {
    ids: ['doku-hpp'],
    base: empty,
    field: 'product_name',
    accepted: [chars(255)],
    refused: [[chars(256), 'It should have 255 characters or less.']],
    quote: 'Limits: "doku-hpp ... product_name ... 255"',
  },
  {
    ids: ['doku-hpp'],
    base: empty,
    field: 'product_quantity',
    accepted: [9999, '9999', 0, '1'],
    refused: [
      [10000, 'at most 4 digits'],
      ['10000', 'at most 4 digits'],
      [-1, 'at most 4 digits'],
      [1.5, 'at most 4 digits'],
    ],
    quote: 'doku-hpp | product_quantity | number | Conditional, max 4 digits.',
  },
  {
    ids: ['saq-payin'],
    base: () => fixture('saq-payin.minimal'),
    field: 'debtor_name',
    accepted: [chars(25)],
    refused: [[chars(26), 'It should have 25 characters or less.']],
    quote: 'Limits: "saq debtor name | 25 characters"',
  },
  {
    ids: ['kora-mobile-money'],
    base: empty,
    field: 'reference',
    accepted: [chars(8), chars(64)],
    refused: [[chars(7), 'It should have 8 characters or more.']],
    quote: 'Limits: "kora-type public reference | at least 8 characters"',
  },
  {
    ids: PAYCASH,
    base: empty,
    field: 'public_id',
    accepted: [chars(40), 'Order 1001'],
    refused: [[chars(41), 'It should have 40 characters or less.']],
    quote: 'Limits: "paycash public id | up to 40 characters"',
  },
  {
    ids: [
      'smlpz-out-india',
      'smlpz-out-indonesia',
      'smlpz-out-mexico',
      'smlpz-out-brasil',
      'smlpz-out-colombia',
      'smlpz-out-peru',
    ],
    base: full,
    field: 'paymentMethod',
    accepted: [chars(6, 'A')],
    refused: [[chars(7, 'A'), 'It should have 6 characters or less.']],
    quote: 'paymentMethod (up to 6)',
  },
  {
    ids: [
      'smlpz-out-india',
      'smlpz-out-indonesia',
      'smlpz-out-thailand',
      'smlpz-out-mexico',
      'smlpz-out-brasil',
      'smlpz-out-colombia',
      'smlpz-out-peru',
    ],
    base: full,
    field: 'cashAccount',
    accepted: [chars(32, '1')],
    refused: [[chars(33, '1'), 'It should have 32 characters or less.']],
    quote: 'cashAccount (up to 32)',
  },
  {
    ids: ['smlpz-out-thailand'],
    base: full,
    field: 'paymentMethod',
    accepted: [chars(40, 'A')],
    refused: [['', 'should not be blank']],
    quote: 'smlpz-out-thailand | paymentMethod, cashAccount (up to 32): no size for paymentMethod',
  },
  {
    ids: ['smlpz-out-india'],
    base: full,
    field: 'ifscCode',
    accepted: ['SBIN0001234', 'hdfc0000123'],
    refused: [
      ['SBIN000123', 'not a valid IFSC code'],
      ['SBIN00012345', 'not a valid IFSC code'],
      ['SBIN1001234', 'not a valid IFSC code'],
      [chars(17, 'A'), 'It should have 16 characters or less.'],
    ],
    quote: 'ifscCode (11-character code, up to 16)',
  },
  {
    ids: ['smlpz-out-brasil'],
    base: full,
    field: 'taxNumber',
    accepted: [chars(11, '1'), chars(14, '1')],
    refused: [
      [chars(10, '1'), '11 digits (CPF) or 14 digits (CNPJ)'],
      [chars(12, '1'), '11 digits (CPF) or 14 digits (CNPJ)'],
      [chars(15, '1'), '11 digits (CPF) or 14 digits (CNPJ)'],
      ['123.456.789-09', '11 digits (CPF) or 14 digits (CNPJ)'],
    ],
    quote: 'taxNumber (11 or 14 digits)',
  },
  {
    ids: ['smlpz-out-peru'],
    base: full,
    field: 'cci',
    accepted: [chars(20, '0')],
    refused: [
      [chars(19, '0'), 'It should have 20 characters or more.'],
      [chars(21, '0'), 'It should have 20 characters or less.'],
    ],
    quote: 'cci (20 characters)',
  },
  {
    ids: ['saq-payin'],
    base: () => fixture('saq-payin.minimal'),
    field: 'branch_identifier',
    accepted: ['0001', '9999'],
    refused: [
      ['001', 'exactly 4 digits'],
      ['00001', 'exactly 4 digits'],
      ['ab12', 'exactly 4 digits'],
    ],
    quote: 'saq-payin | parameters[branch_identifier] | Optional; 4 digits',
  },
  {
    ids: ['saq-payout'],
    base: () => fixture('saq-payout.random-key'),
    field: 'branch_identifier',
    accepted: ['0001'],
    refused: [['12345', 'exactly 4 digits']],
    quote: 'saq-payout | parameters[branch_identifier] | Mandatory; 4 digits',
  },
  {
    ids: ['saq-payin'],
    base: () => fixture('saq-payin.minimal'),
    field: 'debtor_document',
    accepted: [chars(11, '1'), chars(14, '1')],
    refused: [
      [chars(12, '1'), '11 digits (CPF) or 14 digits (CNPJ)'],
      [chars(15, '1'), '11 digits (CPF) or 14 digits (CNPJ)'],
    ],
    quote: 'saq-payin | parameters[debtor_document] | Optional; 11 digits (CPF) or 14 digits (CNPJ)',
  },
  {
    ids: ['saq-payout'],
    base: () => fixture('saq-payout.random-key'),
    field: 'key',
    accepted: [
      chars(36, 'a'),
      '123e4567-e89b-12d3-a456-426614174000',
      chars(11, '1'),
      chars(14, '1'),
      `${chars(168, 'a')}@example.com`,
      '5511912345678',
      '+5511912345678',
    ],
    refused: [
      [chars(37, 'a'), 'not a valid instant-payment key'],
      [`${chars(169, 'a')}@example.com`, 'not a valid instant-payment key'],
      ['+551191234567', 'not a valid instant-payment key'],
      ['not a key!', 'not a valid instant-payment key'],
    ],
    quote:
      'random key up to 36 alphanumerics, CPF 11 digits, CNPJ 14 digits, e-mail up to 180 characters, phone 13 digits with country code',
  },
  {
    ids: ['bankMY'],
    base: full,
    field: 'bank_code',
    accepted: ['MBBEMYKL', 'MBBEMYKLXXX'],
    refused: [
      ['MBBEMYK', 'not a valid SWIFT (BIC) code'],
      ['MBBEMYKLXX', 'not a valid SWIFT (BIC) code'],
      ['1234MYKL', 'not a valid SWIFT (BIC) code'],
    ],
    quote: 'bankMY | bank_code | string | Required; SWIFT bank code.',
  },
  {
    ids: ['bnplA'],
    base: full,
    field: 'buyer_registered_since',
    accepted: ['2021-03-04T10:00:00Z', '2021-03-04T10:00:00.123Z', '2021-03-04T10:00:00+00:00'],
    refused: [
      ['2021-03-04T10:00:00+02:00', 'in UTC'],
      ['2021-03-04', 'datetime'],
      ['yesterday', 'datetime'],
    ],
    quote: 'bnplA | buyer_registered_since | string | Required; ISO 8601 UTC datetime.',
  },
  {
    ids: ['bnplA'],
    base: full,
    field: 'buyer_loyalty_level',
    accepted: [0, 42, '7'],
    refused: [
      [-1, 'non-negative whole number'],
      [1.5, 'non-negative whole number'],
      ['many', 'non-negative whole number'],
    ],
    quote: 'bnplA | buyer_loyalty_level | number | Required; default 0; count of successful orders.',
  },
  {
    ids: ['bnplB'],
    base: full,
    field: 'shipping_amount',
    accepted: [0, 4.99, '4.99', '100'],
    refused: [
      [-1, 'non-negative number'],
      ['4,99', 'non-negative number'],
      [true, 'non-negative number'],
    ],
    quote: 'bnplB | shipping_amount, tax_amount, product_amount | number | Required.',
  },
  {
    ids: ['inf-br-qr-copy'],
    base: full,
    field: 'amount',
    accepted: [150.5, '150.50', 0],
    refused: [
      [-150.5, 'non-negative number'],
      ['150,50', 'non-negative number'],
    ],
    quote: 'Common request parameters, all required: amount (double)',
  },
  {
    ids: ['yo-uganda-limited'],
    base: empty,
    field: 'NarrativeFileBase64',
    accepted: ['SW52b2ljZQ==', ''],
    refused: [['not base64!', 'not valid base-64']],
    quote: 'yo-uganda-limited | NarrativeFileBase64 | string | Optional; base-64 file content',
  },
]

describe('method limits at their boundaries (Limits table and 2.2.2 sizes)', () => {
  for (const limit of LIMITS) {
    for (const id of limit.ids) {
      it(`${id}.${limit.field}: ${limit.quote}`, () => {
        const base = limit.base(id)
        for (const value of limit.accepted) expectValid(schemaOf(id), put(base, limit.field, value))
        for (const [value, message] of limit.refused) {
          expectInvalidAt(schemaOf(id), put(base, limit.field, value), limit.field, message)
        }
      })
    }
  }
})

/** [identifier, fixture, field, listed values, an unlisted value, the interface's words]. */
const ENUMS: [string, string, string, unknown[], unknown, string][] = [
  ['awcc', 'awcc.full', 'network_type', ['eth', 'tron'], 'bsc', 'for USDT: `eth` (default) or `tron`'],
  [
    'openbankA',
    'openbankA.full',
    'payee_identifications[0].type',
    [
      'SORT_CODE',
      'ACCOUNT_NUMBER',
      'IBAN',
      'BBAN',
      'BIC',
      'PAN',
      'MASKED_PAN',
      'MSISDN',
      'BSB',
      'NCC',
      'ABA',
      'ABA_WIRE',
      'ABA_ACH',
      'ROLL_NUMBER',
      'BLZ',
      'IFS',
      'CLABE',
      'CTN',
      'BRANCH_CODE',
      'VIRTUAL_ACCOUNT_ID',
    ],
    'SWIFT',
    '`type` values: SORT_CODE, ACCOUNT_NUMBER, ... VIRTUAL_ACCOUNT_ID',
  ],
  [
    'smlpz-out-colombia',
    'smlpz-out-colombia.full',
    'cashAccountType',
    ['CORRIENTE', 'AHORROS'],
    'SAVINGS',
    'cashAccountType (`CORRIENTE` or `AHORROS`)',
  ],
  ['smlpz-out-colombia', 'smlpz-out-colombia.full', 'idType', ['CC', 'CE'], 'DNI', 'idType (`CC` or `CE`)'],
  [
    'smlpz-out-peru',
    'smlpz-out-peru.full',
    'cashAccountType',
    ['CORRIENTE', 'AHORROS'],
    'corriente',
    'cashAccountType (`CORRIENTE` or `AHORROS`)',
  ],
  [
    'smlpz-out-peru',
    'smlpz-out-peru.full',
    'idType',
    ['DNI', 'CE', 'PAS', 'RUC'],
    'CC',
    'idType (`DNI`, `CE`, `PAS`, `RUC`)',
  ],
  [
    'saq-payin',
    'saq-payin.minimal',
    'type_document',
    ['CPF', 'CNPJ'],
    'RG',
    'parameters[type_document] | Optional; `CPF` or `CNPJ`',
  ],
  [
    'saq-payin',
    'saq-payin.full',
    'type_fine',
    ['VALUE', 'PERCENT'],
    'FIXED',
    'interpreted by type_fine (`VALUE`, `PERCENT`, `NONE`)',
  ],
  [
    'inf-br-qr-copy',
    'inf-br-qr-copy.full',
    'type',
    ['PIX'],
    'OFFLINE',
    'inf-br-qr-copy | `PIX`; market is `BR`',
  ],
  ['inf-br-qr-copy', 'inf-br-qr-copy.full', 'market', ['BR'], 'AR', 'inf-br-qr-copy | `PIX`; market is `BR`'],
  [
    'inf-ar-btr-offline',
    'inf-ar-btr-offline.full',
    'type',
    ['OFFLINE'],
    'PULL',
    'inf-ar-btr-offline | `OFFLINE`',
  ],
  [
    'inf-pe-offline-service-payment',
    'inf-pe-offline-service-payment.full',
    'type',
    ['OFFLINE_SERVICE_PAYMENT'],
    'OFFLINE',
    '`OFFLINE_SERVICE_PAYMENT`',
  ],
  ['inf-mx-btr-spei', 'inf-mx-btr-spei.full', 'type', ['SPEI'], 'PIX', 'inf-mx-btr-spei | `SPEI`'],
  ['inf-ar-btr-pull', 'inf-ar-btr-pull.full', 'type', ['PULL'], 'OFFLINE', 'inf-ar-btr-pull | `PULL`'],
  ['inf-pe-btr-pull', 'inf-pe-btr-pull.full', 'type', ['PULL'], 'SPEI', 'inf-pe-btr-pull | `PULL`'],
]

describe('listed values: each listed value accepted, an unlisted one refused', () => {
  for (const [id, name, field, listed, unlisted, quote] of ENUMS) {
    it(`${id}.${field} (${quote})`, () => {
      const base = fixture(name)
      for (const value of listed) expectValid(schemaOf(id), put(base, field, value))
      const error = expectInvalidAt(schemaOf(id), put(base, field, unlisted), field)
      expect(error.message).toMatch(/not a valid choice|should be equal to/)
    })
  }
})

describe('cross-field rules and types', () => {
  it('saq-payin: with type_fine NONE the fine is 0 ("with `NONE` send 0")', () => {
    const base = { fine: 0, type_fine: 'NONE' }
    for (const zero of [0, '0', '0.00']) expectValid(schemaOf('saq-payin'), { ...base, fine: zero })
    expectInvalidAt(
      schemaOf('saq-payin'),
      { ...base, fine: '2.50' },
      'fine',
      'should be 0 when type_fine is NONE',
    )
    expectValid(schemaOf('saq-payin'), { fine: '2.50', type_fine: 'PERCENT' })
  })

  it('saq-payin: the debtor document length follows type_document (CPF 11 digits, CNPJ 14)', () => {
    // "parameters[debtor_document] | Optional; 11 digits (CPF) or 14 digits (CNPJ)"
    expectInvalidAt(
      schemaOf('saq-payin'),
      { fine: 0, type_document: 'CPF', debtor_document: chars(14, '1') },
      'debtor_document',
      'A CPF has 11 digits.',
    )
    expectInvalidAt(
      schemaOf('saq-payin'),
      { fine: 0, type_document: 'CNPJ', debtor_document: chars(11, '1') },
      'debtor_document',
      'A CNPJ has 14 digits.',
    )
  })

  it('awcc: bech32 is a boolean (JSON or bracket-form string)', () => {
    // "awcc | bech32 | boolean | Optional, default false"
    for (const v of [true, false, 'true', 'false', '1', '0'])
      expectValid(schemaOf('awcc'), { crypto_type: 'BTC', bech32: v })
    expectInvalidAt(schemaOf('awcc'), { crypto_type: 'BTC', bech32: 'yes' }, 'bech32', 'type boolean')
  })

  it('next-level-finance: toCurrency is a valid currency code', () => {
    // "next-level-finance | toCurrency | string | Required; valid currency code to convert to."
    expectInvalidAt(
      schemaOf('next-level-finance'),
      { toCurrency: 'EURO' },
      'toCurrency',
      'not a valid currency',
    )
  })

  it('inf-* pull variants: bankDetails is collected at interaction but checked when sent', () => {
    expectValid(schemaOf('inf-ar-btr-pull'), fixture('inf-ar-btr-pull.minimal'))
    expectInvalidAt(
      schemaOf('inf-ar-btr-pull'),
      put(fixture('inf-ar-btr-pull.full'), 'bankDetails.cbu', ''),
      'bankDetails.cbu',
      'should not be blank',
    )
    expectInvalidAt(
      schemaOf('inf-pe-btr-pull'),
      put(fixture('inf-pe-btr-pull.full'), 'bankDetails', 'x'),
      'bankDetails',
      'type object',
    )
  })

  it('inf-*: callbackUrl and redirectUrl must be URLs; currency an ISO 4217 code', () => {
    const base = fixture('inf-mx-btr-spei.full')
    expectInvalidAt(
      schemaOf('inf-mx-btr-spei'),
      put(base, 'callbackUrl', 'merchant/callback'),
      'callbackUrl',
      'not a valid URL',
    )
    expectInvalidAt(
      schemaOf('inf-mx-btr-spei'),
      put(base, 'redirectUrl', 'ftp://x'),
      'redirectUrl',
      'not a valid URL',
    )
    expectInvalidAt(
      schemaOf('inf-mx-btr-spei'),
      put(base, 'currency', 'PESO'),
      'currency',
      'not a valid currency',
    )
  })

  it('smlpz-out-peru and swifipay-withdrawal: e-mail parameters are e-mail addresses', () => {
    expectInvalidAt(
      schemaOf('smlpz-out-peru'),
      put(fixture('smlpz-out-peru.full'), 'email', 'juan'),
      'email',
      'not a valid email',
    )
    expectInvalidAt(schemaOf('swifipay-withdrawal'), { Email: 'nobody' }, 'Email', 'not a valid email')
  })

  it('openbankA: payee_country is an ISO 3166-1 alpha-2 code', () => {
    expectInvalidAt(
      schemaOf('openbankA'),
      put(fixture('openbankA.full'), 'payee_country', 'GBR'),
      'payee_country',
      'not a valid country',
    )
  })

  it('errors carry the interface section of the rule (2.2.2)', () => {
    const error = expectInvalidAt(
      schemaOf('ptn-sms'),
      { SecurityQuestionAnswer: 'a b' },
      'SecurityQuestionAnswer',
    )
    expect(error.section).toBe('2.2.2')
  })
})
