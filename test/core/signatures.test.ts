import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  checkoutSignatures,
  rev,
  s2sApmSignatures,
  s2sCardSignatures,
  sameSignature,
  upper,
} from '../../src/core/signatures/index.js'

const md5 = (s: string) => createHash('md5').update(s).digest('hex')
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex')

describe('primitives (docs/rules.md#signatures)', () => {
  it('upper() changes ASCII a-z only', () => {
    expect(upper('abc-xyz_é1ß')).toBe('ABC-XYZ_é1ß')
    // An all-ASCII string (the fast path) and letters whose Unicode upper case differs in length.
    expect(upper('order-1001 25.00eur\t~')).toBe('ORDER-1001 25.00EUR\t~')
    expect(upper('ﬀ ı straße ǆ abc')).toBe('ﬀ ı STRAßE ǆ ABC')
  })
  it('rev() reverses by code point', () => {
    expect(rev('abc😀d')).toBe('d😀cba')
  })
  it('sameSignature compares case-insensitively and refuses non-strings', () => {
    expect(sameSignature('abc123', 'ABC123')).toBe(true)
    expect(sameSignature('abc123', 'abc124')).toBe(false)
    expect(sameSignature('abc123', undefined)).toBe(false)
  })
})

describe('S2S CARD', () => {
  // docs/rules.md#known-answer: "Known answer: payer_email doe@example.com, password 13a4822c5907ed235f3a068c76184fc3,
  // card 4111111111111111 gives SALE hash 2702ae0c4f99506dc29b5615ba9ee3c0."
  it('reproduces the documented known-answer SALE hash', () => {
    expect(
      s2sCardSignatures.payment('doe@example.com', '13a4822c5907ed235f3a068c76184fc3', {
        cardNumber: '4111111111111111',
      }),
    ).toBe('2702ae0c4f99506dc29b5615ba9ee3c0')
  })
  // "CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS, callbacks | md5(upper(rev(payer_email) + password + trans_id + rev(first6 + last4)))"
  it('signs follow-up actions with the trans_id between password and card', () => {
    expect(s2sCardSignatures.transaction('a@b.co', 'pw', 't-1', { cardNumber: '4111111111111111' })).toBe(
      md5('OC.B@APWT-11111111114'),
    )
  })
  // "with card_token: md5(upper(rev(payer_email) + password + rev(card_token)))"
  it('uses the reversed card token instead of the card digits', () => {
    expect(s2sCardSignatures.payment('a@b.co', 'pw', { cardToken: 'tok9' })).toBe(md5('OC.B@APW9KOT'))
  })
  it('GET_TRANS_STATUS_BY_ORDER puts the order id in the middle', () => {
    expect(s2sCardSignatures.byOrder('a@b.co', 'pw', 'o1', { cardNumber: '5555 5555 5555 4444' })).toBe(
      md5('OC.B@APWO14444555555'),
    )
  })
  // "CREATE_SCHEDULE | md5(upper(rev(password)))"; "other schedule actions | md5(upper(rev(schedule_id + password)))"
  it('signs schedule actions', () => {
    expect(s2sCardSignatures.createSchedule('pw1')).toBe(md5('1WP'))
    expect(s2sCardSignatures.schedule('s-1', 'pw')).toBe(md5('WP1-S'))
  })
  // docs/rules.md#s2s-card-formulas: CARD2CARD is Formula 1 over the payer's e-mail and card.
  it('CARD2CARD signs with Formula 1 over the payer card', () => {
    expect(s2sCardSignatures.card2card('a@b.co', 'pw', '4111111111111111')).toBe(md5('OC.B@APW1111111114'))
    expect(s2sCardSignatures.card2card(undefined, 'pw', '4111111111111111')).toBe(md5('PW1111111114'))
  })
})

describe('Checkout', () => {
  // "session, session token | order.number + order.amount + order.currency + order.description + password", sha1(md5(upper()))
  it('hashes the session fields as SHA1 over the hex MD5', () => {
    const order = { number: 'o-1', amount: '10.00', currency: 'usd', description: 'Tea' }
    expect(checkoutSignatures.session(order, 'secret')).toBe(sha1(md5('O-110.00USDTEASECRET')))
  })
  it('hashes capture/refund, void/status and credit per their rows', () => {
    expect(checkoutSignatures.amountOperation('p1', '5.00', 'pw')).toBe(sha1(md5('P15.00PW')))
    expect(checkoutSignatures.paymentOperation('p1', 'pw')).toBe(sha1(md5('P1PW')))
    expect(checkoutSignatures.statusByOrder('o1', 'pw')).toBe(sha1(md5('O1PW')))
    expect(
      checkoutSignatures.credit(
        { order_id: 'o', order_amount: '1.00', order_currency: 'EUR', order_description: 'd' },
        'pw',
      ),
    ).toBe(sha1(md5('O1.00EURDPW')))
  })
  it('hashes recurring and notifications per their rows', () => {
    const order = { number: 'n', amount: '2.00', currency: 'EUR', description: 'd' }
    expect(checkoutSignatures.recurring('i', 't', order, 'pw')).toBe(sha1(md5('ITN2.00DPW')))
    expect(checkoutSignatures.notification('p', order, 'pw')).toBe(sha1(md5('PN2.00EURDPW')))
  })
})

describe('S2S APM', () => {
  it('signs SALE as md5(upper(rev(identifier + order_id + order_amount + order_currency + password)))', () => {
    expect(s2sApmSignatures.payment('id', 'o', '1.00', 'EUR', 'pw')).toBe(md5(upper(rev('ido1.00EURpw'))))
  })
  // Interface, Authentication 3: "md5 of the concatenation of the upper-cased, character-reversed trans_id and the merchant password"
  it('signs CAPTURE/VOID/GET_TRANS_STATUS with the password outside upper()', () => {
    expect(s2sApmSignatures.transaction('ab-1', 'pW')).toBe(md5('1-BApW'))
  })
  it('signs CREDITVOID as md5(upper(rev(trans_id + password)))', () => {
    expect(s2sApmSignatures.creditvoid('ab', 'pw')).toBe(md5('WPBA'))
  })
  // Interface, Authentication 6: the S2S APM callback signature "covers the whole callback body (so it includes creditvoid_id)"
  // docs/rules.md#signature-conventions: "then the password **upper-cased** appended"
  it('signs callbacks over every field but hash, keys sorted, values reversed recursively', () => {
    const body = { trans_id: 'ab', creditvoid_id: 'cv1', hash: 'x', custom_data: { z: 'yz', a: 'ba' } }
    expect(s2sApmSignatures.callback(body, 'pw')).toBe(md5(`${upper('1vc' + 'ab' + 'zy' + 'ba')}PW`))
    const changed = { ...body, creditvoid_id: 'cv2' }
    expect(s2sApmSignatures.callback(changed, 'pw')).not.toBe(s2sApmSignatures.callback(body, 'pw'))
  })
})
