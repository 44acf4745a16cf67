import { describe, expect, it } from 'vitest'
import { s2sCardSignatures } from '../../src/core/signatures/index.js'
import { validate } from '../../src/core/validation/index.js'
import { callbacksOf, fixture, followUp, KEY, PASSWORD, setup, snapshot } from './helpers.js'

/** A signed CARD2CARD (fixture card2card-request.basic on the demo merchant). */
function transfer(overrides: Record<string, unknown> = {}) {
  const body: Record<string, unknown> = {
    ...fixture('card2card-request.basic'),
    client_key: KEY,
    ...overrides,
  }
  return { ...body, hash: s2sCardSignatures.card2card(PASSWORD, String(body.card_number)) }
}

describe('CARD2CARD', () => {
  // decisions.md §4: "Card `4601541833776519` succeeds as a CARD2CARD recipient."
  it('moves the money to the test recipient and reports CARD2CARD', async () => {
    const t = setup()
    const r = await t.post(transfer())
    expect(r.body).toEqual({
      action: 'CARD2CARD',
      result: 'SUCCESS',
      status: 'SETTLED',
      order_id: 'ORDER-1301',
      trans_id: expect.any(String),
      trans_date: '2026-11-02 10:00:00',
      descriptor: 'PAYSANDBOX',
      amount: '25.00',
      currency: 'EUR',
    })
    expect(validate('s2s-card/card2card-response', r.body).valid).toBe(true)
    const id = r.body.trans_id as string
    expect(t.payment(id)).toMatchObject({ operation: 'credit', action: 'CARD2CARD', card: { last4: '1111' } })
    expect(JSON.stringify(t.store.list('payments'))).not.toContain('4601541833776519')
    expect(callbacksOf(t, id)[0]).toMatchObject({ action: 'CARD2CARD', result: 'SUCCESS' })
  })

  it('follows the sender card: month 02 declines, month 05 asks for 3DS', async () => {
    const t = setup()
    expect((await t.post(transfer({ card_exp_month: '02' }))).body).toMatchObject({ result: 'DECLINED' })
    const threeDs = await t.post(transfer({ card_exp_month: '05', order_id: 'O-2' }), '/v2/post')
    expect(threeDs.body).toMatchObject({ result: 'REDIRECT', status: '3DS', redirect_method: 'POST' })
    expect(validate('s2s-card/card2card-response-v2', threeDs.body).valid).toBe(true)
  })

  // decisions.md §4: "`1111222233334444`: "Brand of card does not support.""
  it('declines a recipient whose brand the acquirer refuses', async () => {
    const t = setup()
    const r = await t.post(transfer({ card_number2: '1111222233334444' }))
    expect(r.body).toMatchObject({ result: 'DECLINED', decline_reason: 'Brand of card does not support.' })
  })

  it('refuses a recipient number with a wrong check digit and a zero amount, storing nothing', async () => {
    const t = setup()
    const before = snapshot(t)
    const luhn = await t.post(transfer({ card_number2: '4601541833776518' }))
    expect(luhn.body.errors).toEqual([
      { error_code: 100000, error_message: 'card_number2: This value is not a valid card number.' },
    ])
    const zero = await t.post(transfer({ order_amount: '0.00' }))
    expect(zero.body.errors).toEqual([
      { error_code: 100000, error_message: 'amount: This value should be greater than 0.' },
    ])
    expect(snapshot(t)).toBe(before)
  })

  // A payout cannot be taken back: the interface's own messages are reused.
  it('cannot be refunded or voided', async () => {
    const t = setup()
    const r = await t.post(transfer())
    const id = r.body.trans_id as string
    const hash = s2sCardSignatures.transaction('', PASSWORD, id, { cardNumber: '4111111111111111' })
    expect((await t.post(followUp('CREDITVOID', id, { hash }))).body).toMatchObject({
      error_message: 'Refund is not allowed',
    })
    expect((await t.post(followUp('VOID', id, { hash }))).body).toMatchObject({
      error_message: 'Void is not allowed.',
    })
  })
})
