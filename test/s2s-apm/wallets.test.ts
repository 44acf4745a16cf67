import { describe, expect, it } from 'vitest'
import { validate } from '../../src/core/validation/index.js'
import { callbackSigned, followUp, sale, setup, snapshot, type ApmGateway } from './helpers.js'

/**
 * S2S APM CAPTURE of the device-wallet brands. S2S APM 3.6.2: CAPTURE "implemented for the
 * wallet brands applepay and googlepay", "Only one partial capture is allowed. If omitted, the full
 * authorized amount is captured."; docs/rules.md#method-identifiers: `wallet1` = `applepay`,
 * `wallet2` = `googlepay`. Interface 2.2.3 (Flow rules for both wallets): rule 2, the card flow
 * ("the decryption private key is set in the panel and the payment provider supports card flow"),
 * makes "capture in DMS mode" available; rules 1 and 3, the virtual flow, limit it.
 */

const KEY =
  '-----BEGIN PRIVATE KEY-----MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg-----END PRIVATE KEY-----'
const WALLET1 = { merchant_identifier: 'merchant.test.shop', country: 'GB', shop_name: 'Teapots' } as const
const WALLET2 = {
  merchant_identifier: 'BCR2DN4T',
  gateway: 'paysandbox',
  gateway_merchant_id: 'demo',
} as const
/** Both wallets in the card flow: the decryption key of each is set (2.2.3 rule 2). */
const CARD_FLOW = {
  wallet1: { ...WALLET1, processing_private_key: KEY },
  wallet2: { ...WALLET2, private_key: KEY },
}

const envelope = (error_code: number, error_message: string) => ({
  result: 'ERROR',
  http_code: 400,
  error_code,
  error_message,
})
const platformItem = (error_code: number, error_message: string) => ({
  ...envelope(100000, 'Request data is invalid.'),
  errors: [{ error_code, error_message }],
})

/** A SALE with `auth=Y` on the wallet brand, approved on its simulator page: the authorization, held. */
async function heldWallet(t: ApmGateway, brand: string, overrides: Record<string, unknown> = {}) {
  const r = await sale(t, { brand, auth: 'Y', ...overrides })
  expect(r).toMatchObject({ result: 'REDIRECT', status: 'REDIRECT', brand })
  const approved = await t.call('POST', `/sandbox/payments/${r.trans_id}/apm`, { outcome: 'approve' })
  expect(approved.status).toBe(200)
  expect(t.payment(r.trans_id).status).toBe('pending')
  return r
}

describe('S2S APM CAPTURE of a wallet brand in the card flow (2.2.3 rule 2; S2S APM 3.6.2)', () => {
  it('applepay: auth=Y holds, CAPTURE without amount settles the full authorization', async () => {
    const t = setup({ wallets: CARD_FLOW })
    const held = await heldWallet(t, 'applepay')
    // Rule 2: "the token is always decrypted" and the card stored, masked (first 6 + last 4).
    expect(t.payment(held.trans_id)).toMatchObject({
      method: 'wallet1',
      card: { masked: '411111******1111' },
    })
    const r = await t.post(followUp('CAPTURE', held.trans_id))
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      action: 'CAPTURE',
      result: 'SUCCESS',
      status: 'SETTLED',
      order_id: 'APM-2001',
      trans_id: held.trans_id,
      trans_date: '2026-11-02 10:00:00',
      descriptor: '',
      amount: '15.00',
      currency: 'USD',
    })
    expect(validate('s2s-apm/capture-response', r.body).errors).toEqual([])
    expect(t.payment(held.trans_id)).toMatchObject({ status: 'settled', amount_captured: '15.00' })
    const callbacks = await t.callbacks()
    expect(callbacks.map((c) => [c.action, c.result, c.status])).toEqual([
      ['SALE', 'REDIRECT', 'REDIRECT'],
      ['SALE', 'SUCCESS', 'PENDING'],
      ['CAPTURE', 'SUCCESS', 'SETTLED'],
    ])
    expect(callbacks.every(callbackSigned)).toBe(true)
  })

  it('googlepay: one partial capture settles that amount; a second capture is refused (208003)', async () => {
    const t = setup({ wallets: CARD_FLOW })
    const held = await heldWallet(t, 'googlepay')
    const r = await t.post(followUp('CAPTURE', held.trans_id, { amount: '10.00' }))
    expect(r.body).toMatchObject({ action: 'CAPTURE', result: 'SUCCESS', status: 'SETTLED', amount: '10.00' })
    expect(t.payment(held.trans_id)).toMatchObject({ status: 'settled', amount_captured: '10.00' })
    // "Only one partial capture is allowed": the payment is no longer pending.
    const before = await snapshot(t)
    expect((await t.post(followUp('CAPTURE', held.trans_id, { amount: '5.00' }))).body).toEqual(
      platformItem(208003, 'Not acceptable to request the capture for payment not in pending status.'),
    )
    expect(await snapshot(t)).toBe(before)
    // The captured amount is what a refund can take back (docs/rules.md#business-codes: 208006 above it).
    expect((await t.post(followUp('CREDITVOID', held.trans_id, { amount: '10.00' }))).body).toMatchObject({
      result: 'ACCEPTED',
    })
  })

  // docs/rules.md#amounts: "208004 capture above the authorized amount"; a zero amount as the other APM amounts.
  it('refuses an amount above the authorization (208004), zero or malformed, changing nothing', async () => {
    const t = setup({ wallets: CARD_FLOW })
    const held = await heldWallet(t, 'applepay')
    const before = await snapshot(t)
    expect((await t.post(followUp('CAPTURE', held.trans_id, { amount: '15.01' }))).body).toEqual(
      platformItem(
        208004,
        'amount: Not acceptable to request the capture for amount bigger than auth amount.',
      ),
    )
    const zero = await t.post(followUp('CAPTURE', held.trans_id, { amount: '0.00' }))
    expect(zero.status).toBe(400)
    expect(zero.body.errors).toEqual([
      { error_code: 100000, error_message: 'amount: This value should be greater than 0.' },
    ])
    const malformed = await t.post(followUp('CAPTURE', held.trans_id, { amount: '10.5.0' }))
    expect(malformed.status).toBe(400)
    expect(malformed.body.result).toBe('ERROR')
    expect(await snapshot(t)).toBe(before)
    expect(t.payment(held.trans_id).status).toBe('pending')
  })

  it('the brand names the wallet as the catalogue id too (wallet2): same card flow', async () => {
    const t = setup({ wallets: CARD_FLOW })
    const held = await heldWallet(t, 'wallet2')
    expect((await t.post(followUp('CAPTURE', held.trans_id))).body).toMatchObject({
      result: 'SUCCESS',
      status: 'SETTLED',
    })
  })
})

describe('S2S APM CAPTURE of a wallet brand in the virtual flow (2.2.3 rules 1 and 3)', () => {
  const VIRTUAL = envelope(
    100000,
    "Capture is not available for this wallet payment: it followed the virtual flow. Set the wallet's decryption private key (card flow) to capture in DMS mode.",
  )

  it('without the decryption key: no card stored, CAPTURE refused, the hold can still be released', async () => {
    const t = setup({ wallets: { wallet1: WALLET1 } })
    const held = await heldWallet(t, 'applepay')
    expect(t.payment(held.trans_id).card).toBeUndefined()
    const before = await snapshot(t)
    const r = await t.post(followUp('CAPTURE', held.trans_id))
    expect(r.status).toBe(400)
    expect(r.body).toEqual(VIRTUAL)
    expect(await snapshot(t)).toBe(before)
    // Interface States: a held authorization is released in full by CREDITVOID.
    expect((await t.post(followUp('CREDITVOID', held.trans_id))).body).toMatchObject({ result: 'ACCEPTED' })
    expect(t.payment(held.trans_id).status).toBe('reversal')
  })

  it('with the key but a provider without card flow (rule 3: "either condition is missing")', async () => {
    const t = setup({
      wallets: { wallet2: { ...WALLET2, private_key: KEY, provider_supports_card_flow: false } },
    })
    const held = await heldWallet(t, 'googlepay')
    expect((await t.post(followUp('CAPTURE', held.trans_id))).body).toEqual(VIRTUAL)
    expect(t.payment(held.trans_id).status).toBe('pending')
  })

  it('a merchant without Wallets settings: virtual by default (rule 1)', async () => {
    const t = setup()
    const held = await heldWallet(t, 'googlepay')
    expect((await t.post(followUp('CAPTURE', held.trans_id, { amount: '5.00' }))).body).toEqual(VIRTUAL)
  })
})

describe('S2S APM `brand` echoed as the merchant sent it (docs/rules.md#method-identifiers)', () => {
  // docs/rules.md#method-identifiers: "`wallet1` = `applepay`, `wallet2` = `googlepay` (... S2S `digital_wallet` values
  // and APM brands)": the merchant's `applepay` is the platform's own identifier, so it comes back as sent.
  it('answers, statuses and callbacks say applepay; the engine keeps wallet1', async () => {
    const t = setup({ wallets: CARD_FLOW, mapping: { return_additional_parameters: ['brand'] } })
    const held = await heldWallet(t, 'applepay')
    expect(t.payment(held.trans_id)).toMatchObject({ method: 'wallet1', apm: { brand: 'applepay' } })
    const status = await t.post(followUp('GET_TRANS_STATUS', held.trans_id))
    expect(status.body).toMatchObject({ status: 'PENDING', brand: 'applepay' })
    await t.post(followUp('CAPTURE', held.trans_id))
    const callbacks = await t.callbacks()
    // Card flow: the stored card's scheme does not replace the brand the merchant sent.
    expect(callbacks.map((c) => [c.action, c.status, c.brand])).toEqual([
      ['SALE', 'REDIRECT', 'applepay'],
      ['SALE', 'PENDING', 'applepay'],
      ['CAPTURE', 'SETTLED', 'applepay'],
    ])
    expect(callbacks.every(callbackSigned)).toBe(true)
  })

  it('googlepay and an alias of another method (intc-sdp) likewise', async () => {
    const t = setup({ mapping: { return_additional_parameters: ['brand'] } })
    const google = await sale(t, { brand: 'googlepay' })
    expect(google.brand).toBe('googlepay')
    expect(t.payment(google.trans_id).method).toBe('wallet2')
    const interac = await sale(t, { brand: 'intc-sdp', order_id: 'alias' })
    expect(interac.brand).toBe('intc-sdp')
    expect(t.payment(interac.trans_id).method).toBe('interac')
    expect((await t.post(followUp('GET_TRANS_STATUS', interac.trans_id))).body.brand).toBe('intc-sdp')
    expect((await t.callbacks()).map((c) => c.brand)).toEqual(['googlepay', 'intc-sdp'])
  })
})
