import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DAY } from '../../src/core/ports/clock.js'
import { s2sApmSignatures } from '../../src/core/signatures/index.js'
import { validate } from '../../src/core/validation/index.js'
import { callbackSigned, followUp, OTHER_KEY, OTHER_PASSWORD, sale, setup, snapshot } from './helpers.js'

const envelope = (error_code: number, error_message: string) => ({
  result: 'ERROR',
  http_code: 400,
  error_code,
  error_message,
})

describe('S2S APM CAPTURE', () => {
  // Endpoints: "With `auth=Y`: SALE holds, CAPTURE (with the authorization `trans_id`) settles".
  it('settles a held authorization in full, with a CAPTURE callback', async () => {
    const t = setup()
    const held = await sale(t, { auth: 'Y' })
    const r = await t.post(followUp('CAPTURE', held.trans_id))
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
    expect(callbacks.map((c) => [c.action, c.status])).toEqual([
      ['SALE', 'PENDING'],
      ['CAPTURE', 'SETTLED'],
    ])
    expect(callbacks.every(callbackSigned)).toBe(true)
  })

  // Errors (assumed for S2S APM): "S2S CARD CAPTURE with unknown `trans_id` | 400 | 101000 | Transaction does not exist."
  it('answers an unknown trans_id, or another merchant\'s, with 101000 "Transaction does not exist."', async () => {
    const t = setup()
    expect((await t.post(followUp('CAPTURE', 'no-such-id'))).body).toEqual(
      envelope(101000, 'Transaction does not exist.'),
    )
    const held = await sale(t, { auth: 'Y' })
    const foreign = {
      ...followUp('CAPTURE', held.trans_id),
      client_key: OTHER_KEY,
      hash: s2sApmSignatures.transaction(held.trans_id, OTHER_PASSWORD),
    }
    expect((await t.post(foreign)).body).toEqual(envelope(101000, 'Transaction does not exist.'))
    expect(t.payment(held.trans_id).status).toBe('pending')
  })

  // docs/rules.md#business-codes: the platform's 208003 "Not acceptable to request the capture for payment not in pending status."
  it('refuses to capture a settled sale or twice', async () => {
    const t = setup()
    const settled = await sale(t)
    const notPending = {
      ...envelope(100000, 'Request data is invalid.'),
      errors: [
        {
          error_code: 208003,
          error_message: 'Not acceptable to request the capture for payment not in pending status.',
        },
      ],
    }
    expect((await t.post(followUp('CAPTURE', settled.trans_id))).body).toEqual(notPending)
    const held = await sale(t, { auth: 'Y', order_id: 'twice' })
    await t.post(followUp('CAPTURE', held.trans_id))
    expect((await t.post(followUp('CAPTURE', held.trans_id))).body).toEqual(notPending)
  })
})

describe('S2S APM VOID', () => {
  // States: "SETTLED | VOID | Same financial day only | not shown" (the sandbox: VOID).
  it('voids a settled payment on its financial day', async () => {
    const t = setup()
    const settled = await sale(t)
    const r = await t.post(followUp('VOID', settled.trans_id))
    expect(r.body).toMatchObject({ action: 'VOID', result: 'SUCCESS', status: 'VOID', amount: '15.00' })
    expect(validate('s2s-apm/void-response', r.body).errors).toEqual([])
    expect((await t.callbacks()).map((c) => [c.action, c.status])).toEqual([
      ['SALE', 'SETTLED'],
      ['VOID', 'VOID'],
    ])
  })

  // Endpoints: "VOID applies only to SETTLED payments"; Errors: "VOID on a not-yet-captured authorization | ... | Void is not allowed."
  it('refuses a held authorization with "Void is not allowed.", changing nothing', async () => {
    const t = setup()
    const held = await sale(t, { auth: 'Y' })
    const before = await snapshot(t)
    expect((await t.post(followUp('VOID', held.trans_id))).body).toEqual(
      envelope(100000, 'Void is not allowed.'),
    )
    expect(await snapshot(t)).toBe(before)
  })

  it('refuses after the financial day', async () => {
    const t = setup()
    const settled = await sale(t)
    await t.clock.advance(DAY)
    expect((await t.post(followUp('VOID', settled.trans_id))).body).toEqual(
      envelope(100000, 'Void is not allowed.'),
    )
    expect(t.payment(settled.trans_id).status).toBe('settled')
  })

  // Errors (assumed for S2S APM): "S2S CARD VOID or CREDITVOID with unknown `trans_id` | 400 | 100000 | Payment not found."
  it('answers an unknown trans_id with 100000 "Payment not found."', async () => {
    const t = setup()
    expect((await t.post(followUp('VOID', 'no-such-id'))).body).toEqual(
      envelope(100000, 'Payment not found.'),
    )
  })
})

describe('S2S APM CREDITVOID', () => {
  // States: "PENDING | CREDITVOID ... | Held authorization | REVERSAL | Full amount only."
  it('releases a held authorization in full as a REVERSAL, creditvoid_id in answer and callback', async () => {
    const t = setup()
    const held = await sale(t, { auth: 'Y' })
    const r = await t.post(followUp('CREDITVOID', held.trans_id))
    expect(r.body).toEqual({
      action: 'CREDITVOID',
      result: 'ACCEPTED',
      order_id: 'APM-2001',
      trans_id: held.trans_id,
      creditvoid_id: expect.any(String),
    })
    expect(validate('s2s-apm/creditvoid-response', r.body).errors).toEqual([])
    expect(t.payment(held.trans_id).status).toBe('reversal')
    const callback = (await t.callbacks()).at(-1) ?? {}
    // Events: "CREDITVOID callbacks ... always carry `creditvoid_id` ...; `trans_id` stays the original payment id."
    expect(callback).toMatchObject({
      action: 'CREDITVOID',
      status: 'REVERSAL',
      trans_id: held.trans_id,
      creditvoid_id: r.body.creditvoid_id,
      amount: '15.00',
    })
    expect(callbackSigned(callback)).toBe(true)
  })

  it('refuses a partial release of a held authorization', async () => {
    const t = setup()
    const held = await sale(t, { auth: 'Y' })
    const r = await t.post(followUp('CREDITVOID', held.trans_id, { amount: '5.00' }))
    // docs/rules.md#business-codes: "208009 partial reversal"
    expect(r.body.errors).toEqual([
      {
        error_code: 208009,
        error_message: 'amount: Not acceptable to request the reversal for partial amount.',
      },
    ])
    expect(t.payment(held.trans_id).status).toBe('pending')
  })

  // States: "SETTLED | CREDITVOID ... | Full or partial amount | REFUND | Each refund or reversal gets its own `creditvoid_id`."
  it('refunds a settled payment in parts, each with its own creditvoid_id, never above what was taken', async () => {
    const t = setup()
    const settled = await sale(t)
    const first = await t.post(followUp('CREDITVOID', settled.trans_id, { amount: '5.00' }))
    const second = await t.post(followUp('CREDITVOID', settled.trans_id, { amount: '10.00' }))
    expect(first.body.creditvoid_id).not.toBe(second.body.creditvoid_id)
    expect(t.payment(settled.trans_id)).toMatchObject({ status: 'refund', amount_refunded: '15.00' })
    const more = await t.post(followUp('CREDITVOID', settled.trans_id, { amount: '0.01' }))
    expect(more.body.error_message).toBe('Refund is not allowed.')
    const refunds = (await t.callbacks()).filter((c) => c.action === 'CREDITVOID')
    expect(refunds.map((c) => [c.amount, c.status, c.creditvoid_id])).toEqual([
      ['5.00', 'REFUND', first.body.creditvoid_id],
      ['10.00', 'REFUND', second.body.creditvoid_id],
    ])
  })

  it('refuses an amount above what is left, a zero amount and wrong decimals', async () => {
    const t = setup()
    const settled = await sale(t)
    const before = await snapshot(t)
    const cases: [string, string][] = [
      // docs/rules.md#business-codes: "208006 refund above the payment"
      ['15.01', 'amount: Not acceptable to request the refund for amount bigger than payment amount.'],
      ['0.00', 'amount: This value should be greater than 0.'],
      [
        '5.001',
        'amount: This value is not valid. This currency has 2 decimals: send them with a dot, for example 100.00.',
      ],
    ]
    for (const [amount, message] of cases) {
      const r = await t.post(followUp('CREDITVOID', settled.trans_id, { amount }))
      expect(r.status, amount).toBe(400)
      expect((r.body.errors as { error_message: string }[])[0]?.error_message, amount).toBe(message)
    }
    expect(await snapshot(t)).toBe(before)
  })

  it('answers an unknown trans_id with 100000 "Payment not found."', async () => {
    const t = setup()
    expect((await t.post(followUp('CREDITVOID', 'no-such-id'))).body).toEqual(
      envelope(100000, 'Payment not found.'),
    )
  })
})

describe('S2S APM follow-up signatures', () => {
  // Authentication 3: "S2S APM CAPTURE, VOID and GET_TRANS_STATUS are signed with: md5 of the concatenation of the
  // upper-cased, character-reversed `trans_id` and the merchant password"; docs/rules.md#signatures: CREDITVOID
  // md5(upper(rev(trans_id + password))).
  it('computes the formulas as written', () => {
    // upper(rev('abc-1')) is '1-CBA', then the password as it is.
    expect(s2sApmSignatures.transaction('abc-1', 'Pw')).toBe(md5Hex('1-CBAPw'))
    // rev('abc-1Pw') is 'wP1-cba', upper-cased.
    expect(s2sApmSignatures.creditvoid('abc-1', 'Pw')).toBe(md5Hex('WP1-CBA'))
  })

  it.each(['CAPTURE', 'VOID', 'CREDITVOID', 'GET_TRANS_STATUS'])(
    '%s with the other formula or a wrong hash changes nothing',
    async (action) => {
      const t = setup()
      const held = await sale(t, { auth: action === 'CAPTURE' || action === 'CREDITVOID' ? 'Y' : 'N' })
      const before = await snapshot(t)
      const swapped =
        action === 'CREDITVOID'
          ? s2sApmSignatures.transaction(held.trans_id, 'demo-password-0123456789abcdef')
          : s2sApmSignatures.creditvoid(held.trans_id, 'demo-password-0123456789abcdef')
      for (const hash of [swapped, 'f'.repeat(32), '']) {
        const r = await t.post({ ...followUp(action, held.trans_id), hash })
        expect(r.status, hash).toBeGreaterThanOrEqual(400)
      }
      expect(await snapshot(t)).toBe(before)
    },
  )
})

function md5Hex(text: string): string {
  return createHash('md5').update(text).digest('hex')
}
