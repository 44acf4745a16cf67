/**
 * `parameters.card` (interface 2.2.1): sets 1 to 5 and the set 6 type codes, each checked at its
 * boundary. The boundary cases are generated from SET6 below; a further test reads the interface's
 * set 6 tables so that SET6 cannot drift from them.
 */
import { describe, expect, it } from 'vitest'
import { schemaRegistry } from '../../src/core/validation/index.js'
import { interfaceExcerpt } from '../helpers/interface-excerpts.js'
import { chars, expectInvalidAt, expectValid } from '../helpers/schema.js'

const CARD = 'methods/card.schema.json'

/** Sets `value` at a path such as `cart.items[0].recipient.country`, creating objects and arrays. */
function at(path: string, value: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = {}
  const keys = path.split(/\.|(?=\[)/).map((k) => (k.startsWith('[') ? Number(k.slice(1, -1)) : k))
  let node: Record<string | number, unknown> = root
  keys.forEach((key, i) => {
    if (i === keys.length - 1) {
      node[key] = value
      return
    }
    node[key] ??= typeof keys[i + 1] === 'number' ? [] : {}
    node = node[key] as Record<string | number, unknown>
  })
  return root
}

/** [path under parameters.card, type code as written in 2.2.1, requirement]. */
const SET6: [string, string, 'C' | 'O'][] = [
  ['shipping.street1', 'AN100', 'C'],
  ['shipping.street2', 'AN100', 'C'],
  ['shipping.houseNumber1', 'AN100', 'O'],
  ['shipping.houseNumber2', 'AN100', 'O'],
  ['shipping.city', 'AN80', 'C'],
  ['shipping.state', 'AN50', 'C'],
  ['shipping.postcode', 'AN16', 'C'],
  ['shipping.country', 'A2', 'C'],
  ['shipping.method', 'AN30', 'C'],
  ['shipping.cost', 'N13', 'C'],
  ['shipping.comment', 'AN160', 'C'],
  ['shipping.expectedDate', 'AN10', 'O'],
  ['shipping.logisticsProvider', 'AN255', 'O'],
  ['shipping.trackingNumber', 'AN255', 'O'],
  ['shipping.returnTrackingNumber', 'AN255', 'O'],
  ['shipping.normalized', 'AN255', 'O'],
  ['shipping.validationStatus', 'AN255', 'O'],
  ['shipping.warehouse', 'AN100', 'O'],
  ['shipping.preference', 'AN21', 'O'],
  ['shipping.middleName', 'AN', 'O'],
  ['shipping.companyName', 'AN60', 'O'],
  ['shipping.phone', 'AN25', 'O'],
  ['shipping.workPhone', 'AN25', 'O'],
  ['shipping.mobile', 'AN25', 'O'],
  ['shipping.email', 'AN128', 'O'],
  ['shipping.type', 'AN8', 'O'],
  ['cart.items[0].name', 'AN255', 'C'],
  ['cart.items[0].merchantItemId', 'AN255', 'C'],
  ['cart.items[0].type', 'AN255', 'C'],
  ['cart.items[0].quantity', 'N5', 'C'],
  ['cart.items[0].sku', 'AN255', 'O'],
  ['cart.items[0].currency', 'A3', 'C'],
  ['cart.items[0].description', 'AN2048', 'C'],
  ['cart.items[0].commodityCode', 'N8', 'O'],
  ['cart.items[0].commodityDescription', 'AN50', 'O'],
  ['cart.items[0].originalPrice', 'AN255', 'O'],
  ['cart.items[0].price', 'N13', 'C'],
  ['cart.items[0].totalAmount', 'N13', 'C'],
  ['cart.items[0].taxAmount', 'N13', 'C'],
  ['cart.items[0].totalTaxAmount', 'N13', 'C'],
  ['cart.items[0].discount', 'N13', 'C'],
  ['cart.items[0].tax', 'AN6', 'C'],
  ['cart.items[0].taxCategory', 'AN2', 'C'],
  ['cart.items[0].shipping', 'N10.N2', 'C'],
  ['cart.items[0].giftMessage', 'AN255', 'O'],
  ['cart.items[0].shippingMethod', 'AN255', 'O'],
  ['cart.items[0].shippingInstructions', 'AN255', 'O'],
  ['cart.items[0].shippingTrackingNumber', 'AN255', 'O'],
  ['cart.items[0].sellerId', 'AN255', 'O'],
  ['cart.items[0].totalDiscountAmount', 'N10.N2', 'O'],
  ['cart.items[0].productCode', 'AN30', 'O'],
  ['cart.items[0].partNumber', 'AN30', 'O'],
  ['cart.items[0].vatReferenceNumber', 'AN30', 'O'],
  ['cart.items[0].itemNumber', 'N3', 'O'],
  ['cart.items[0].deliveryDate', 'AN10', 'O'],
  ['cart.items[0].recipient.salutation', 'AN5', 'O'],
  ['cart.items[0].recipient.firstName', 'AN48', 'O'],
  ['cart.items[0].recipient.lastName', 'AN48', 'O'],
  ['cart.items[0].recipient.middleName', 'AN50', 'O'],
  ['cart.items[0].recipient.apartment', 'AN100', 'O'],
  ['cart.items[0].recipient.street', 'AN100', 'O'],
  ['cart.items[0].recipient.address', 'AN100', 'O'],
  ['cart.items[0].recipient.city', 'AN80', 'O'],
  ['cart.items[0].recipient.state', 'AN50', 'O'],
  ['cart.items[0].recipient.postcode', 'AN16', 'O'],
  ['cart.items[0].recipient.country', 'A2 or N3', 'O'],
  ['cart.items[0].recipient.phone', 'N25', 'O'],
  ['cart.items[0].recipient.email', 'AN128', 'O'],
  ['cart.payments[0].name', 'AN255', 'O'],
  ['cart.payments[0].type', 'AN255', 'O'],
  ['cart.payments[0].amount', 'N10.N2', 'O'],
  ['cart.payments[0].currency', 'A3', 'O'],
  ['cart.payments[0].status', 'AN255', 'O'],
  ['cart.payments[0].brand', 'AN255', 'O'],
  ['marketPlace.sellers[0].id', 'AN255', 'O'],
  ['marketPlace.sellers[0].amount', 'N13', 'O'],
]
/** Fields whose AN code comes with a list of values: their boundary is the list, tested below. */
const LISTED = new Set(['shipping.type', 'cart.payments[0].type', 'cart.payments[0].status'])

interface Boundary {
  name: string
  accepted: unknown[]
  refused: { value: unknown; message: string }[]
}

/** The accepted-at-the-limit / refused-one-past-it cases of one type code. */
function boundaries(code: string): Boundary {
  const an = /^AN(\d+)$/.exec(code)
  if (an) {
    const n = Number(an[1])
    return {
      name: `${code}: ${n} characters accepted, ${n + 1} refused, control characters refused`,
      accepted: [chars(n, 'x'), chars(n, 'é'), 'A-1 b/c, d.'.slice(0, n)],
      refused: [
        { value: chars(n + 1, 'x'), message: `It should have ${n} characters or less.` },
        { value: 'a\nb'.slice(0, Math.max(n, 2)), message: 'printable characters only' },
      ],
    }
  }
  if (code === 'AN') {
    return {
      name: 'AN (no size): long printable text accepted, control characters refused',
      accepted: [chars(500, 'x')],
      refused: [{ value: 'a\tb', message: 'printable characters only' }],
    }
  }
  const n = /^N(\d+)$/.exec(code)
  if (n) {
    const k = Number(n[1])
    return {
      name: `${code}: ${k} digits accepted, ${k + 1} refused, non-digits refused`,
      accepted: ['0', chars(k, '9')],
      refused: [
        { value: chars(k + 1, '9'), message: `at most ${k}` },
        { value: '1.5', message: `at most ${k}` },
        { value: '', message: `at most ${k}` },
        { value: 12, message: 'type string' },
      ],
    }
  }
  if (code === 'N10.N2') {
    return {
      name: 'N10.N2: 10 integer digits and 2 decimals accepted, 11 digits or 3 decimals refused',
      accepted: ['1234567890.12', '1234567890', '0.5', '7'],
      refused: [
        { value: '12345678901', message: 'up to 10 digits' },
        { value: '1.123', message: 'up to 2 decimals' },
        { value: '1,50', message: 'up to 10 digits' },
        { value: '-1.00', message: 'up to 10 digits' },
      ],
    }
  }
  if (code === 'A2') {
    return {
      name: 'A2 (ISO 3166-1): two letters accepted, three refused',
      accepted: ['GB', 'BR'],
      refused: [
        { value: 'GBR', message: 'not a valid country' },
        { value: 'G1', message: 'not a valid country' },
      ],
    }
  }
  if (code === 'A3') {
    return {
      name: 'A3: three-letter currency accepted, four refused',
      accepted: ['GBP', 'JPY'],
      refused: [
        { value: 'GBPX', message: 'not a valid currency' },
        { value: 'GB', message: 'not a valid currency' },
      ],
    }
  }
  if (code === 'A2 or N3') {
    return {
      name: 'A2 or N3: two letters or three digits accepted, four digits refused',
      accepted: ['GB', '826'],
      refused: [
        { value: '8260', message: 'not a valid country' },
        { value: '82', message: 'not a valid country' },
      ],
    }
  }
  throw new Error(`no boundary rule for type code ${code}`)
}

describe('card set 6: every type code checked at its boundary (2.2.1 "Type codes: AN n = alphanumeric up to n characters; N n = numeric up to n digits; A n = alphabetic; N10.N2 = up to 10 integer digits and 2 decimals")', () => {
  for (const [path, code] of SET6.filter(([p]) => !LISTED.has(p))) {
    const b = boundaries(code)
    it(`${path} ${b.name}`, () => {
      for (const value of b.accepted) expectValid(CARD, at(path, value))
      for (const { value, message } of b.refused) expectInvalidAt(CARD, at(path, value), path, message)
    })
  }
})

describe('card set 6: listed values, URLs, booleans', () => {
  it('shipping.type is "return or shipment" (AN8)', () => {
    expectValid(CARD, at('shipping.type', 'return'))
    expectValid(CARD, at('shipping.type', 'shipment'))
    expectInvalidAt(CARD, at('shipping.type', 'delivery'), 'shipping.type', 'not a valid choice')
  })
  it('cart.items[n].quantityUnit is one of M, CM, KG, G, COUNT', () => {
    for (const v of ['M', 'CM', 'KG', 'G', 'COUNT']) expectValid(CARD, at('cart.items[0].quantityUnit', v))
    expectInvalidAt(
      CARD,
      at('cart.items[0].quantityUnit', 'LB'),
      'cart.items[0].quantityUnit',
      'not a valid choice',
    )
    expectInvalidAt(
      CARD,
      at('cart.items[0].quantityUnit', 'kg'),
      'cart.items[0].quantityUnit',
      'not a valid choice',
    )
  })
  it('cart.payments[n].type is GIFTCARD or PROMOTION; status is pending, authorized or captured', () => {
    // "type AN255 (GIFTCARD, PROMOTION) ... status AN255 (pending, authorized, captured)"
    expectValid(CARD, at('cart.payments[0].type', 'PROMOTION'))
    expectInvalidAt(
      CARD,
      at('cart.payments[0].type', 'COUPON'),
      'cart.payments[0].type',
      'not a valid choice',
    )
    for (const v of ['pending', 'authorized', 'captured']) expectValid(CARD, at('cart.payments[0].status', v))
    expectInvalidAt(
      CARD,
      at('cart.payments[0].status', 'refunded'),
      'cart.payments[0].status',
      'not a valid choice',
    )
  })
  it('cart.payments[n].primary is true/false', () => {
    for (const v of [true, false, 'true', 'false']) expectValid(CARD, at('cart.payments[0].primary', v))
    expectInvalidAt(CARD, at('cart.payments[0].primary', 'yes'), 'cart.payments[0].primary', 'type boolean')
  })
  it('productUrl and imageUrl must be valid URLs', () => {
    for (const f of ['productUrl', 'imageUrl']) {
      expectValid(CARD, at(`cart.items[0].${f}`, 'https://shop.example.com/x'))
      expectInvalidAt(CARD, at(`cart.items[0].${f}`, 'not a url'), `cart.items[0].${f}`, 'not a valid URL')
    }
  })
  it('no set 6 field is required: C (conditional) is decided by the acquirer', () => {
    expectValid(CARD, { shipping: {}, cart: { items: [{}], payments: [{}] }, marketPlace: { sellers: [{}] } })
  })
  it('items, payments and sellers must be arrays of objects', () => {
    expectInvalidAt(CARD, { cart: { items: { name: 'x' } } }, 'cart.items', 'type array')
    expectInvalidAt(CARD, { marketPlace: { sellers: ['s1'] } }, 'marketPlace.sellers[0]', 'type object')
  })
})

describe('card set 6 table agrees with the interface (2.2, data/interface/2.2-payment-methods.md)', () => {
  function specRows(): [string, string, string][] {
    const spec = interfaceExcerpt('2.2-payment-methods')
    const set6 = spec.slice(spec.indexOf('Set 6, nested data'), spec.indexOf('#### 2.2.2'))
    const rows: [string, string, string][] = []
    let object = ''
    for (const line of set6.split('\n')) {
      const heading = /^`([A-Za-z.]+)(?:\[n\])?` (object|\()/.exec(line)
      if (heading) object = heading[1] as string
      const prose = /^`(cart\.payments|marketPlace\.sellers)\[n\]`[^:]*: (.*)$/.exec(line)
      if (prose) {
        const base = `${prose[1]}[0]`
        for (const m of (prose[2] as string).matchAll(/(\w+) (AN\d+|N10\.N2|N\d+|A\d)/g))
          rows.push([`${base}.${m[1]}`, m[2] as string, 'O'])
        continue
      }
      const cells = line.split('|').map((c) => c.trim())
      if (cells.length < 4 || cells[1] === 'Field' || /^-+$/.test(cells[1] as string)) continue
      const code = /^(A2 or N3|AN\d*|N10\.N2|N\d+|A\d)/.exec(cells[2] as string)?.[1]
      if (!code) continue
      const base = object === 'shipping' ? 'shipping' : `${object}[0]`
      for (const name of (cells[1] as string).split(',').map((n) => n.trim()))
        rows.push([`${base}.${name}`, code, cells[3] as string])
    }
    return rows
  }

  it('lists every field of the interface with the same type code and requirement', () => {
    const rows = specRows()
    expect(rows.length).toBeGreaterThan(60)
    const table = new Map(SET6.map(([p, code, req]) => [p, `${code} ${req}`]))
    for (const [path, code, req] of rows) expect(table.get(path), path).toBe(`${code} ${req}`)
    expect(rows.length).toBe(SET6.length)
  })

  it('records each type code and requirement in the schema (x-type-code, x-requirement)', () => {
    const schema = schemaRegistry().schema(CARD) as {
      $defs: Record<string, { properties: Record<string, Record<string, unknown>> }>
    }
    const defFor: Record<string, string> = {
      shipping: 'Shipping',
      'cart.items[0]': 'CartItem',
      'cart.items[0].recipient': 'CartItemRecipient',
      'cart.payments[0]': 'CartPayment',
      'marketPlace.sellers[0]': 'MarketPlaceSeller',
    }
    for (const [path, code, req] of SET6) {
      const cut = path.lastIndexOf('.')
      const def = schema.$defs[defFor[path.slice(0, cut)] as string]
      const prop = def?.properties[path.slice(cut + 1)]
      expect(prop?.['x-type-code'], path).toBe(code)
      expect(prop?.['x-requirement'], path).toBe(req)
    }
  })
})

describe('card sets 1 to 5', () => {
  const set1 = { bnrg_installm_def: '01', bnrg_installm_months: '12', bnrg_installm_plan: '05' }
  it('set 1 (installments) is all required: one key without the others is refused', () => {
    // "Set 1, installments, all required, 2-digit numeric strings"
    expectValid(CARD, set1)
    for (const missing of Object.keys(set1)) {
      const partial: Record<string, string> = { ...set1 }
      delete partial[missing]
      expectInvalidAt(CARD, partial, missing, 'This value should not be blank.')
    }
  })
  it('set 1 values are 2-digit numeric strings with the listed codes', () => {
    // "bnrg_installm_def: `01` one month, `00` no initial deferral"; "bnrg_installm_plan: `03`, `05`, `07`"
    expectValid(CARD, { ...set1, bnrg_installm_def: '00', bnrg_installm_plan: '07' })
    expectInvalidAt(CARD, { ...set1, bnrg_installm_months: '6' }, 'bnrg_installm_months', '2-digit')
    expectInvalidAt(CARD, { ...set1, bnrg_installm_months: '006' }, 'bnrg_installm_months', '2-digit')
    expectInvalidAt(CARD, { ...set1, bnrg_installm_plan: '04' }, 'bnrg_installm_plan', 'not a valid choice')
    expectInvalidAt(CARD, { ...set1, bnrg_installm_def: '02' }, 'bnrg_installm_def', 'not a valid choice')
  })
  const set2 = {
    document_type: 'cpf',
    document_number: '12345678909',
    social_name: 'Maria',
    fiscal_country: 'BR',
  }
  it('set 2 is all required: one key without the others is refused', () => {
    // "Set 2, all required strings: `document_type` (value `cpf`), `document_number`, `social_name`, `fiscal_country`"
    expectValid(CARD, set2)
    for (const missing of Object.keys(set2)) {
      const partial: Record<string, string> = { ...set2 }
      delete partial[missing]
      expectInvalidAt(CARD, partial, missing, 'This value should not be blank.')
    }
  })
  it('set 2: document_type is cpf, fiscal_country alpha-2, toBankAccountId tolerated', () => {
    expectInvalidAt(CARD, { ...set2, document_type: 'cnpj' }, 'document_type', 'not a valid choice')
    expectInvalidAt(CARD, { ...set2, fiscal_country: 'BRA' }, 'fiscal_country', 'not a valid country')
    expectInvalidAt(CARD, { ...set2, document_number: '' }, 'document_number', 'should not be blank')
    expectValid(CARD, { ...set2, toBankAccountId: 'x' })
  })
  it('set 3: descriptor up to 20 characters (Limits: "descriptor (card set 3) | up to 20 characters")', () => {
    expectValid(CARD, { descriptor: chars(20) })
    expectInvalidAt(CARD, { descriptor: chars(21) }, 'descriptor', 'It should have 20 characters or less.')
  })
  it('set 4: shipping_postcode up to 9 digits (Limits: "shipping_postcode (card set 4) | up to 9 digits")', () => {
    expectValid(CARD, { shipping_postcode: chars(9, '1') })
    expectInvalidAt(CARD, { shipping_postcode: chars(10, '1') }, 'shipping_postcode', 'at most 9')
    expectInvalidAt(CARD, { shipping_postcode: 'SW1A1AA' }, 'shipping_postcode', 'at most 9')
  })
  it('set 4: shipping_country is a 3-digit code', () => {
    expectValid(CARD, { shipping_country: '076' })
    expectInvalidAt(CARD, { shipping_country: 'BRA' }, 'shipping_country', '3-digit')
    expectInvalidAt(CARD, { shipping_country: '0760' }, 'shipping_country', '3-digit')
  })
  it('set 5: all optional strings, names exactly as listed', () => {
    expectValid(CARD, {
      payer_identity_type: 'passport',
      payer_last_name: 'Doe',
      payee_country_of_birth: 'DE',
    })
    expectInvalidAt(CARD, { payee_zip: 10115 }, 'payee_zip', 'type string')
  })
  it('extra parameters are passed to the acquirer, so unlisted keys are accepted', () => {
    // "`card` parameter sets (connector-dependent; extra parameters are passed to the acquirer)"
    expectValid(CARD, { acquirer_specific: 'x', nested: { a: 1 } })
  })
})
