import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { causesOf } from '../../src/conformance/causes.js'
import type { ScenarioContext } from '../../src/conformance/context.js'
import { diagnoseHash, type HashEvidence } from '../../src/conformance/hash-diagnosis.js'
import type { ObservedRequest } from '../../src/conformance/sandbox-host.js'
import { PaymentMemory } from '../../src/conformance/signing.js'
import { ruleLine } from '../../src/core/engine/rules.js'
import { CHECKOUT_FORMULAS, S2S_CARD_FORMULAS } from '../../src/core/signatures/formulas.js'

/**
 * Cause first (issue 23, requirement 1; Authentication; docs/rules.md#signatures): a hash the
 * gateway refused is compared with the known mistakes of its formula, and the one that reproduces
 * it exactly is named. Each mistaken hash below is computed here by hand, the way a merchant's
 * code would, independently of the sandbox's formulas; a hash no mistake reproduces names none.
 */

const PASSWORD = 'ref-password-0123456789abcdef'
const hex = (algo: string, s: string | Buffer) => createHash(algo).update(s).digest('hex')
const md5 = (s: string) => hex('md5', s)
const sha1 = (s: string | Buffer) => hex('sha1', s)
const ascii = (s: string) => s.replace(/[a-z]/g, (c) => c.toUpperCase())
const rev = (s: string) => Array.from(s).reverse().join('')
/** Checkout: sha1(md5(upper(fields + password))). */
const checkout = (...fields: string[]) => sha1(md5(ascii(fields.join('') + PASSWORD)))

const session = {
  merchant_key: 'ref-merchant',
  operation: 'purchase',
  order: { number: 'order-7', amount: '10.00', currency: 'EUR', description: 'Café crème' },
}
const sessionAnswer = { json: { redirect_url: 'https://pay.example/x', payment_id: 'pay-1' } }

function evidence(over: Partial<HashEvidence> & Pick<HashEvidence, 'path' | 'body'>): HashEvidence {
  return { api: 'checkout', password: PASSWORD, memory: new PaymentMemory(), earlier: [], ...over }
}

const named = (e: HashEvidence, sent: string) => diagnoseHash(e, sent)

describe('diagnoseHash: Checkout session (sha1(md5(upper(order.number + order.amount + order.currency + order.description + password))))', () => {
  const e = evidence({ path: '/api/v1/session', body: session })
  const fields = ['order-7', '10.00', 'EUR', 'Café crème']

  it('names sha1 over the binary md5 digest', () => {
    const sent = sha1(
      createHash('md5')
        .update(ascii(fields.join('') + PASSWORD))
        .digest(),
    )
    const found = named(e, sent)
    expect(found?.variant).toBe('sha1-of-binary-md5')
    expect(found?.mistake).toBe(
      "the merchant's hash is sha1 of the binary md5 digest; the formula takes md5's hex digest",
    )
    expect(found?.fix).toContain(`for this request ${checkout(...fields)}`)
  })

  it('names sha1 over the upper-case hex digest', () => {
    const sent = sha1(md5(ascii(fields.join('') + PASSWORD)).toUpperCase())
    expect(named(e, sent)?.variant).toBe('sha1-of-upper-hex-md5')
  })

  it('names Unicode upper-casing, with the characters it changed', () => {
    const sent = sha1(md5((fields.join('') + PASSWORD).toUpperCase()))
    const found = named(e, sent)
    expect(found?.variant).toBe('unicode-upper')
    expect(found?.mistake).toContain('"é" into "É"')
    expect(found?.mistake).toContain('the formula upper-cases ASCII a-z only')
  })

  it('names a signed string never upper-cased', () => {
    expect(named(e, sha1(md5(fields.join('') + PASSWORD)))?.variant).toBe('not-upper-cased')
  })

  it('names the password appended after upper-casing', () => {
    expect(named(e, sha1(md5(ascii(fields.join('')) + PASSWORD)))?.variant).toBe('password-not-upper-cased')
  })

  it('names the password left out, and the merchant_key signed in its place', () => {
    expect(named(e, sha1(md5(ascii(fields.join('')))))?.variant).toBe('password-left-out')
    expect(named(e, sha1(md5(ascii(`${fields.join('')}ref-merchant`))))?.mistake).toBe(
      "the merchant's hash is signed with its merchant_key where the formula takes its password",
    )
  })

  it('names sha256 where Checkout has md5', () => {
    expect(named(e, sha1(hex('sha256', ascii(fields.join('') + PASSWORD))))?.variant).toBe('sha256-for-md5')
  })

  it('names an amount signed in another spelling than sent ("10" for "10.00")', () => {
    const found = named(e, checkout('order-7', '10', 'EUR', 'Café crème'))
    expect(found?.variant).toBe('amount-spelled-otherwise')
    expect(found?.mistake).toBe(
      `the merchant's hash is over order.amount "10" where the request sent "10.00"`,
    )
  })

  it('names nothing for a hash no mistake reproduces, nor for the right hash', () => {
    expect(named(e, sha1('something else entirely'))).toBeUndefined()
    expect(named(e, '0'.repeat(40))).toBeUndefined()
    expect(named(e, checkout(...fields))).toBeUndefined()
  })
})

describe('diagnoseHash: Checkout refund, capture, status', () => {
  const earlier = [{ method: 'POST', path: '/api/v1/session', body: session, answer: sessionAnswer }]

  it('names a refund signed over the order amount instead of the amount sent', () => {
    const e = evidence({
      path: '/api/v1/payment/refund',
      body: { merchant_key: 'ref-merchant', payment_id: 'pay-1', amount: '4.00' },
      earlier,
    })
    const found = named(e, checkout('pay-1', '10.00'))
    expect(found?.variant).toBe('other-amount-signed')
    expect(found?.mistake).toBe(
      `the merchant's hash is over amount "10.00" (order.amount of its POST /api/v1/session) where the request sent amount "4.00"`,
    )
    expect(found?.fix).toContain(`for this request ${checkout('pay-1', '4.00')}`)
  })

  it('names a refund signed over an amount when none was sent, and an amount sent but not signed', () => {
    const none = evidence({
      path: '/api/v1/payment/refund',
      body: { merchant_key: 'ref-merchant', payment_id: 'pay-1' },
      earlier,
    })
    expect(named(none, checkout('pay-1', '10.00'))?.variant).toBe('amount-signed-when-none-sent')
    const capture = evidence({
      path: '/api/v1/payment/capture',
      body: { merchant_key: 'ref-merchant', payment_id: 'pay-1', amount: '4.00' },
      earlier,
    })
    expect(named(capture, checkout('pay-1'))?.variant).toBe('amount-sent-not-signed')
  })

  it('names a lookup by payment_id signed over the order number, and by order_id over the payment_id', () => {
    const byPayment = evidence({
      path: '/api/v1/payment/status',
      body: { merchant_key: 'ref-merchant', payment_id: 'pay-1' },
      earlier,
    })
    const found = named(byPayment, checkout('order-7'))
    expect(found?.variant).toBe('lookup-signed-over-other-id')
    expect(found?.mistake).toContain(
      'signed over the order number "order-7" (order.number of its POST /api/v1/session)',
    )
    const byOrder = evidence({
      path: '/api/v1/payment/status',
      body: { merchant_key: 'ref-merchant', order_id: 'order-7' },
      earlier,
    })
    expect(named(byOrder, checkout('pay-1'))?.mistake).toContain('signed over the payment_id "pay-1"')
  })

  it('names the recurring and card credit formulas under a mistaken digest', () => {
    const recurring = evidence({
      path: '/api/v1/payment/recurring',
      body: {
        merchant_key: 'ref-merchant',
        recurring_init_trans_id: 'pay-1',
        recurring_token: 'tok-1',
        order: { number: 'order-8', amount: '5.00', description: 'Monthly' },
      },
    })
    const text = ascii(`pay-1tok-1order-85.00Monthly${PASSWORD}`)
    expect(named(recurring, sha1(createHash('md5').update(text).digest()))?.variant).toBe(
      'sha1-of-binary-md5',
    )
    const credit = evidence({
      path: '/api/v1/payment/card/credit',
      body: {
        merchant_key: 'ref-merchant',
        order_id: 'payout-1',
        order_amount: '40.00',
        order_currency: 'EUR',
        order_description: 'Payout',
      },
    })
    expect(named(credit, checkout('payout-1', '40', 'EUR', 'Payout'))?.variant).toBe(
      'amount-spelled-otherwise',
    )
  })
})

describe('diagnoseHash: S2S CARD', () => {
  const card = '4601541833776519'
  const cardPart = rev(card.slice(0, 6) + card.slice(-4))

  it('names a CREDIT2CARD signed with the SALE formula (payer e-mail + card)', () => {
    const e = evidence({
      api: 's2s-card',
      path: '/post',
      action: 'CREDIT2CARD',
      body: {
        action: 'CREDIT2CARD',
        client_key: 'ref-merchant',
        order_id: 'payout-1',
        order_amount: '40.00',
        order_currency: 'EUR',
        card_number: card,
        payer_email: 'jane.doe@example.com',
      },
    })
    const found = named(e, md5(ascii(rev('jane.doe@example.com') + PASSWORD + cardPart)))
    expect(found?.variant).toBe('other-formula')
    // The formulas' ids and text are the engine's declarations (src/core/signatures/formulas.ts).
    expect(found?.mistake).toBe(
      `the merchant's hash is the formula of SALE, AUTH, DEBIT (s2s-card.formula-1) over this request; CREDIT2CARD takes s2s-card.formula-5: ${S2S_CARD_FORMULAS.credit2card.text}`,
    )
    expect(found?.fix).toContain(`for this request ${md5(ascii(PASSWORD + cardPart))}`)
  })

  it("names a CREDIT2CARD's status lookup signed with Formula 2 (with e-mail), where it takes Formula 6", () => {
    const memory = new PaymentMemory()
    memory.learn(
      { action: 'CREDIT2CARD', order_id: 'payout-1', card_number: card, payer_email: 'jane.doe@example.com' },
      { trans_id: 'trans-9' },
    )
    const e = evidence({
      api: 's2s-card',
      path: '/post',
      action: 'GET_TRANS_STATUS',
      body: { action: 'GET_TRANS_STATUS', client_key: 'ref-merchant', trans_id: 'trans-9' },
      memory,
    })
    const sent = md5(ascii(`${rev('jane.doe@example.com')}${PASSWORD}trans-9${cardPart}`))
    expect(named(e, sent)?.variant).toBe('payout-lookup-signed-as-payment')
    expect(named(e, md5(ascii(`${PASSWORD}trans-9${cardPart}`)))).toBeUndefined()
  })

  it('names a SALE hashed with sha256 where the account signs with md5, and names nothing for a random hash', () => {
    const body = {
      action: 'SALE',
      client_key: 'ref-merchant',
      order_id: 'o-1',
      payer_email: 'doe@example.com',
      card_number: card,
    }
    const e = evidence({ api: 's2s-card', path: '/post', action: 'SALE', body })
    expect(named(e, hex('sha256', ascii(rev('doe@example.com') + PASSWORD + cardPart)))?.variant).toBe(
      'sha256-for-md5',
    )
    expect(named(e, md5('random'))).toBeUndefined()
  })
})

describe('diagnoseHash: S2S APM', () => {
  it('names a SALE hash never upper-cased and a CAPTURE with the password left out', () => {
    const sale = evidence({
      api: 's2s-apm',
      path: '/post-va',
      action: 'SALE',
      body: {
        action: 'SALE',
        client_key: 'ref-merchant',
        order_id: 'o-1',
        order_amount: '1.00',
        order_currency: 'EUR',
      },
    })
    expect(named(sale, md5(rev(`o-11.00EUR${PASSWORD}`)))?.variant).toBe('not-upper-cased')
    const capture = evidence({
      api: 's2s-apm',
      path: '/post-va',
      action: 'CAPTURE',
      body: { action: 'CAPTURE', client_key: 'ref-merchant', trans_id: 'abc-1' },
    })
    expect(named(capture, md5(ascii(rev('abc-1'))))?.variant).toBe('password-left-out')
  })
})

describe('causesOf: a refused hash is headed by the mistake that reproduces it', () => {
  let seq = 0
  const observed = (
    path: string,
    body: Record<string, unknown>,
    answer: ObservedRequest['answer'] | { status: number; json: unknown },
  ) =>
    ({
      seq: seq++,
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify(body),
      body,
      answer: { text: JSON.stringify(answer.json), ...answer },
      consumed: false,
    }) as ObservedRequest
  const refused = {
    status: 400,
    json: {
      error_code: 0,
      error_message: 'Request data is invalid.',
      errors: [{ error_code: 100000, error_message: 'hash: Hash is not valid.' }],
    },
    // The refusal the gateway gives with it (docs/rules.md#rule-book): the kit reads this, not the message.
    refusal: { rule: 'checkout-signatures', fields: ['hash'], formula: 'checkout.amount-operation' },
  }
  const ctxWith = (requests: ObservedRequest[]) =>
    ({
      mode: 'merchant',
      credentials: { merchant_key: 'ref-merchant', password: PASSWORD },
      hosted: { requests },
      channel: { log: [], timeoutMs: 10_000 },
    }) as unknown as ScenarioContext
  const paid = observed('/api/v1/session', session, { status: 200, json: sessionAnswer.json })

  it('names the mistake in the headline and its fix, with the right hash', () => {
    const [first] = causesOf(
      ctxWith([
        paid,
        observed(
          '/api/v1/payment/refund',
          {
            merchant_key: 'ref-merchant',
            payment_id: 'pay-1',
            amount: '4.00',
            hash: checkout('pay-1', '10.00'),
          },
          refused,
        ),
      ]),
    )
    expect(first?.headline).toBe(
      `the merchant's hash is over amount "10.00" (order.amount of its POST /api/v1/session) where the request sent amount "4.00" (POST /api/v1/payment/refund, checkout.amount-operation) (docs/rules.md#checkout-signatures): the gateway refused it (HTTP 400: hash: Hash is not valid.)`,
    )
    expect(first?.rule).toBe(
      `checkout.amount-operation: ${CHECKOUT_FORMULAS.amountOperation.text} (${ruleLine('checkout-signatures')})`,
    )
    expect(first?.fix).toBe(
      `sign the amount the request sends ("4.00"): for this request ${checkout('pay-1', '4.00')}`,
    )
  })

  it('keeps the formula and the right hash as advice when no mistake reproduces the hash', () => {
    const wrong = 'f'.repeat(40)
    const [first] = causesOf(
      ctxWith([
        paid,
        observed(
          '/api/v1/payment/refund',
          { merchant_key: 'ref-merchant', payment_id: 'pay-1', amount: '4.00', hash: wrong },
          refused,
        ),
      ]),
    )
    expect(first?.headline).toBe(
      "the merchant signed POST /api/v1/payment/refund with another hash than checkout.amount-operation gives with the adapter's password (docs/rules.md#checkout-signatures): the gateway refused it (HTTP 400: hash: Hash is not valid.)",
    )
    expect(first?.fix).toBe(
      `compute the hash with that formula: for this request ${checkout('pay-1', '4.00')}, not "${wrong}"`,
    )
  })
})

describe('diagnoseHash: S2S CARD status lookups', () => {
  const card = '4111111111111111'
  const cardPart = rev(card.slice(0, 6) + card.slice(-4))
  const sale = {
    action: 'SALE',
    client_key: 'ref-merchant',
    order_id: 'o-5',
    payer_email: 'doe@example.com',
    card_number: card,
  }
  const memory = new PaymentMemory()
  memory.learn(sale, { trans_id: 't-5' })
  const earlier = [{ method: 'POST', path: '/post', body: sale, answer: { json: { trans_id: 't-5' } } }]
  const formula2 = md5(ascii(`${rev('doe@example.com')}${PASSWORD}t-5${cardPart}`))
  const formula7 = md5(ascii(`${rev('doe@example.com')}${PASSWORD}o-5${cardPart}`))

  it('names a GET_TRANS_STATUS signed with Formula 7 over the order, and a GET_TRANS_STATUS_BY_ORDER with Formula 2', () => {
    const byTrans = evidence({
      api: 's2s-card',
      path: '/post',
      action: 'GET_TRANS_STATUS',
      body: { action: 'GET_TRANS_STATUS', client_key: 'ref-merchant', trans_id: 't-5' },
      memory,
      earlier,
    })
    expect(named(byTrans, formula7)?.mistake).toBe(
      `the merchant's GET_TRANS_STATUS is signed with s2s-card.formula-7 over the order_id "o-5" (order_id of its POST /post SALE); a lookup by trans_id takes s2s-card.formula-2 over the trans_id it sends`,
    )
    expect(named(byTrans, formula7)?.fix).toBe(
      `sign the trans_id the lookup sends ("t-5"): for this request ${formula2}`,
    )
    const byOrder = evidence({
      api: 's2s-card',
      path: '/post',
      action: 'GET_TRANS_STATUS_BY_ORDER',
      body: { action: 'GET_TRANS_STATUS_BY_ORDER', client_key: 'ref-merchant', order_id: 'o-5' },
      memory,
      earlier,
    })
    expect(named(byOrder, formula2)?.variant).toBe('lookup-signed-over-other-id')
    expect(named(byOrder, formula7)).toBeUndefined()
  })
})
