import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { s2sCardSignatures } from '../../src/core/signatures/index.js'
import { validate } from '../../src/core/validation/index.js'
import { callbacksOf, fixture, followUp, KEY, PASSWORD, setup, snapshot } from './helpers.js'

/** A signed CARD2CARD (fixture card2card-request.basic on the demo merchant). */
function transfer(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...fixture('card2card-request.basic'),
    client_key: KEY,
    ...overrides,
  }
  const email = typeof body.payer_email === 'string' ? body.payer_email : undefined
  return { ...body, hash: s2sCardSignatures.card2card(email, PASSWORD, String(body.payer_card_number)) }
}

describe('CARD2CARD', () => {
  // S2S CARD 5.6.2: "CARD2CARD: `payer_card_number/exp_month/exp_year/cvv2`, `payee_card_number` ...
  // hash "See Appendix A, Formula 1""; docs/rules.md#signatures Formula 1 over the payer's e-mail and card.
  it("takes the platform's field names and Formula 1 with the payer's e-mail", async () => {
    const t = setup()
    const withEmail = transfer({ payer_email: 'doe@example.com', order_id: 'O-mail' })
    expect(withEmail.hash).toBe(
      createHash('md5').update(`MOC.ELPMAXE@EOD${PASSWORD.toUpperCase()}1111111114`).digest('hex'),
    )
    expect((await t.post(withEmail)).body).toMatchObject({ action: 'CARD2CARD', result: 'SUCCESS' })
    // the sandbox's earlier formula (password + sender card, ignoring the e-mail) is refused now
    const old = {
      ...withEmail,
      order_id: 'O-old',
      hash: s2sCardSignatures.card2card(undefined, PASSWORD, '4111111111111111'),
    }
    expect((await t.post(old)).body).toMatchObject({ result: 'ERROR', error_message: 'Hash is not valid.' })
  })

  it("still reads the sandbox's earlier names (card_number, card_number2) as aliases", async () => {
    const t = setup()
    const {
      payer_card_number,
      payer_card_exp_month,
      payer_card_exp_year,
      payer_card_cvv2,
      payee_card_number,
      ...rest
    } = transfer()
    const r = await t.post({
      ...rest,
      card_number: payer_card_number,
      card_exp_month: payer_card_exp_month,
      card_exp_year: payer_card_exp_year,
      card_cvv2: payer_card_cvv2,
      card_number2: payee_card_number,
    })
    expect(r.body).toMatchObject({ action: 'CARD2CARD', result: 'SUCCESS', status: 'SETTLED' })
  })

  // docs/rules.md#test-cards: "Card `4601541833776519` succeeds as a CARD2CARD recipient."
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
    expect((await t.post(transfer({ payer_card_exp_month: '02' }))).body).toMatchObject({
      result: 'DECLINED',
    })
    const threeDs = await t.post(transfer({ payer_card_exp_month: '05', order_id: 'O-2' }), '/v2/post')
    expect(threeDs.body).toMatchObject({ result: 'REDIRECT', status: '3DS', redirect_method: 'POST' })
    expect(validate('s2s-card/card2card-response-v2', threeDs.body).valid).toBe(true)
  })

  // docs/rules.md#test-cards: "`1111222233334444`: "Brand of card does not support.""
  it('declines a recipient whose brand the acquirer refuses', async () => {
    const t = setup()
    const r = await t.post(transfer({ payee_card_number: '1111222233334444' }))
    expect(r.body).toMatchObject({ result: 'DECLINED', decline_reason: 'Brand of card does not support.' })
  })

  // docs/rules.md#declined-payout (sandbox): "as a CARD2CARD payee it declines the transfer"
  it('declines a transfer to the declining test recipient', async () => {
    const t = setup()
    const r = await t.post(transfer({ payee_card_number: '4601541833776527' }))
    expect(r.body).toMatchObject({ result: 'DECLINED', decline_reason: 'Declined by processing.' })
  })

  it('refuses a recipient number with a wrong check digit and a zero amount, storing nothing', async () => {
    const t = setup()
    const before = snapshot(t)
    const luhn = await t.post(transfer({ payee_card_number: '4601541833776518' }))
    expect(luhn.body.errors).toEqual([
      { error_code: 100000, error_message: 'payee_card_number: This value is not a valid card number.' },
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
      error_message: 'Refund is not allowed.',
    })
    expect((await t.post(followUp('VOID', id, { hash }))).body).toMatchObject({
      error_message: 'Void is not allowed.',
    })
  })
})
