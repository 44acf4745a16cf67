import { describe, expect, it } from 'vitest'
import { DAY } from '../../src/core/ports/clock.js'
import { s2sCardSignatures } from '../../src/core/signatures/index.js'
import {
  KEY,
  OTHER_KEY,
  OTHER_PASSWORD,
  paid,
  saleForm,
  saleHash,
  setup,
  snapshot,
  tokenHash,
} from './helpers.js'

const messages = (body: Record<string, unknown>) =>
  ((body.errors ?? []) as { error_message: string }[]).map((e) => e.error_message)

const ZERO = 'amount: This value should be greater than 0.'

describe('request rules beyond the schema', () => {
  it('reports every bad card field at once and stores nothing', async () => {
    const t = setup()
    const before = snapshot(t)
    const r = await t.post(
      saleForm({ card_number: '4111111111111112', card_exp_month: '01', card_exp_year: '2020' }),
    )
    expect(r.status).toBe(400)
    expect(r.body.error_message).toBe('Request data is invalid.')
    expect(messages(r.body)).toEqual([
      'card_number: This value is not a valid card number.',
      'card_exp_month: This card has expired.',
    ])
    expect(snapshot(t)).toBe(before)
  })

  // docs/rules.md#business-codes: the platform's catalogue "205005 Card token is invalid or not found." (the platform's error catalogue in S2S CARD 5.6.2).
  it("refuses a card_token that is unknown or another merchant's with 205005", async () => {
    const t = setup()
    const noCard = {
      card_number: undefined,
      card_exp_month: undefined,
      card_exp_year: undefined,
      card_cvv2: undefined,
    }
    const unknown = await t.post(saleForm({ ...noCard, card_token: 'nope', hash: tokenHash('nope') }))
    expect(messages(unknown.body)).toEqual(['card_token: Card token is invalid or not found.'])
    expect(unknown.body.errors).toEqual([
      { error_code: 205005, error_message: 'card_token: Card token is invalid or not found.' },
    ])
    const saved = await paid(t, { req_token: 'Y' })
    const token = saved.card_token as string
    const foreign = await t.post(
      saleForm({
        ...noCard,
        client_key: OTHER_KEY,
        card_token: token,
        hash: s2sCardSignatures.payment('doe@example.com', OTHER_PASSWORD, { cardToken: token }),
      }),
    )
    expect(messages(foreign.body)).toEqual(['card_token: Card token is invalid or not found.'])
  })

  // 2.1.3: "the four fields payer_address, payer_country, payer_city, payer_zip are optional unless the
  // Protocol Mapping marks them Required (default mappings mark them Optional)"
  it('accepts a sale without the payer address by default', async () => {
    const t = setup()
    const none = {
      payer_address: undefined,
      payer_country: undefined,
      payer_city: undefined,
      payer_zip: undefined,
    }
    expect((await t.post(saleForm(none))).body).toMatchObject({ result: 'SUCCESS' })
  })

  it('requires the address fields the mapping marks Required, at their field', async () => {
    const t = setup({ mapping: { payer_address_fields: { payer_city: 'Required', payer_zip: 'Required' } } })
    const r = await t.post(saleForm({ payer_city: undefined, payer_zip: '', payer_address: undefined }))
    expect(messages(r.body)).toEqual([
      'payer_city: This value should not be blank.',
      'payer_zip: This value should not be blank.',
    ])
    expect((await t.post(saleForm())).body.result).toBe('SUCCESS')
  })

  // Endpoints: the S2S CARD action list; anything else is refused (catalogue S2S_CARD_ACTION_UNKNOWN).
  it('refuses an unknown or missing action', async () => {
    const t = setup()
    for (const action of ['SALEX', undefined, 'toString']) {
      const r = await t.post(saleForm({ action }))
      expect(messages(r.body)).toEqual(['action: The value you selected is not a valid choice.'])
    }
  })
})

describe('zero amounts (2.1.1)', () => {
  // Errors: "| Zero amount on plain SALE or purchase | not shown | not shown | amount: This value should be greater than 0. |"
  it('refuses a zero amount on a plain SALE and a plain DEBIT', async () => {
    const t = setup()
    const before = snapshot(t)
    expect(messages((await t.post(saleForm({ order_amount: '0.00' }))).body)).toEqual([ZERO])
    expect(messages((await t.post(saleForm({ action: 'DEBIT', order_amount: '0.00' }))).body)).toEqual([ZERO])
    expect(snapshot(t)).toBe(before)
  })

  // 2.1.1: "A zero amount is accepted only on an authorization-only request or on the request that
  // initializes a recurring chain, and only when the payment provider supports zero-value transactions."
  it('refuses a zero authorization when no MID supports zero amounts, accepts it when one does', async () => {
    const plain = setup()
    expect(messages((await plain.post(saleForm({ order_amount: '0.00', auth: 'Y' }))).body)).toEqual([ZERO])
    const t = setup({ mids: [{ id: 'zero', payment_mode: 'SMS/DMS', zero_amount: true }] })
    const auth = await t.post(saleForm({ order_amount: '0.00', auth: 'Y' }))
    expect(auth.body).toMatchObject({ result: 'SUCCESS', status: 'PENDING', amount: '0.00' })
    const init = await t.post(saleForm({ order_amount: '0.00', recurring_init: 'Y', order_id: 'O-2' }))
    expect(init.body).toMatchObject({ result: 'SUCCESS', recurring_token: expect.any(String) })
  })
})

describe('card expiry on the sandbox clock', () => {
  it('takes a card through the last day of its expiry month', async () => {
    const t = setup()
    const ok = await t.post(saleForm({ card_exp_month: '11', card_exp_year: '2026', hash: saleHash() }))
    expect(ok.body.result).toBe('SUCCESS')
    await t.clock.advance(30 * DAY)
    const late = await t.post(saleForm({ card_exp_month: '11', card_exp_year: '2026', client_key: KEY }))
    expect(messages(late.body)).toEqual(['card_exp_month: This card has expired.'])
  })
})
