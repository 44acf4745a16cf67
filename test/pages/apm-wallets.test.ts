import { describe, expect, it } from 'vitest'
import { assertWalletAllows, walletFlow } from '../../src/core/payments/wallets.js'
import type { SandboxMerchant } from '../../src/core/engine/context.js'
import { answerForm, GatewayError } from '../../src/core/engine/errors.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import type { Payment } from '../../src/core/engine/model.js'
import { attr, openSession, tag } from './helpers.js'
import { form, pagesGateway, payWith, text } from './apm-helpers.js'

const KEY =
  '-----BEGIN PRIVATE KEY-----MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg-----END PRIVATE KEY-----'
const wallet1 = { merchant_identifier: 'merchant.test.shop', country: 'GB', shop_name: 'Teapots' }
const cardFlow = {
  wallets: { wallet1: { ...wallet1, processing_private_key: KEY } },
} as Partial<SandboxMerchant>
const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15'
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'

describe('device wallets (2.2.3)', () => {
  it('rule 2 and 3: card flow only with the decryption key and a provider that supports it', () => {
    const settings = (extra: Record<string, unknown>) =>
      ({ wallets: { wallet1: { ...wallet1, ...extra } } }) as SandboxMerchant
    expect(walletFlow(settings({}), 'wallet1').flow).toBe('virtual')
    expect(walletFlow(settings({ processing_private_key: KEY }), 'wallet1')).toEqual({
      flow: 'card',
      smart_routing: true,
    })
    expect(
      walletFlow(settings({ processing_private_key: KEY, provider_supports_card_flow: false }), 'wallet1')
        .flow,
    ).toBe('virtual')
    // Rule 4: card stored, but no smart routing when the provider does not accept decrypted data.
    expect(
      walletFlow(
        settings({ processing_private_key: KEY, provider_accepts_decrypted_data: false }),
        'wallet1',
      ),
    ).toEqual({ flow: 'card', smart_routing: false })
    expect(
      walletFlow({ wallets: { wallet2: { private_key: KEY } } } as unknown as SandboxMerchant, 'wallet2')
        .flow,
    ).toBe('card')
  })

  it('wallet1 outside Safari shows a code to scan with the phone; in Safari the native button', async () => {
    const t = pagesGateway()
    const { path } = await payWith(t, 'wallet1')
    const chrome = (await t.call('GET', path, undefined, { 'user-agent': CHROME })).raw
    expect(text(chrome)).toContain('Scan this code with your phone to pay with Phone wallet')
    expect(/<img[^>]*id="apm-qr"/.test(chrome)).toBe(true)
    const safari = (await t.call('GET', path, undefined, { 'user-agent': SAFARI })).raw
    expect(/<img[^>]*id="apm-qr"/.test(safari)).toBe(false)
    expect(text(tag(safari, 'apm-approve') ?? '') + text(safari)).toContain('Pay with Phone wallet')
  })

  it('rule 1, virtual flow: no card stored, capture and recurring refused with the catalogue rows', async () => {
    const t = pagesGateway()
    const { path, paymentId } = await payWith(t, 'wallet1')
    expect(text((await t.call('GET', path)).raw)).toContain('Virtual flow: no card is stored')
    await t.call('POST', `${path}/outcome`, form({ outcome: 'approve' }))
    const payment = t.store.get('payments', paymentId) as Payment
    expect(payment.status).toBe('settled')
    expect(payment.card).toBeUndefined()
    expect(() => assertWalletAllows(payment, 'capture')).toThrow(GatewayError)
    expect(() => assertWalletAllows(payment, 'recurring')).toThrow(/virtual flow/)
    // A recurring_init session cannot be paid with a virtual-flow wallet.
    const token = await openSession(t, { methods: ['wallet1'], recurring_init: true })
    const refused = await t.call('POST', `/auth/${token}/method/wallet1`, '')
    expect(refused.status).toBe(422)
    expect(text(refused.raw)).toContain('Recurring payments are not available for this wallet payment')
  })

  it('rule 2, card flow: the card is stored masked, capture and recurring allowed, recurring token issued', async () => {
    const t = pagesGateway(cardFlow)
    const { path, paymentId } = await payWith(t, 'wallet1', { recurring_init: true })
    expect(text((await t.call('GET', path)).raw)).toContain(
      'Card flow: the card 411111******1111 is stored; capture and recurring payments are available.',
    )
    const done = await t.call('POST', `${path}/outcome`, form({ outcome: 'approve' }))
    expect(attr(`<a href="${done.headers.location}">`, 'href')).toMatch(/^https:\/\/shop\.test\/success\?/)
    const payment = t.store.get('payments', paymentId) as Payment
    expect(payment.card?.masked).toBe('411111******1111')
    expect(payment.recurring?.token).toBeTruthy()
    expect(() => assertWalletAllows(payment, 'capture')).not.toThrow()
  })

  // Issue 21 point 6: one engine operation approves a wallet payment, whoever approves it. The
  // control route (the console) and the kit's payer (applyApmOutcome) issue the recurring token
  // exactly as the hosted page does, and the callback carries it.
  it('rule 2, card flow: approving through POST /sandbox/payments/:id/apm issues the recurring token as the page does', async () => {
    const t = pagesGateway(cardFlow)
    const { paymentId } = await payWith(t, 'wallet1', { recurring_init: true })
    expect((t.store.get('payments', paymentId) as Payment).recurring?.token).toBeUndefined()
    const approved = await t.call('POST', `/sandbox/payments/${paymentId}/apm`, { outcome: 'approve' })
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({ payment_id: paymentId, status: 'settled' })
    const payment = t.store.get('payments', paymentId) as Payment
    expect(payment.card?.masked).toBe('411111******1111')
    expect(payment.recurring?.token).toBeTruthy()
    expect(payment.recurring?.init_trans_id).toBe(paymentId)
    const byPage = pagesGateway(cardFlow)
    const page = await payWith(byPage, 'wallet1', { recurring_init: true })
    await byPage.call('POST', `${page.path}/outcome`, form({ outcome: 'approve' }))
    const pagePayment = byPage.store.get('payments', page.paymentId) as Payment
    expect(Object.keys(pagePayment.recurring ?? {}).sort()).toEqual(
      Object.keys(payment.recurring ?? {}).sort(),
    )
  })

  it('rule 1, virtual flow: approving through the control route issues no token (the session could not ask for one)', async () => {
    const t = pagesGateway()
    const { paymentId } = await payWith(t, 'wallet1')
    await t.call('POST', `/sandbox/payments/${paymentId}/apm`, { outcome: 'approve' })
    expect((t.store.get('payments', paymentId) as Payment).recurring?.token).toBeUndefined()
  })

  // 2.2.3 rule 1: "By default payments are virtual: card details are not stored, DMS capture and recurring creation are limited."
  it('rule 1 through the API: capturing a held virtual-flow wallet payment is refused and changes nothing', async () => {
    const t = pagesGateway()
    const { path, paymentId } = await payWith(t, 'wallet1', { auth: true })
    await t.call('POST', `${path}/outcome`, form({ outcome: 'approve' }))
    expect((t.store.get('payments', paymentId) as Payment).status).toBe('pending')
    const before = t.store.count('transactions')
    const hash = checkoutSignatures.amountOperation(paymentId, undefined, 'demo-password-0123456789abcdef')
    const r = await t.call('POST', '/api/v1/payment/capture', {
      merchant_key: 'demo-merchant',
      payment_id: paymentId,
      hash,
    })
    // docs/rules.md#errors: on Checkout the refusal is an errors[] item under error_code 0
    const row = answerForm('WALLET_VIRTUAL_FLOW_CAPTURE', 'checkout')
    expect(r.status).toBe(row.http_code)
    expect(r.body).toMatchObject({
      error_code: row.error_code,
      error_message: row.error_message,
      errors: [row.item],
    })
    expect((t.store.get('payments', paymentId) as Payment).status).toBe('pending')
    expect(t.store.count('transactions')).toBe(before)
  })
})
