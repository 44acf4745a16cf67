import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkoutHash, PaymentMemory, s2sApmHash, s2sCardHash } from '../../src/conformance/signing.js'
import { declareAction } from '../../src/core/engine/pipeline.js'
import { S2S_APM_ACTIONS } from '../../src/core/s2s-apm/module.js'
import { declaredSignings } from '../../src/core/signing/declared.js'
import { S2S_APM_FORMULAS } from '../../src/core/signatures/formulas.js'
import { checkoutSignatures, s2sApmSignatures, s2sCardSignatures } from '../../src/core/signatures/index.js'
import { signatures } from '../../src/library/signatures.js'

/**
 * Issue 21 point 2: the kit, the library and the OpenAPI document take each action's signature
 * formula from its declaration; there is no hand table to forget a new action in.
 */
const PASSWORD = 'pw-0123456789'

afterEach(() => {
  delete S2S_APM_ACTIONS.TEST_LOOKUP
})

describe('signing formulas come from the declarations', () => {
  it('a newly declared action is signed by the kit and the library without editing either', () => {
    expect(s2sApmHash('TEST_LOOKUP', { trans_id: 't-1' }, PASSWORD)).toBeUndefined()
    S2S_APM_ACTIONS.TEST_LOOKUP = declareAction(
      {
        schema: 's2s-apm/get-trans-status-request',
        pathStyle: 'bracket',
        credential: 'client_key',
        formula: S2S_APM_FORMULAS.creditvoid,
      },
      () => ({ ok: true }),
    )
    const expected = s2sApmSignatures.creditvoid('t-1', PASSWORD)
    expect(s2sApmHash('TEST_LOOKUP', { trans_id: 't-1' }, PASSWORD)).toBe(expected)
    expect(signatures.request('s2s-apm', { action: 'TEST_LOOKUP' }, { trans_id: 't-1' }, PASSWORD)).toBe(
      expected,
    )
  })

  it('every S2S action and every signed Checkout route declares a formula', () => {
    const card = declaredSignings('s2s-card')
    const apm = declaredSignings('s2s-apm')
    const checkout = declaredSignings('checkout')
    for (const action of [
      'SALE',
      'AUTH',
      'DEBIT',
      'CAPTURE',
      'VOID',
      'CREDITVOID',
      'RECURRING_SALE',
      'RETRY',
    ])
      expect(card.has(action), action).toBe(true)
    for (const action of [
      'GET_TRANS_STATUS_BY_ORDER',
      'CARD2CARD',
      'CREDIT2CARD',
      'CREATE_SCHEDULE',
      'PAUSE',
    ])
      expect(card.has(action), action).toBe(true)
    expect([...apm.keys()].sort()).toEqual(Object.keys(S2S_APM_ACTIONS).sort())
    expect([...checkout.keys()].sort()).toEqual([
      '/api/v1/payment/capture',
      '/api/v1/payment/card/credit',
      '/api/v1/payment/recurring',
      '/api/v1/payment/refund',
      '/api/v1/payment/retry',
      '/api/v1/payment/status',
      '/api/v1/payment/void',
      '/api/v1/session',
      '/api/v1/session/token',
    ])
  })

  it("the OpenAPI document lists each action's declared formula (x-signatures)", () => {
    const doc = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8'),
    )
    const listed = doc.paths['/post-va'].post['x-signatures'] as Record<string, { id: string }>
    for (const [action, { formula }] of declaredSignings('s2s-apm'))
      expect(listed[action]?.id, action).toBe(formula.id)
    const card = doc.paths['/v2/post'].post['x-signatures'] as Record<string, { id: string }>
    expect(card.CAPTURE?.id).toBe('s2s-card.formula-2')
    expect(doc.paths['/api/v1/payment/refund'].post['x-signatures']['/api/v1/payment/refund'].id).toBe(
      'checkout.amount-operation',
    )
  })

  it('the kit signs by the declared formula, the original payment taken from what it remembers', () => {
    const order = { number: 'O-1', amount: '10.00', currency: 'USD', description: 'Tea' }
    expect(checkoutHash('/api/v1/session', { order }, PASSWORD)).toBe(
      checkoutSignatures.session(order, PASSWORD),
    )
    expect(checkoutHash('/api/v1/payment/refund', { payment_id: 'p', amount: '1.00' }, PASSWORD)).toBe(
      checkoutSignatures.amountOperation('p', '1.00', PASSWORD),
    )
    expect(checkoutHash('/api/v1/session/update', {}, PASSWORD)).toBeUndefined()
    const memory = new PaymentMemory()
    const sale = { action: 'SALE', payer_email: 'a@b.test', card_number: '4111111111111111', order_id: 'O-2' }
    memory.learn(sale, { trans_id: 'tr-1' })
    expect(s2sCardHash('SALE', sale, PASSWORD, memory)).toBe(
      s2sCardSignatures.payment('a@b.test', PASSWORD, { cardNumber: '4111111111111111' }),
    )
    expect(s2sCardHash('CAPTURE', { trans_id: 'tr-1' }, PASSWORD, memory)).toBe(
      s2sCardSignatures.transaction('a@b.test', PASSWORD, 'tr-1', { cardNumber: '4111111111111111' }),
    )
    expect(s2sCardHash('GET_TRANS_STATUS_BY_ORDER', { order_id: 'O-2' }, PASSWORD, memory)).toBe(
      s2sCardSignatures.byOrder('a@b.test', PASSWORD, 'O-2', { cardNumber: '4111111111111111' }),
    )
    // A CREDIT2CARD payout's lookups: Formula 6.
    const payout = { action: 'CREDIT2CARD', card_number: '4601541833776519', order_id: 'O-3' }
    memory.learn(payout, { trans_id: 'tr-2' })
    expect(s2sCardHash('GET_TRANS_STATUS', { trans_id: 'tr-2' }, PASSWORD, memory)).toBe(
      s2sCardSignatures.credit2cardTransaction(PASSWORD, 'tr-2', { cardNumber: '4601541833776519' }),
    )
    expect(() =>
      s2sCardHash('RECURRING_SALE', { recurring_first_trans_id: 'nope' }, PASSWORD, memory),
    ).toThrow(/has not seen the initial payment/)
  })
})
