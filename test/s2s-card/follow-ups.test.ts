import { describe, expect, it } from 'vitest'
import { DAY } from '../../src/core/ports/clock.js'
import { validate } from '../../src/core/validation/index.js'
import { callbacksOf, followUp, paid, saleForm, setup, snapshot } from './helpers.js'

const errorOf = (message: string, code = 100000) => ({
  result: 'ERROR',
  http_code: 400,
  error_code: code,
  error_message: message,
})
/**
 * docs/rules.md#business-codes: business refusals answer the platform's catalogue codes (208003 capture not in
 * pending status, 208004 capture above the authorized amount, 208006 refund above the payment,
 * 208009 partial reversal) with their exact messages, as `errors[]` items of the S2S ERROR envelope.
 */
const platformRow = (code: number, message: string) => ({
  result: 'ERROR',
  http_code: 400,
  error_code: 100000,
  error_message: 'Request data is invalid.',
  errors: [{ error_code: code, error_message: message }],
})
const PLATFORM_208003 = platformRow(
  208003,
  'Not acceptable to request the capture for payment not in pending status.',
)
const ABOVE_AUTH = 'amount: Not acceptable to request the capture for amount bigger than auth amount.'
const ABOVE_PAYMENT = 'amount: Not acceptable to request the refund for amount bigger than payment amount.'
const PARTIAL_REVERSAL = 'amount: Not acceptable to request the reversal for partial amount.'
const itemsOf = (body: Record<string, unknown>) =>
  (body.errors as { error_message: string }[]).map((e) => e.error_message)

describe('CAPTURE', () => {
  // States and transitions: "| PENDING | CAPTURE (...) with the authorization `trans_id` | The payment was
  // authorized (`auth=Y` or DMS) | settled (funds taken) |"
  it('settles a held authorization in full', async () => {
    const t = setup()
    const { trans_id } = await paid(t, { auth: 'Y' })
    const r = await t.post(followUp('CAPTURE', trans_id))
    expect(r.body).toMatchObject({
      action: 'CAPTURE',
      result: 'SUCCESS',
      status: 'SETTLED',
      trans_id,
      amount: '10.00',
    })
    expect(validate('s2s-card/capture-response', r.body).valid).toBe(true)
    expect(t.payment(trans_id)).toMatchObject({ status: 'settled', amount_captured: '10.00' })
    expect(callbacksOf(t, trans_id).at(-1)).toMatchObject({ action: 'CAPTURE', status: 'SETTLED' })
  })

  // (sandbox, as Checkout capture) one capture of up to the authorized amount; the rest is released.
  it('captures part of the authorization once; a second capture is refused', async () => {
    const t = setup()
    const { trans_id } = await paid(t, { auth: 'Y' })
    const r = await t.post(followUp('CAPTURE', trans_id, { amount: '4.00', parameters: { note: 'partial' } }))
    expect(r.body).toMatchObject({ result: 'SUCCESS', status: 'SETTLED', amount: '4.00' })
    expect(t.payment(trans_id).amount_captured).toBe('4.00')
    const again = await t.post(followUp('CAPTURE', trans_id, { amount: '1.00' }))
    expect(again.body).toEqual(PLATFORM_208003)
    // Only the captured part can then be refunded.
    const over = await t.post(followUp('CREDITVOID', trans_id, { amount: '5.00' }))
    expect(itemsOf(over.body)).toEqual([ABOVE_PAYMENT])
  })

  it('refuses more than the authorized amount, a zero amount and wrong decimals, changing nothing', async () => {
    const t = setup()
    const { trans_id } = await paid(t, { auth: 'Y' })
    const before = snapshot(t)
    const above = await t.post(followUp('CAPTURE', trans_id, { amount: '10.01' }))
    expect(itemsOf(above.body)).toEqual([ABOVE_AUTH])
    // 2.1.1: "Otherwise it must be greater than 0."
    const zero = await t.post(followUp('CAPTURE', trans_id, { amount: '0.00' }))
    expect(itemsOf(zero.body)).toEqual(['amount: This value should be greater than 0.'])
    const decimals = await t.post(followUp('CAPTURE', trans_id, { amount: '5.001' }))
    expect(itemsOf(decimals.body)[0]).toMatch(/^amount: /)
    expect(snapshot(t)).toBe(before)
  })

  // docs/rules.md#test-cards: "03 authorization succeeds then capture is declined"
  it('declines the capture of month 03 and leaves the authorization PENDING', async () => {
    const t = setup()
    const { trans_id } = await paid(t, { auth: 'Y', card_exp_month: '03' })
    const r = await t.post(followUp('CAPTURE', trans_id))
    expect(r.body).toMatchObject({
      result: 'DECLINED',
      status: 'PENDING',
      decline_reason: 'Capture declined',
    })
    expect(validate('s2s-card/capture-response', r.body).valid).toBe(true)
  })

  // 2.1.1: a zero amount is accepted "only on an authorization-only request"; such a card check holds nothing.
  it('refuses to capture a zero-amount authorization', async () => {
    const t = setup({ mids: [{ id: 'zero', payment_mode: 'SMS/DMS', zero_amount: true }] })
    const { trans_id } = await paid(t, { auth: 'Y', order_amount: '0.00' })
    expect((await t.post(followUp('CAPTURE', trans_id))).body).toEqual(PLATFORM_208003)
  })

  it('refuses to capture a plain sale', async () => {
    const t = setup()
    const { trans_id } = await paid(t)
    expect((await t.post(followUp('CAPTURE', trans_id))).body).toEqual(PLATFORM_208003)
  })
})

describe('VOID', () => {
  // States and transitions: "| SETTLED | VOID | Same financial day only |"
  it('voids a settled payment on its financial day', async () => {
    const t = setup()
    const { trans_id } = await paid(t)
    const r = await t.post(followUp('VOID', trans_id, { parameters: { reason: 'duplicate' } }))
    expect(r.body).toMatchObject({ action: 'VOID', result: 'SUCCESS', status: 'VOID', trans_id })
    expect(validate('s2s-card/void-response', r.body).valid).toBe(true)
  })

  it('refuses a void after the financial day', async () => {
    const t = setup()
    const { trans_id } = await paid(t)
    await t.clock.advance(DAY)
    expect((await t.post(followUp('VOID', trans_id))).body).toEqual(errorOf('Void is not allowed.'))
  })

  // States and transitions: "| PENDING | VOID | Not allowed | unchanged | Error `Void is not allowed.` |"
  it('refuses to void a held authorization and leaves it PENDING', async () => {
    const t = setup()
    const { trans_id } = await paid(t, { auth: 'Y' })
    const before = snapshot(t)
    expect((await t.post(followUp('VOID', trans_id))).body).toEqual(errorOf('Void is not allowed.'))
    expect(snapshot(t)).toBe(before)
  })
})

describe('CREDITVOID', () => {
  // States and transitions: "| SETTLED | CREDITVOID / Checkout refund | Full or partial amount | REFUND |
  // Each refund or reversal gets its own `creditvoid_id`. |"
  it('refunds a settled payment in parts, each with its own creditvoid_id', async () => {
    const t = setup()
    const { trans_id } = await paid(t)
    const first = await t.post(followUp('CREDITVOID', trans_id, { amount: '2.50' }))
    expect(first.body).toEqual({
      action: 'CREDITVOID',
      result: 'ACCEPTED',
      order_id: 'ORDER-1001',
      trans_id,
      creditvoid_id: expect.any(String),
      amount: '2.50',
      currency: 'USD',
    })
    expect(validate('s2s-card/creditvoid-response', first.body).valid).toBe(true)
    const rest = await t.post(followUp('CREDITVOID', trans_id))
    expect(rest.body).toMatchObject({ result: 'ACCEPTED', amount: '7.50' })
    expect(rest.body.creditvoid_id).not.toBe(first.body.creditvoid_id)
    expect(t.payment(trans_id)).toMatchObject({ status: 'refund', amount_refunded: '10.00' })
    // Events: "CREDITVOID callbacks ... always carry `creditvoid_id` ...; `trans_id` stays the original payment id."
    const refunds = callbacksOf(t, trans_id).filter((c) => c.action === 'CREDITVOID')
    expect(refunds.map((c) => [c.trans_id, c.creditvoid_id, c.status])).toEqual([
      [trans_id, first.body.creditvoid_id, 'REFUND'],
      [trans_id, rest.body.creditvoid_id, 'REFUND'],
    ])
    expect((await t.post(followUp('CREDITVOID', trans_id))).body).toEqual(errorOf('Refund is not allowed.'))
  })

  // States and transitions: "| PENDING | CREDITVOID / Checkout refund | Held authorization | REVERSAL | Full amount only."
  it('releases a held authorization in full as a REVERSAL, and refuses part of it', async () => {
    const t = setup()
    const { trans_id } = await paid(t, { auth: 'Y' })
    const part = await t.post(followUp('CREDITVOID', trans_id, { amount: '1.00' }))
    expect(itemsOf(part.body)).toEqual([PARTIAL_REVERSAL])
    const full = await t.post(followUp('CREDITVOID', trans_id))
    expect(full.body).toMatchObject({
      result: 'ACCEPTED',
      amount: '10.00',
      creditvoid_id: expect.any(String),
    })
    expect(t.payment(trans_id).status).toBe('reversal')
    expect(callbacksOf(t, trans_id).at(-1)).toMatchObject({ action: 'CREDITVOID', status: 'REVERSAL' })
  })

  it('refuses to release more than the held amount', async () => {
    const t = setup()
    const { trans_id } = await paid(t, { auth: 'Y' })
    const r = await t.post(followUp('CREDITVOID', trans_id, { amount: '10.01' }))
    expect(itemsOf(r.body)).toEqual([ABOVE_PAYMENT])
  })

  // States and transitions: "| (debit payment) | CREDITVOID | Any | REVERSAL | A debit always yields a reversal. |"
  it('reverses a debit, also in part', async () => {
    const t = setup()
    const r = await t.post(saleForm({ action: 'DEBIT' }))
    const trans_id = r.body.trans_id as string
    await t.post(followUp('CREDITVOID', trans_id, { amount: '3.00' }))
    expect(t.payment(trans_id)).toMatchObject({ status: 'reversal', amount_refunded: '3.00' })
    const over = await t.post(followUp('CREDITVOID', trans_id, { amount: '7.01' }))
    expect(itemsOf(over.body)).toEqual([ABOVE_PAYMENT])
    expect((await t.post(followUp('CREDITVOID', trans_id))).body).toMatchObject({ amount: '7.00' })
    expect(t.payment(trans_id)).toMatchObject({ status: 'reversal', amount_refunded: '10.00' })
  })

  it('refuses a refund of a declined payment', async () => {
    const t = setup()
    const { trans_id } = await paid(t, { card_exp_month: '02' })
    expect((await t.post(followUp('CREDITVOID', trans_id))).body).toEqual(errorOf('Refund is not allowed.'))
  })
})

describe('follow-ups of an unknown or foreign trans_id', () => {
  // Errors: "| S2S CARD CAPTURE with unknown `trans_id` | 400 | 101000 | Transaction does not exist. |";
  // "| S2S CARD VOID or CREDITVOID with unknown `trans_id` | 400 | 100000 | Payment not found. |"
  it.each([
    ['CAPTURE', errorOf('Transaction does not exist.', 101000)],
    ['VOID', errorOf('Payment not found.')],
    ['CREDITVOID', errorOf('Payment not found.')],
    ['GET_TRANS_STATUS', errorOf('Transaction does not exist.', 101000)],
  ])(
    "%s answers the row of its entity, for a missing and for another merchant's payment",
    async (action, expected) => {
      const t = setup()
      const { trans_id } = await paid(t)
      const missing = await t.post(followUp(action, 'no-such-payment'))
      expect(missing.status).toBe(400)
      expect(missing.body).toEqual(expected)
      const foreign = await t.post({
        ...followUp(action, trans_id),
        client_key: 'other-merchant',
      })
      expect(foreign.body).toEqual(expected)
    },
  )
})
