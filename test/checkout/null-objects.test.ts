import { describe, expect, it } from 'vitest'
import { checkoutSessionModule } from '../../src/core/checkout/module.js'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import type { SandboxConfig } from '../../src/core/engine/context.js'
import { hostedPagesModule } from '../../src/pages/module.js'
import { createTestGateway, type TestGateway } from '../helpers/engine.js'
import {
  bodies,
  MERCHANT,
  putCard,
  putPayment,
  putRecurringInitial,
  sign,
  twoMerchantConfig,
} from '../helpers/payments.js'
import { configWith, counts, messages, sessionBody, sessionByToken, tokenBody } from './session-helpers.js'

/**
 * docs/rules.md#null-objects: an optional object sent as JSON `null` (a white-label's Python SDK
 * sends `"customer": null` and `"billing_address": null` when the caller omits them) is taken as
 * absent, with a `Sandbox-Warning` naming the field and the rule; `serve --strict` refuses it.
 * Interface 2.1: customer and billing_address are optional. S2S requests are forms: no `null`.
 */

async function send(
  t: TestGateway,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const response = await t.gateway.handle({
    method,
    path,
    query: {},
    headers: { 'content-type': 'application/json', ...headers },
    body: new TextEncoder().encode(JSON.stringify(body)),
    remoteAddress: '203.0.113.7',
  })
  return {
    status: response.status,
    body: JSON.parse(response.body) as Record<string, unknown>,
    warnings: response.warnings ?? [],
  }
}

const modules = [checkoutSessionModule, checkoutOperationsModule, hostedPagesModule]
const sessionGateway = (strict = false) =>
  createTestGateway(modules, { ...configWith([{ id: 'demo-mid' }]), ...(strict ? { strict: true } : {}) })
const operationsGateway = (strict = false): TestGateway => {
  const config: SandboxConfig = twoMerchantConfig()
  if (strict) config.strict = true
  return createTestGateway([checkoutOperationsModule], config)
}

const nullWarning = (field: string) =>
  `${field}: null; documented: an optional object: the object, or no field at all; source: docs/rules.md#null-objects (interface 2.1: the object may be omitted)`

describe('optional objects sent as null (docs/rules.md#null-objects)', () => {
  it('session: customer and billing_address null are taken as absent, one warning each', async () => {
    const t = sessionGateway()
    const r = await send(t, 'POST', '/api/v1/session', sessionBody({ customer: null, billing_address: null }))
    expect(r.status).toBe(200)
    expect(r.warnings).toEqual([nullWarning('customer'), nullWarning('billing_address')])
    const token = String(r.body.redirect_url).split('/auth/')[1] as string
    const request = sessionByToken(t, token)?.request as Record<string, unknown>
    expect('customer' in request).toBe(false)
    expect('billing_address' in request).toBe(false)
  })

  it('session: parameters, custom_data, payee null too; a present object is not warned', async () => {
    const t = sessionGateway()
    const r = await send(
      t,
      'POST',
      '/api/v1/session',
      sessionBody({
        parameters: null,
        custom_data: null,
        customer: { name: 'Amal Haddad', email: 'a@example.com' },
      }),
    )
    expect(r.status).toBe(200)
    expect(r.warnings).toEqual([nullWarning('parameters'), nullWarning('custom_data')])
  })

  it('session: the required order sent as null stays an error', async () => {
    const t = sessionGateway()
    const before = counts(t)
    const body = { ...sessionBody(), order: null }
    const r = await send(t, 'POST', '/api/v1/session', body)
    expect(r.status).toBe(400)
    expect(messages(r.body).some((m) => m.startsWith('order: '))).toBe(true)
    expect(counts(t)).toEqual(before)
  })

  it('session token (Hosted Payment Fields): customer null taken as absent', async () => {
    const t = sessionGateway()
    const r = await send(t, 'POST', '/api/v1/session/token', tokenBody({ customer: null }))
    expect(r.status).toBe(200)
    expect(typeof r.body.token).toBe('string')
    expect(r.warnings).toEqual([nullWarning('customer')])
  })

  it('Hosted Payment Fields payment: billing_address and browser_info null taken as absent', async () => {
    const t = sessionGateway()
    const token = String((await send(t, 'POST', '/api/v1/session/token', tokenBody())).body.token)
    await send(t, 'POST', `/sdk/hosted-fields/${token}/collect`, {
      card_number: '4111111111111111',
      card_exp_month: '01',
      card_exp_year: '2038',
      card_cvv2: '123',
    })
    const r = await send(
      t,
      'POST',
      '/api/v1/processing/purchase/card',
      { with_hosted_fields: true, name: 'J Doe', billing_address: null, browser_info: null },
      { token },
    )
    expect(r.status).toBe(200)
    expect(r.body.result).toBe('success')
    expect(r.warnings).toEqual([nullWarning('billing_address'), nullWarning('browser_info')])
  })

  it('session update: custom_data null taken as absent', async () => {
    const t = sessionGateway()
    const token = String((await send(t, 'POST', '/api/v1/session/token', tokenBody())).body.token)
    const r = await send(
      t,
      'PUT',
      '/api/v1/session/update',
      { order_amount: '12.00', custom_data: null },
      { token },
    )
    expect(r.status).toBe(200)
    expect(r.warnings).toEqual([nullWarning('custom_data')])
  })

  it('refund, capture and void: parameters null taken as absent', async () => {
    const t = operationsGateway()
    const payment = putPayment(t)
    const r = await send(
      t,
      'POST',
      '/api/v1/payment/refund',
      bodies.refund(payment.id, '2.00', { parameters: null }),
    )
    expect(r.status).toBe(200)
    expect(r.body.result).toBe('accepted')
    expect(r.warnings).toEqual([nullWarning('parameters')])
    const other = putPayment(t)
    const v = await send(t, 'POST', '/api/v1/payment/void', bodies.void(other.id, { parameters: null }))
    expect(v.status).toBe(200)
    expect(v.warnings).toEqual([nullWarning('parameters')])
  })

  it('recurring and card credit: custom_data null taken as absent', async () => {
    const t = operationsGateway()
    const initial = putRecurringInitial(t)
    const order = { number: 'order-n', amount: '5.00', description: 'Monthly plan' }
    const token = initial.recurring?.token as string
    const recurring = await send(t, 'POST', '/api/v1/payment/recurring', {
      merchant_key: MERCHANT,
      recurring_init_trans_id: initial.id,
      recurring_token: token,
      order,
      hash: sign.recurring(initial.id, token, order),
      custom_data: null,
    })
    expect(recurring.status).toBe(200)
    expect(recurring.body.status).toBe('settled')
    expect(recurring.warnings).toEqual([nullWarning('custom_data')])
    expect(t.store.get('payments', String(recurring.body.payment_id))?.custom_data).toBeUndefined()

    const card = putCard(t)
    const o = { order_id: 'payout-n', order_amount: '5.00', order_currency: 'EUR', order_description: 'Out' }
    const credit = await send(t, 'POST', '/api/v1/payment/card/credit', {
      merchant_key: MERCHANT,
      ...o,
      card_token: card.id,
      custom_data: null,
      hash: sign.credit(o),
    })
    expect(credit.status).toBe(200)
    expect(credit.warnings).toEqual([nullWarning('custom_data')])
  })

  it('strict: refused as a field error naming the rule, nothing stored', async () => {
    const t = sessionGateway(true)
    const before = counts(t)
    const r = await send(t, 'POST', '/api/v1/session', sessionBody({ customer: null }))
    expect(r.status).toBe(400)
    expect(messages(r.body)).toEqual([
      'customer: null; the platform documents an optional object: the object, or no field at all (docs/rules.md#null-objects (interface 2.1: the object may be omitted)).',
    ])
    expect(counts(t)).toEqual(before)
    const ops = operationsGateway(true)
    const payment = putPayment(ops)
    const refund = await send(
      ops,
      'POST',
      '/api/v1/payment/refund',
      bodies.refund(payment.id, '2.00', { parameters: null }),
    )
    expect(refund.status).toBe(400)
    expect(ops.store.get('payments', payment.id)?.status).toBe('settled')
  })
})
