import { describe, expect, it } from 'vitest'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { buildCheckout as build, session } from './build.js'
import { PASSWORD, payment, transaction } from './harness.js'

describe('Checkout callback content', () => {
  // docs/rules.md#checkout-callback-fields: "Checkout callback fields always sent: id (payment id), order_number, order_amount,
  // order_currency, order_description, order_status, type ..., status ..., customer_ip, hash; the rest per
  // the interface and the merchant's Protocol Mapping (default off)."
  // docs/rules.md#callbacks: "When they apply: `reason` (failures), `card` (masked), `card_expiration_date`, … `date`,
  // `customer_name`, `customer_email`, …"; Protocol Mapping groups stay off by default.
  it('sends the always-sent fields and those that apply, nothing mapped by default, signed with the notification hash', () => {
    const p = payment()
    const tx = transaction(p, 'sale')
    const body = build(p, tx)
    expect(body).toEqual({
      id: p.id,
      order_number: 'ORDER-1001',
      order_amount: '10.00',
      order_currency: 'USD',
      order_description: 'Demo order',
      order_status: 'settled',
      type: 'sale',
      status: 'success',
      trans_id: tx.id,
      date: '2026-11-02 10:00:00',
      customer_ip: '203.0.113.10',
      card: '411111******1111',
      card_expiration_date: '01/2030',
      customer_email: 'doe@example.com',
      hash: checkoutSignatures.notification(p.id, p.order, PASSWORD),
    })
    // docs/rules.md#signatures by hand: sha1(md5(upper(payment_id + order.number + order.amount + order.currency + order.description + password)))
    expect(body.hash).toMatch(/^[0-9a-f]{40}$/)
  })

  it('reports a decline with its reason, and an authorization as a pending sale', () => {
    const declined = payment({ status: 'decline' })
    const body = build(
      declined,
      transaction(declined, 'sale', 'fail', { decline_reason: 'Declined by processing.' }),
    )
    expect(body).toMatchObject({
      type: 'sale',
      order_status: 'decline',
      status: 'fail',
      reason: 'Declined by processing.',
    })
    const held = payment({ status: 'pending', auth: true })
    expect(build(held, transaction(held, 'auth'))).toMatchObject({
      type: 'sale',
      order_status: 'pending',
      status: 'success',
    })
  })

  // Interface States: "Checkout callback `order_status` values seen: `3ds`, `settled`, `reversal`."; docs/rules.md#callbacks
  // (changed): "`status` on `type=3ds` and `type=redirect` callbacks is `success` (or `undefined`), never `waiting`".
  it('reports a pending 3DS or redirect step with status=success, never waiting', () => {
    const p = payment({ status: '3ds' })
    expect(build(p, transaction(p, '3ds', 'waiting'))).toMatchObject({
      type: '3ds',
      order_status: '3ds',
      status: 'success',
    })
    const r = payment({ status: 'redirect' })
    expect(build(r, transaction(r, 'redirect', 'waiting'))).toMatchObject({
      type: 'redirect',
      order_status: 'redirect',
      status: 'success',
    })
    expect(build(r, transaction(r, 'redirect', 'undefined'))).toMatchObject({ status: 'undefined' })
  })

  // docs/rules.md#callbacks: "`card_token` (purchase with `req_token`; every debit callback per the interface)".
  it('sends card_token of a purchase made with req_token without any mapping, and not otherwise', () => {
    const saved = payment({ req_token: true, card_token: 'ct-req-1' })
    expect(build(saved, transaction(saved, 'sale'))).toMatchObject({ card_token: 'ct-req-1' })
    const plain = payment({ card_token: 'ct-used-9' })
    expect(build(plain, transaction(plain, 'sale'))).not.toHaveProperty('card_token')
  })

  // docs/rules.md#callbacks: "`customer_name`, `customer_email`, `customer_country`, `customer_state`, `customer_city`,
  // `customer_address` … when they apply"; "`digital_wallet`, `pan_type`".
  it('sends the payer fields the session gave, and the wallet of a wallet payment', () => {
    const p = payment({ session_id: 'sess-cust' })
    const s = {
      ...session(p, {
        customer: { name: 'Jane Roe', email: 'jane@example.com' },
        billing_address: { country: 'DE', state: 'BE', city: 'Berlin', address: 'Unter den Linden 1' },
      }),
      id: 'sess-cust',
    }
    expect(build(p, transaction(p, 'sale'), { session: s })).toMatchObject({
      customer_name: 'Jane Roe',
      customer_email: 'jane@example.com',
      customer_country: 'DE',
      customer_state: 'BE',
      customer_city: 'Berlin',
      customer_address: 'Unter den Linden 1',
    })
    const wallet = payment({ method: 'googlepay' })
    expect(build(wallet, transaction(wallet, 'sale'))).toMatchObject({
      digital_wallet: 'googlepay',
      pan_type: 'dpan',
    })
  })

  // Interface: "On Checkout a reversal is reported as `type=refund` with `order_status=reversal`; there is no `type=reversal` callback."
  it('reports a reversal as type=refund with order_status=reversal, and a refund with order_status=refund', () => {
    const held = payment({ status: 'reversal', auth: true })
    const reversal = transaction(held, 'reversal')
    expect(build(held, reversal)).toMatchObject({
      type: 'refund',
      order_status: 'reversal',
      trans_id: reversal.id,
    })
    const refunded = payment({ status: 'refund', amount_refunded: '4.00' })
    expect(build(refunded, transaction(refunded, 'refund', 'success', { amount: '4.00' }))).toMatchObject({
      type: 'refund',
      order_status: 'refund',
    })
  })

  // Events: "Callbacks for `debit` carry `card_token` in every callback (including `settled`) and, when the
  // payment used a `card_token`, the masked `card` and `card_expiration_date`"; docs/rules.md#callbacks sends the
  // masked card whenever the payment has one.
  it('puts card_token in every debit callback, with the masked card', () => {
    const saved = payment({ operation: 'debit', card_token: 'ct-saved-1', session_id: 'sess-a' })
    const settled = build(saved, transaction(saved, 'debit'))
    expect(settled).toMatchObject({ type: 'debit', card_token: 'ct-saved-1', card: '411111******1111' })
    const cardless = payment({ operation: 'debit', card_token: 'ct-saved-2', card: undefined })
    expect(build(cardless, transaction(cardless, 'debit'))).not.toHaveProperty('card')
    const threeDs = build({ ...saved, status: '3ds' }, transaction(saved, '3ds', 'waiting'))
    expect(threeDs).toMatchObject({ type: '3ds', card_token: 'ct-saved-1' })

    const used = payment({ operation: 'debit', card_token: 'ct-used-1', session_id: 'sess-used' })
    const s = { ...session(used, { card_token: 'ct-used-1' }), id: 'sess-used' }
    expect(build(used, transaction(used, 'debit'), { session: s })).toMatchObject({
      card_token: 'ct-used-1',
      card: '411111******1111',
      card_expiration_date: '01/2030',
    })
    const refund = { ...used, status: 'reversal' as const }
    expect(build(refund, transaction(refund, 'reversal'), { session: s })).toMatchObject({
      type: 'refund',
      order_status: 'reversal',
      card_token: 'ct-used-1',
    })
  })

  // 2.1 custom_data: "stored with the transaction and returned in the callback"; 2.5: "`moto_type` is returned
  // in the SALE response, the callback and the status response"; 2.3: "success callbacks return
  // `recurring_init_trans_id`, `recurring_token` and `schedule_id` (when used)".
  it('returns custom_data, moto_type and the recurring trio without any mapping setting', () => {
    const p = payment({
      custom_data: { cart: 77, gift: true, tags: { channel: 'web' }, empty: '' },
      moto_type: 'phone_moto',
      recurring: { init: true, token: 'rt-1' },
      schedule_id: 'sch-1',
    })
    const body = build(p, transaction(p, 'sale'))
    expect(body).toMatchObject({
      custom_data: { cart: '77', gift: 'true', tags: { channel: 'web' } },
      moto_type: 'phone_moto',
      recurring_init_trans_id: p.id,
      recurring_token: 'rt-1',
      schedule_id: 'sch-1',
    })
    const declined = build({ ...p, status: 'decline' }, transaction(p, 'sale', 'fail'))
    expect(declined).not.toHaveProperty('recurring_token')
  })
})
