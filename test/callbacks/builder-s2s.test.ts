import qs from 'qs'
import { describe, expect, it } from 'vitest'
import { buildCallback, gatherFacts } from '../../src/core/callbacks/index.js'
import type { SandboxMerchant } from '../../src/core/engine/context.js'
import type { Payment, Transaction } from '../../src/core/engine/model.js'
import { type FormValue, s2sApmSignatures, s2sCardSignatures } from '../../src/core/signatures/index.js'
import { expectValid } from '../helpers/schema.js'
import { config, harness, PASSWORD, payment, transaction } from './harness.js'

function build(p: Payment, tx: Transaction, mapping: SandboxMerchant['protocol_mapping'] = {}) {
  const h = harness({ config: config({ mapping }) })
  const merchant = h.ctx.merchant(p.merchant_key) as SandboxMerchant
  const built = buildCallback({ facts: gatherFacts(h.ctx, p, merchant), transaction: tx, kind: tx.type })
  if (!built) return undefined
  // The merchant verifies what its form parser reads back from the POSTed body.
  const received = qs.parse(new URLSearchParams(built.fields).toString()) as Record<string, FormValue>
  expect(received).toEqual(built.body)
  expectValid(`callbacks/${p.api}-callback`, received, 'bracket')
  return received as Record<string, string> & Record<string, FormValue>
}

const card = (overrides: Partial<Payment> = {}) =>
  payment({
    api: 's2s-card',
    order_id: 'S2S-4001',
    order: { ...payment().order, number: 'S2S-4001' },
    ...overrides,
  })
const apm = (overrides: Partial<Payment> = {}) =>
  payment({
    api: 's2s-apm',
    method: 'vcard',
    order_id: 'APM-5001',
    order: { number: 'APM-5001', amount: '120.00', currency: 'EUR', description: 'APM order' },
    amount_captured: '120.00',
    card: undefined,
    ...overrides,
  })

// docs/rules.md#s2s-card-formulas: "CAPTURE, VOID, CREDITVOID, GET_TRANS_STATUS, callbacks | md5(upper(rev(payer_email) + password +
// trans_id + rev(first6 + last4))) of the original payment"
const cardHash = (p: Payment) =>
  s2sCardSignatures.transaction('doe@example.com', PASSWORD, p.id, { cardNumber: '4111111111111111' })

describe('S2S CARD callback', () => {
  it('reports a SALE with the payment id as trans_id, signed over the original payment', () => {
    const p = card()
    const tx = transaction(p, 'sale')
    expect(build(p, tx)).toEqual({
      action: 'SALE',
      result: 'SUCCESS',
      status: 'SETTLED',
      order_id: 'S2S-4001',
      trans_id: p.id,
      trans_date: '2026-11-02 10:00:00',
      amount: '10.00',
      currency: 'USD',
      // docs/rules.md#callbacks: "`card_token`, `card`, `card_expiration_date` … when they apply".
      card: '411111******1111',
      card_expiration_date: '01/2030',
      hash: cardHash(p),
    })
  })

  // docs/rules.md#s2s-callback-fields: "`redirect_url`, `redirect_params`, `redirect_method` on 3DS and redirect callbacks".
  it('tells where the payer goes in a 3DS or redirect callback, as the SALE answer does', () => {
    const p = card({ status: '3ds', return_url: 'https://shop.example/3ds-back' })
    expect(build(p, transaction(p, '3ds', 'waiting'))).toMatchObject({
      result: 'REDIRECT',
      status: '3DS',
      redirect_url: `http://sandbox.test/acs/${p.id}`,
      redirect_method: 'POST',
      redirect_params: {
        PaReq: Buffer.from(p.id).toString('base64'),
        MD: p.id,
        TermUrl: 'https://shop.example/3ds-back',
      },
    })
    const r = card({ status: 'redirect' })
    expect(build(r, transaction(r, 'redirect', 'waiting'))).toMatchObject({
      redirect_url: `http://sandbox.test/redirect-sim/${r.id}`,
      redirect_params: { MD: r.id },
    })
    const done = card()
    expect(build(done, transaction(done, 'sale'))).not.toHaveProperty('redirect_url')
  })

  it('reports a decline with decline_reason and status DECLINED', () => {
    const p = card({ status: 'decline' })
    expect(
      build(p, transaction(p, 'sale', 'fail', { decline_reason: 'Declined by processing.' })),
    ).toMatchObject({
      result: 'DECLINED',
      status: 'DECLINED',
      decline_reason: 'Declined by processing.',
    })
  })

  // Events: "CREDITVOID callbacks (S2S CARD and S2S APM) always carry `creditvoid_id`, the id of the refund or
  // reversal transaction; `trans_id` stays the original payment id. ... `status` in the callback is the payment
  // status after the transaction." Authentication 6: "for S2S CARD it is unchanged".
  it('reports CREDITVOID with creditvoid_id, the payment status after it, and the unchanged signature', () => {
    const settled = card({ status: 'refund', amount_refunded: '4.00' })
    const refund = transaction(settled, 'refund', 'success', { amount: '4.00' })
    expect(build(settled, refund)).toMatchObject({
      action: 'CREDITVOID',
      status: 'REFUND',
      trans_id: settled.id,
      creditvoid_id: refund.id,
      // docs/rules.md#s2s-callback-fields: "CREDITVOID adds `creditvoid_id` (interface), `creditvoid_date` and `amount`".
      creditvoid_date: '2026-11-02 10:00:00',
      amount: '4.00',
      hash: cardHash(settled),
    })
    const held = card({ status: 'reversal', auth: true })
    expect(build(held, transaction(held, 'reversal'))).toMatchObject({
      action: 'CREDITVOID',
      status: 'REVERSAL',
    })
  })

  it('names the action after the payment: DEBIT with card_token, CAPTURE, VOID, the recorded AUTH', () => {
    const debit = card({ operation: 'debit', card_token: 'ct-1' })
    expect(build(debit, transaction(debit, 'debit'))).toMatchObject({ action: 'DEBIT', card_token: 'ct-1' })
    const captured = card()
    expect(build(captured, transaction(captured, 'capture'))).toMatchObject({ action: 'CAPTURE' })
    const voided = card({ status: 'void' })
    expect(build(voided, transaction(voided, 'void'))).toMatchObject({ action: 'VOID', status: 'VOID' })
    const auth = { ...card({ status: 'pending', auth: true }), action: 'AUTH' } as Payment
    expect(build(auth, transaction(auth, 'auth'))).toMatchObject({ action: 'AUTH', status: 'PENDING' })
    const pending = card({ status: '3ds' })
    expect(build(pending, transaction(pending, '3ds', 'waiting'))).toMatchObject({
      action: 'SALE',
      result: 'REDIRECT',
      status: '3DS',
    })
  })

  // docs/rules.md#callbacks: S2S CARD sends `card_token`, `card`, `card_expiration_date` "when they apply"; customer_ip is mapped.
  it('carries the card fields whenever they apply, and customer_ip only when mapped', () => {
    const p = card({ card_token: 'ct-2' })
    const plain = build(p, transaction(p, 'sale'))
    expect(plain).not.toHaveProperty('customer_ip')
    expect(plain).toMatchObject({
      card: '411111******1111',
      card_expiration_date: '01/2030',
      card_token: 'ct-2',
    })
    const mapped = build(p, transaction(p, 'sale'), { callback_fields: { customer_ip: true } })
    expect(mapped).toMatchObject({
      customer_ip: '203.0.113.10',
      card: '411111******1111',
      card_expiration_date: '01/2030',
      card_token: 'ct-2',
    })
    expect(mapped?.hash).toBe(cardHash(p))
  })
})

describe('S2S APM callback', () => {
  // Authentication 6: "for S2S APM it covers the whole callback body (so it includes `creditvoid_id`)".
  it('is signed over the whole body as received, custom_data included', () => {
    const p = apm({ custom_data: { basket: '12', notes: { gift: 'yes' } } })
    const body = build(p, transaction(p, 'sale'), { return_additional_parameters: ['brand'] })
    expect(body).toMatchObject({ action: 'SALE', result: 'SUCCESS', status: 'SETTLED', brand: 'vcard' })
    expect(body?.hash).toBe(s2sApmSignatures.callback(body as Record<string, FormValue>, PASSWORD))
    const tampered = { ...body, custom_data: { basket: '13', notes: { gift: 'yes' } } } as Record<
      string,
      FormValue
    >
    expect(s2sApmSignatures.callback(tampered, PASSWORD)).not.toBe(body?.hash)
  })

  it('covers creditvoid_id: another refund id gives another signature', () => {
    const p = apm({ status: 'refund', amount_refunded: '20.00' })
    const refund = transaction(p, 'refund', 'success', { amount: '20.00' })
    const body = build(p, refund) as Record<string, FormValue>
    expect(body).toMatchObject({
      action: 'CREDITVOID',
      status: 'REFUND',
      creditvoid_id: refund.id,
      creditvoid_date: '2026-11-02 10:00:00',
      amount: '20.00',
      trans_id: p.id,
    })
    expect(body.hash).toBe(s2sApmSignatures.callback(body, PASSWORD))
    expect(s2sApmSignatures.callback({ ...body, creditvoid_id: 'another' }, PASSWORD)).not.toBe(body.hash)
  })

  it('never carries card fields (not in its schema), even with their flags on', () => {
    const p = apm({ card_token: 'ct-3', moto_type: 'ecommerce' })
    const body = build(p, transaction(p, 'sale'), {
      callback_fields: { card: true, card_token: true, three_ds_attributes: true, arn: true },
    })
    expect(body).not.toHaveProperty('card_token')
    expect(body).not.toHaveProperty('moto_type')
    expect(body).toMatchObject({ ARN: '', RRN: '' })
  })

  it('has no callback for a chargeback (not an S2S APM action)', () => {
    const p = apm({ status: 'chargeback' })
    expect(build(p, transaction(p, 'chargeback'))).toBeUndefined()
  })

  it('names a payout DEBIT2VIRTUAL', () => {
    const p = apm({ operation: 'credit' })
    expect(build(p, transaction(p, 'credit'))).toMatchObject({ action: 'DEBIT2VIRTUAL' })
  })
})
