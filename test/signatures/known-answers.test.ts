import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { checkoutSignatures, s2sApmSignatures, s2sCardSignatures } from '../../src/core/signatures/index.js'
import { callbackHash, verifyCallback } from '../../src/library/signatures.js'

/**
 * Known answers for every formula of docs/rules.md#signatures, each computed here independently of the
 * project's helpers: node:crypto directly, the reversal and PHP strtoupper written out below, the
 * formula's input spelled as a literal string where it is short enough to read.
 */
const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex')
const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex')
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')
const strrev = (s: string) => [...s].reverse().join('')
/** PHP strtoupper: a-z only. */
const strtoupper = (s: string) => s.replace(/[a-z]/g, (c) => c.toUpperCase())

const PASSWORD = '13a4822c5907ed235f3a068c76184fc3'
const EMAIL = 'doe@example.com'
const CARD = '4111111111111111'
const TRANS = '8d9e4ac2-5c4e-4b2e-9b1a-3f1f0c2d7e10'
const SHA = { password: PASSWORD, sha256: true }

describe('S2S CARD formulas (docs/rules.md#signatures)', () => {
  // docs/rules.md#known-answer: "Known answer ... gives SALE hash `2702ae0c4f99506dc29b5615ba9ee3c0`. Tests must include it."
  it('Formula 1 reproduces the platform known answer 2702ae0c4f99506dc29b5615ba9ee3c0', () => {
    const input = `${strrev(EMAIL)}${PASSWORD}${strrev('411111' + '1111')}`
    expect(md5(strtoupper(input))).toBe('2702ae0c4f99506dc29b5615ba9ee3c0')
    expect(s2sCardSignatures.payment(EMAIL, PASSWORD, { cardNumber: CARD })).toBe(
      '2702ae0c4f99506dc29b5615ba9ee3c0',
    )
  })

  // docs/rules.md#signature-conventions: "An optional field the merchant did not send drops out ... (for example payer_email on DEBIT)".
  it('Formula 1 without payer_email drops the e-mail, and with card_token reverses the token', () => {
    expect(s2sCardSignatures.payment(undefined, PASSWORD, { cardNumber: CARD })).toBe(
      md5(strtoupper(`${PASSWORD}1111111114`)),
    )
    expect(s2sCardSignatures.payment(EMAIL, PASSWORD, { cardToken: 'abc123' })).toBe(
      md5(strtoupper(`${strrev(EMAIL)}${PASSWORD}321cba`)),
    )
  })

  it('Formula 2 puts trans_id between the password and the reversed card digits', () => {
    expect(s2sCardSignatures.transaction(EMAIL, PASSWORD, TRANS, { cardNumber: CARD })).toBe(
      md5(strtoupper(`moc.elpmaxe@eod${PASSWORD}${TRANS}1111111114`)),
    )
  })

  it('Formulas 3 and 4: schedules', () => {
    expect(s2sCardSignatures.createSchedule(PASSWORD)).toBe(md5(strtoupper(strrev(PASSWORD))))
    expect(s2sCardSignatures.schedule('sch-1', PASSWORD)).toBe(md5(strtoupper(strrev(`sch-1${PASSWORD}`))))
  })

  // docs/rules.md#s2s-card-formulas: "5 | CREDIT2CARD (new) | password + rev(first6 + last4); with card_token: password + rev(card_token)"
  it('Formula 5: CREDIT2CARD over the password and the recipient card or token', () => {
    expect(s2sCardSignatures.credit2card(PASSWORD, { cardNumber: '4601541833776519' })).toBe(
      md5(strtoupper(`${PASSWORD}${strrev('4601546519')}`)),
    )
    expect(s2sCardSignatures.credit2card(PASSWORD, { cardToken: 'f5d6a0ab' })).toBe(
      md5(strtoupper(`${PASSWORD}ba0a6d5f`)),
    )
  })

  it('Formula 6: CREDIT2CARD callbacks and lookups', () => {
    expect(
      s2sCardSignatures.credit2cardTransaction(PASSWORD, TRANS, { cardNumber: '4601541833776519' }),
    ).toBe(md5(strtoupper(`${PASSWORD}${TRANS}9156451064`)))
  })

  it('Formula 7: GET_TRANS_STATUS_BY_ORDER', () => {
    expect(s2sCardSignatures.byOrder(EMAIL, PASSWORD, 'ORDER-1', { cardNumber: CARD })).toBe(
      md5(strtoupper(`moc.elpmaxe@eod${PASSWORD}ORDER-11111111114`)),
    )
  })

  it('Formula 8: SALE with digital_wallet + payment_token', () => {
    expect(s2sCardSignatures.wallet(EMAIL, PASSWORD)).toBe(md5(strtoupper(`moc.elpmaxe@eod${PASSWORD}`)))
  })

  // docs/rules.md#signatures "SHA256 mode (new) ... every md5 above replaced by sha256"
  it('SHA256 mode replaces md5 by sha256 in every S2S CARD formula', () => {
    expect(s2sCardSignatures.payment(EMAIL, SHA, { cardNumber: CARD })).toBe(
      sha256(strtoupper(`moc.elpmaxe@eod${PASSWORD}1111111114`)),
    )
    expect(s2sCardSignatures.createSchedule(SHA)).toBe(sha256(strtoupper(strrev(PASSWORD))))
    // A configured merchant carries it in its Protocol Mapping.
    const merchant = { password: PASSWORD, protocol_mapping: { use_sha256: true } }
    expect(s2sCardSignatures.transaction(EMAIL, merchant, TRANS, { cardNumber: CARD })).toHaveLength(64)
    expect(
      s2sCardSignatures.transaction(EMAIL, { password: PASSWORD }, TRANS, { cardNumber: CARD }),
    ).toHaveLength(32)
  })
})

describe('S2S APM formulas (docs/rules.md#signatures)', () => {
  it('SALE, DEBIT2VIRTUAL, DEBIT2VIRTUAL_CALC: rev of the whole concatenation; identifier drops out when not sent', () => {
    expect(s2sApmSignatures.payment('success@gmail.com', 'O-1', '10.00', 'USD', 'pw')).toBe(
      md5(strtoupper(strrev('success@gmail.comO-110.00USDpw'))),
    )
    expect(s2sApmSignatures.payment(undefined, 'O-1', '10.00', 'USD', 'pw')).toBe(md5('WPDSU00.011-O'))
  })

  it('CREDITVOID, and CAPTURE/VOID/GET_TRANS_STATUS/DEBIT2VIRTUAL_COMPLETE', () => {
    expect(s2sApmSignatures.creditvoid('t-1a', 'pw')).toBe(md5('WPA1-T'))
    // the password is appended after upper-casing: it keeps its case
    expect(s2sApmSignatures.transaction('t-1a', 'pw')).toBe(md5('A1-Tpw'))
  })

  // docs/rules.md#signatures "CREDIT2VIRTUAL, CREDIT2CRYPTO (new) | md5(upper(rev(order_id + order_amount + order_currency)) + password)"
  it('CREDIT2VIRTUAL and CREDIT2CRYPTO, an omitted amount dropping out', () => {
    expect(s2sApmSignatures.credit2virtual('o-1', '5.00', 'usd', 'pw')).toBe(md5('DSU00.51-Opw'))
    expect(s2sApmSignatures.credit2virtual('o-1', undefined, 'btc', 'pw')).toBe(md5('CTB1-Opw'))
  })

  // docs/rules.md#signatures "callbacks (changed) | ... md5(upper(values) + upper(password))"; the platform's callback pages
  // quotes the worked string "ELASSSECCUS22.923321523PASSWORD".
  it('callbacks: keys sorted, values reversed, upper-cased, then the UPPER-CASED password', () => {
    const body = { status: 'success', order_id: '325123', amount: '329.22', action: 'sale', hash: 'ignored' }
    // sorted keys: action, amount, order_id, status
    const worked = 'ELAS' + '22.923' + '321523' + 'SSECCUS'
    expect(s2sApmSignatures.callback(body, 'password')).toBe(md5(`${worked}PASSWORD`))
    // nested values: sorted and reversed at each level
    const nested = { b: { y: 'ab', x: 'cd' }, a: 'ef' }
    expect(s2sApmSignatures.callback(nested, 'Pw')).toBe(md5('FEDCBAPW'))
  })

  it('CREDIT2VIRTUAL and CREDIT2CRYPTO callbacks: trans_id + order_id + status, password kept as is', () => {
    expect(s2sApmSignatures.credit2virtualCallback('t1', 'o1', 'SETTLED', 'pw')).toBe(md5('DELTTES1O1Tpw'))
  })

  it('SHA256 mode in S2S APM', () => {
    expect(s2sApmSignatures.transaction('t-1a', SHA)).toBe(sha256(`A1-T${PASSWORD}`))
    expect(s2sApmSignatures.callback({ a: 'x' }, SHA)).toBe(sha256(`X${strtoupper(PASSWORD)}`))
  })
})

describe('Checkout formulas and SHA256 mode (docs/rules.md#signatures)', () => {
  it('sha1(md5(upper)) by default, sha1(sha256(upper)) in SHA256 mode', () => {
    const order = { number: 'o-1', amount: '10.00', currency: 'USD', description: 'Tea' }
    expect(checkoutSignatures.session(order, 'pw')).toBe(sha1(md5('O-110.00USDTEAPW')))
    expect(checkoutSignatures.session(order, { password: 'pw', sha256: true })).toBe(
      sha1(sha256('O-110.00USDTEAPW')),
    )
    expect(checkoutSignatures.notification('p1', order, { password: 'pw', sha256: true })).toBe(
      sha1(sha256('P1O-110.00USDTEAPW')),
    )
  })
})

describe('library verification of S2S APM callbacks (docs/rules.md#signatures)', () => {
  it("accepts a callback signed as the platform documents, refuses the old formula's hash", () => {
    const fields = { action: 'SALE', result: 'SUCCESS', status: 'SETTLED', order_id: 'o-1', trans_id: 't-1' }
    const values = ['SALE', 'o-1', 'SUCCESS', 'SETTLED', 't-1'].map(strrev).join('') // action, order_id, result, status, trans_id
    const documented = md5(strtoupper(values) + strtoupper('secretPw'))
    expect(callbackHash(fields, 'secretPw', 's2s-apm')).toBe(documented)
    expect(verifyCallback({ ...fields, hash: documented }, 'secretPw', 's2s-apm')).toBe(true)
    const oldFormula = md5(`${strtoupper(values)}secretPw`)
    expect(verifyCallback({ ...fields, hash: oldFormula }, 'secretPw', 's2s-apm')).toBe(false)
  })
})
