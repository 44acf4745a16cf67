import { describe, expect, it } from 'vitest'
import { s2sCardSignatures } from '../../src/core/signatures/index.js'
import {
  CARD,
  EMAIL,
  fixture,
  followUp,
  KEY,
  PASSWORD,
  paid,
  saleForm,
  saleHash,
  setup,
  snapshot,
  tokenHash,
  transHash,
} from './helpers.js'

const HASH_INVALID = {
  result: 'ERROR',
  http_code: 401,
  error_code: 100000,
  error_message: 'Hash is not valid.',
}

describe('S2S CARD signatures (docs/rules.md#signatures)', () => {
  // docs/rules.md#known-answer: "Known answer: payer_email `doe@example.com`, password `13a4822c5907ed235f3a068c76184fc3`, card
  // `4111111111111111` gives SALE hash `2702ae0c4f99506dc29b5615ba9ee3c0`. Tests must include it."
  it('reproduces the known-answer SALE hash, and a merchant with that password is served with it', async () => {
    const password = '13a4822c5907ed235f3a068c76184fc3'
    expect(s2sCardSignatures.payment('doe@example.com', password, { cardNumber: '4111111111111111' })).toBe(
      '2702ae0c4f99506dc29b5615ba9ee3c0',
    )
    const t = setup({ password })
    // The fixture carries the known-answer hash as it is.
    const r = await t.post({ ...fixture('sale-request.basic'), client_key: KEY })
    expect(r.body).toMatchObject({ result: 'SUCCESS', status: 'SETTLED' })
  })

  it('refuses a SALE whose hash is wrong or missing its parts, changing nothing', async () => {
    const t = setup()
    const before = snapshot(t)
    for (const hash of [saleHash('other@example.com'), saleHash(EMAIL, '4111111111111112'), 'a'.repeat(32)]) {
      expect((await t.post(saleForm({ hash }))).body).toEqual(HASH_INVALID)
    }
    expect(snapshot(t)).toBe(before)
  })

  // docs/rules.md#s2s-card-formulas: "with `card_token`: md5(upper(rev(payer_email) + password + rev(card_token)))"
  it('signs a token payment over the card_token, and the saved card pays', async () => {
    const t = setup()
    const saved = await paid(t, { req_token: 'Y' })
    const token = saved.card_token as string
    const card = {
      card_number: undefined,
      card_exp_month: undefined,
      card_exp_year: undefined,
      card_cvv2: undefined,
    }
    const r = await t.post(saleForm({ ...card, card_token: token, order_id: 'O-2', hash: tokenHash(token) }))
    expect(r.body).toMatchObject({ result: 'SUCCESS', card_token: token })
    expect(t.payment(r.body.trans_id)).toMatchObject({
      card: { masked: '411111******1111' },
      token_used: true,
    })
    const wrong = await t.post(saleForm({ ...card, card_token: token, hash: saleHash() }))
    expect(wrong.body).toEqual(HASH_INVALID)
  })

  // docs/rules.md#s2s-card-formulas: "| CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS, callbacks | md5(upper(rev(payer_email) + password
  // + trans_id + rev(first6 + last4))) of the original payment |"
  it.each(['CAPTURE', 'VOID', 'CREDITVOID', 'GET_TRANS_STATUS'])(
    "%s is signed over the trans_id and the original payment's e-mail and card digits",
    async (action) => {
      const t = setup()
      const { trans_id } = await paid(t, { auth: action === 'CAPTURE' ? 'Y' : 'N' })
      const before = snapshot(t)
      const wrongEmail = await t.post(
        followUp(action, trans_id, { hash: transHash(trans_id, 'x@example.com') }),
      )
      expect(wrongEmail.body).toEqual(HASH_INVALID)
      const wrongCard = await t.post(
        followUp(action, trans_id, { hash: transHash(trans_id, EMAIL, '4000000000000002') }),
      )
      expect(wrongCard.body).toEqual(HASH_INVALID)
      expect(snapshot(t)).toBe(before)
      expect((await t.post(followUp(action, trans_id))).status).toBe(200)
    },
  )

  it('signs the callbacks with the same formula as the follow-ups', async () => {
    const t = setup()
    const { trans_id } = await paid(t)
    const [delivery] = t.store.findBy('deliveries', 'payment_id', trans_id)
    expect(delivery?.fields.hash).toBe(transHash(trans_id))
  })

  // docs/rules.md#s2s-card-formulas: Formula 1 "CARD2CARD (payer's card) (changed)"; without payer_email it drops out.
  it("signs CARD2CARD with Formula 1 over the payer's card", async () => {
    const t = setup()
    const body = { ...fixture('card2card-request.basic'), client_key: KEY }
    const signed = s2sCardSignatures.card2card(undefined, PASSWORD, CARD)
    expect((await t.post({ ...body, hash: signed })).body).toMatchObject({ result: 'SUCCESS' })
    const recipient = s2sCardSignatures.card2card(undefined, PASSWORD, '4601541833776519')
    expect((await t.post({ ...body, hash: recipient })).body).toEqual(HASH_INVALID)
  })

  it('refuses an unknown client_key before anything else', async () => {
    const t = setup()
    const r = await t.post(saleForm({ client_key: 'nobody' }))
    expect(r.body).toEqual({
      result: 'ERROR',
      http_code: 401,
      error_code: 100000,
      error_message: 'Merchant not found.',
    })
  })
})
