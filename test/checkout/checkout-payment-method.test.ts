import qs from 'qs'
import { describe, expect, it } from 'vitest'
import { callbacksModule, callbacksOf } from '../../src/core/callbacks/index.js'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import { createTestGateway } from '../helpers/engine.js'
import { bodies, MERCHANT, putPayment, sign, testCard, twoMerchantConfig } from '../helpers/payments.js'

/**
 * docs/rules.md#checkout-payment-method: `checkout_payment_method` is the method's Checkout name
 * (Events: "checkout-terminology name, for example the wallet or card name"), the same in callbacks
 * and status answers ("The same parameter is available in callback and status responses"): `Visa`,
 * while the identifier `visa` is what `brand` carries.
 */
describe('checkout_payment_method in callbacks and status answers (docs/rules.md#checkout-payment-method)', () => {
  it('is the same name in the refund callback and in the status answer', async () => {
    const t = createTestGateway(
      [checkoutOperationsModule, callbacksModule],
      twoMerchantConfig({
        callback_fields: { checkout_payment_method: true },
        return_additional_parameters: ['brand'],
      }),
    )
    const p = putPayment(t)
    await t.call('POST', '/api/v1/payment/refund', bodies.refund(p.id, '1.00'))
    const status = await t.call('POST', '/api/v1/payment/status', {
      merchant_key: MERCHANT,
      payment_id: p.id,
      hash: sign.payment(p.id),
    })
    await callbacksOf(t.gateway.ctx).idle()
    const callback = t.sent.map((s) => qs.parse(s.body) as Record<string, string>).find((c) => c.id === p.id)
    expect(status.body).toMatchObject({ checkout_payment_method: 'Visa', brand: 'visa' })
    expect(callback).toMatchObject({ checkout_payment_method: 'Visa', brand: 'visa' })
  })

  it('names a Mastercard card as Mastercard in both', async () => {
    const t = createTestGateway(
      [checkoutOperationsModule, callbacksModule],
      twoMerchantConfig({ callback_fields: { checkout_payment_method: true } }),
    )
    const p = putPayment(t, { card: { ...testCard(), brand: 'mastercard', masked: '555555******4444' } })
    await t.call('POST', '/api/v1/payment/refund', bodies.refund(p.id, '1.00'))
    const status = await t.call('POST', '/api/v1/payment/status', {
      merchant_key: MERCHANT,
      payment_id: p.id,
      hash: sign.payment(p.id),
    })
    await callbacksOf(t.gateway.ctx).idle()
    const callback = t.sent.map((s) => qs.parse(s.body) as Record<string, string>).find((c) => c.id === p.id)
    expect(status.body.checkout_payment_method).toBe('Mastercard')
    expect(callback?.checkout_payment_method).toBe('Mastercard')
  })
})
