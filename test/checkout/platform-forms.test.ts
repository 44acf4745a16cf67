import { describe, expect, it } from 'vitest'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import type { SandboxConfig } from '../../src/core/engine/context.js'
import { MINUTE } from '../../src/core/ports/clock.js'
import { amountForm } from '../../src/core/validation/amounts.js'
import type { TestGateway } from '../helpers/engine.js'
import { createOperationsGateway, MERCHANT, putPayment, sign } from '../helpers/payments.js'
import { configWith, counts, gatewayWith, messages, sessionBody, sessionByToken } from './session-helpers.js'

/** The request through the engine with its `Sandbox-Warning` header values (docs/rules.md#warnings-and-releases). */
async function send(t: TestGateway, path: string, body: Record<string, unknown>) {
  const response = await t.gateway.handle({
    method: 'POST',
    path,
    query: {},
    headers: { 'content-type': 'application/json' },
    body: new TextEncoder().encode(JSON.stringify(body)),
    remoteAddress: '203.0.113.7',
  })
  return {
    status: response.status,
    body: JSON.parse(response.body) as Record<string, unknown>,
    warnings: response.warnings ?? [],
  }
}

const session = (t: TestGateway, overrides: Record<string, unknown>) =>
  send(t, '/api/v1/session', sessionBody(overrides))

const strictConfig = (): SandboxConfig => ({ ...configWith([{ id: 'demo-mid' }]), strict: true })

describe('amounts per currency exponent (docs/rules.md#amounts)', () => {
  // "UGX, JPY, KRW and CLP, which the platform requires as `100.00`"
  it.each(['JPY', 'KRW', 'CLP', 'UGX'])('takes %s as 1000.00 without a warning', async (currency) => {
    const t = gatewayWith()
    const r = await session(t, { order: { amount: '1000.00', currency } })
    expect(r.status).toBe(200)
    expect(r.warnings).toEqual([])
  })

  // "2 → XX.XX; 3 → XX.XXX; 4 → XX.XXXX; 0 → an integer"
  it.each([
    ['10.00', 'USD'],
    ['1.500', 'KWD'],
    ['1.0000', 'CLF'],
    ['100', 'VND'],
  ])('takes %s %s as documented, without a warning', async (amount, currency) => {
    const t = gatewayWith()
    const r = await session(t, { order: { amount, currency } })
    expect(r.status).toBe(200)
    expect(r.warnings).toEqual([])
  })

  // "Other forms the platform may accept (`25`, `25.5` for USD) are accepted with a warning (section 7)."
  it.each([
    ['25', 'USD', '2 decimals for USD'],
    ['25.5', 'USD', '2 decimals for USD'],
    ['1000', 'JPY', '2 decimals for JPY'],
    ['1.5', 'KWD', '3 decimals for KWD'],
  ])('serves %s %s with one Sandbox-Warning naming order.amount', async (amount, currency, documented) => {
    const t = gatewayWith()
    const r = await session(t, { order: { amount, currency } })
    expect(r.status).toBe(200)
    expect(r.warnings).toHaveLength(1)
    expect(r.warnings[0]).toMatch(/^order\.amount: /)
    expect(r.warnings[0]).toContain(documented)
    expect(r.warnings[0]).toContain('docs/rules.md#amounts')
  })

  // An amount finer than the currency's minor unit is not an amount of that currency.
  it.each([
    ['10.001', 'USD', 'This currency has 2 decimals'],
    ['1000.50', 'JPY', 'JPY has no minor unit'],
    ['100.5', 'VND', 'This currency has no decimals'],
  ])('refuses %s %s and stores nothing', async (amount, currency, message) => {
    const t = gatewayWith()
    const before = counts(t)
    const r = await session(t, { order: { amount, currency } })
    expect(r.status).toBe(400)
    expect(r.body.error_code).toBe(0)
    expect(messages(r.body)).toHaveLength(1)
    expect(messages(r.body)[0]).toMatch(new RegExp(`^order\\.amount: This value is not valid\\. ${message}`))
    expect(counts(t)).toEqual(before)
  })

  // docs/rules.md#strict: "`serve --strict` refuses them instead."
  it('refuses a lenient amount under strict, naming what the platform documents', async () => {
    const t = gatewayWith(strictConfig())
    const before = counts(t)
    const r = await session(t, { order: { amount: '25', currency: 'USD' } })
    expect(r.status).toBe(400)
    expect(messages(r.body)[0]).toMatch(/^order\.amount: 25 USD; the platform documents 2 decimals for USD/)
    expect(counts(t)).toEqual(before)
  })

  // docs/rules.md#warnings: "Warnings go to the request log, the event stream and the console."
  it('puts each warning on the event stream too', async () => {
    const t = gatewayWith()
    const seen: unknown[] = []
    const stop = t.gateway.ctx.events.subscribe((event) => {
      if (event.type === 'warning') seen.push(event)
    })
    await session(t, { order: { amount: '25.5', currency: 'USD' } })
    stop()
    expect(seen).toMatchObject([{ type: 'warning', warnings: [{ field: 'order.amount', sent: '25.5 USD' }] }])
  })

  it('classifies forms with the shared rule S2S uses too', () => {
    expect(amountForm('100.00', 'JPY')).toEqual({ kind: 'documented' })
    expect(amountForm('100', 'JPY').kind).toBe('lenient')
    expect(amountForm('100.00', 'VND').kind).toBe('lenient')
    expect(amountForm('0.0001', 'CLF')).toEqual({ kind: 'documented' })
    expect(amountForm('0.00001', 'CLF').kind).toBe('invalid')
    expect(amountForm('ten', 'USD').kind).toBe('documented') // not a decimal: left to the schema's pattern
    expect(amountForm('1.0010', 'KWD').kind).toBe('lenient')
    expect(amountForm('1.0011', 'KWD').kind).toBe('invalid')
  })
})

describe('booleans, numeric strings and card_token (docs/rules.md#transport)', () => {
  // "Checkout takes JSON true/false; the strings "true"/"false"/"Y"/"N" are accepted with a warning."
  it.each([
    ['true', true],
    ['Y', true],
    ['false', false],
    ['N', false],
  ])('takes recurring_init %j as %j with a warning', async (sent, stored) => {
    const t = gatewayWith()
    const r = await session(t, { recurring_init: sent })
    expect(r.status).toBe(200)
    expect(r.warnings).toHaveLength(1)
    expect(r.warnings[0]).toMatch(/^recurring_init: the string /)
    const token = String(r.body.redirect_url).split('/auth/')[1] as string
    expect(sessionByToken(t, token)?.request.recurring_init).toBe(stored)
  })

  it('still refuses a string that is no boolean', async () => {
    const t = gatewayWith()
    const r = await session(t, { req_token: 'maybe' })
    expect(messages(r.body)).toEqual(['req_token: This value should be of type boolean.'])
  })

  it('refuses a string boolean under strict', async () => {
    const t = gatewayWith(strictConfig())
    const r = await session(t, { recurring_init: 'true' })
    expect(r.status).toBe(400)
    expect(messages(r.body)[0]).toMatch(
      /^recurring_init: the string "true"; the platform documents a JSON boolean/,
    )
  })

  // "`card_token` on the Checkout session: a string, or an array of one string (the platform documents an array)"
  it('takes card_token as an array of one, without a warning, and refuses an array of two', async () => {
    const t = gatewayWith()
    const unknown = await session(t, { card_token: ['f'.repeat(64)] })
    // The array is read as the one token: the answer is the token's own refusal, not a type error.
    expect(messages(unknown.body)).toEqual(['card_token: Card token is invalid or not found.'])
    expect(unknown.warnings).toEqual([])
    const two = await session(t, { card_token: ['a'.repeat(64), 'b'.repeat(64)] })
    expect(messages(two.body)).toEqual([
      'card_token: This value is not valid. Send one token: a string, or an array of one string.',
    ])
  })

  // "Numeric fields (`size`) accept numeric strings."
  it('answers size "3" as size 3, with a warning', async () => {
    const t = createOperationsGateway([checkoutOperationsModule])
    const order = { number: 'order-S', amount: '10.00', currency: 'USD', description: 'Gift' }
    for (let i = 0; i < 4; i++) {
      putPayment(t, { order })
      await t.clock.advance(MINUTE)
    }
    const body = { merchant_key: MERCHANT, order_id: 'order-S', hash: sign.order('order-S') }
    const r = await send(t, '/api/v1/payment/status', { ...body, size: '3' })
    expect(r.status).toBe(200)
    expect(Array.isArray(r.body)).toBe(true)
    expect(r.body).toHaveLength(3)
    expect(r.warnings).toHaveLength(1)
    expect(r.warnings[0]).toMatch(/^size: the string "3"; documented: a JSON number/)
  })
})

describe('validation messages (docs/rules.md#errors)', () => {
  it('names the valid values of a short list', async () => {
    const t = gatewayWith()
    const r = await session(t, { operation: 'payout' })
    expect(messages(r.body)).toEqual([
      'operation: The value you selected is not a valid choice. Valid values: purchase, debit, credit.',
    ])
  })
})
