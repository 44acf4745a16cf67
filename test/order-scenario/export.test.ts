import qs from 'qs'
import { describe, expect, it } from 'vitest'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { validate } from '../../src/core/validation/index.js'
import { sessionBody, tokenBody } from '../checkout/session-helpers.js'
import { createTestGateway, demoConfig } from '../helpers/engine.js'
import { followUp, saleForm } from '../s2s-card/helpers.js'

/**
 * GET /sandbox/orders/{order_id}/scenario (docs/rules.md#request-log), from a sandbox's own
 * records: what each observed act becomes in the kit's format. The end-to-end proof against the
 * reference merchant and a twin is reference-export.test.ts.
 */

type Step = Record<string, unknown> & { step: string }

function sandbox() {
  const config = demoConfig()
  config.merchants.push({
    ...config.merchants[0],
    key: 'second-merchant',
    password: 'second-password-0123456789',
  })
  const t = createTestGateway(DEFAULT_MODULES, config)
  const post = (fields: Record<string, unknown>) => t.call('POST', '/post', qs.stringify(fields))
  const scenario = async (order: string, merchant?: string) => {
    const answer = await t.call(
      'GET',
      `/sandbox/orders/${encodeURIComponent(order)}/scenario${merchant ? `?merchant=${merchant}` : ''}`,
    )
    return { status: answer.status, body: answer.body as unknown as Record<string, unknown> }
  }
  return { t, post, scenario }
}

const stepsOf = (doc: Record<string, unknown>) => doc.steps as Step[]

describe('an order as a scenario (GET /sandbox/orders/{order_id}/scenario)', () => {
  it('plays an S2S CARD sale through 3DS, a faulted refund the merchant looked up and sent again, and a clock move', async () => {
    const { t, post, scenario } = sandbox()
    const sale = await post(saleForm({ order_id: 's2s-7', order_amount: '40.00', card_exp_month: '05' }))
    expect(sale.body.status).toBe('3DS')
    const id = String(sale.body.trans_id)
    const acs = await t.call('POST', `/acs/${id}`, 'result=pass')
    expect(acs.status).toBeLessThan(400)
    await t.call('POST', '/sandbox/clock/advance', { seconds: 86_400 })
    await t.call('POST', '/sandbox/faults', { mode: 'lost', match: { action: 'CREDITVOID' } })
    const lost = await post(followUp('CREDITVOID', id, { amount: '15.00' }))
    expect(lost.status).toBe(504)
    await post(followUp('GET_TRANS_STATUS', id))
    const again = await post(followUp('CREDITVOID', id, { amount: '15.00' }))
    expect(again.status).toBe(200)

    const { status, body } = await scenario('s2s-7')
    expect(status).toBe(200)
    expect(validate('sandbox/scenario', body).valid).toBe(true)
    const steps = stepsOf(body)
    expect(steps.map((s) => s.step)).toEqual([
      'merchant.start',
      'expect.merchant_request',
      'expect.callback_acknowledged',
      'payer.3ds',
      'expect.callback_acknowledged',
      'clock.advance',
      'gateway.fault',
      'merchant.action',
      'expect.merchant_request',
      'expect.callback_acknowledged',
      'expect.merchant_request',
      'expect.merchant_request',
      'expect.callback_acknowledged',
      'expect.merchant_order',
    ])
    const [start, sent, waiting, challenge, settled, clock, fault, refund, lostRefund, , lookup, resent] =
      steps
    expect(start).toMatchObject({ api: 's2s-card', outcome: '3ds_success', order: { amount: '40.00' } })
    expect(sent).toMatchObject({ endpoint: { action: 'SALE' }, fields: { '$.order_amount': '40.00' } })
    expect(waiting).toMatchObject({ callback: { action: 'SALE', status: '3DS' }, attempts: 1 })
    expect(challenge).toMatchObject({ result: 'pass' })
    expect(settled).toMatchObject({ callback: { action: 'SALE', status: 'SETTLED' } })
    // One move of a day: the explicit one, not again as a pause of the clock.
    expect(clock).toMatchObject({ seconds: 86_400 })
    expect(fault).toMatchObject({ mode: 'lost', match: { action: 'CREDITVOID' }, count: 1 })
    expect(refund).toMatchObject({ action: 'refund', amount: '15.00' })
    // The refund whose answer the fault took is expected as sent; the lookup and the resent refund are the same act.
    expect(lostRefund).toMatchObject({ endpoint: { action: 'CREDITVOID' }, fields: { '$.amount': '15.00' } })
    expect(lostRefund?.accepted).toBeUndefined()
    expect(lookup).toMatchObject({ endpoint: { action: 'GET_TRANS_STATUS' }, accepted: true })
    expect(resent).toMatchObject({ endpoint: { action: 'CREDITVOID' }, accepted: true })
    // Two refunds of 15.00 of 40.00: the order stays paid, partly refunded (docs/conformance.md, inspect).
    expect(steps.at(-1)).toMatchObject({
      fields: { '$.state': 'paid', '$.amount_paid': '40.00', '$.amount_refunded': '30.00' },
    })
    // Two refund callbacks alike are named by their position.
    expect(steps[12]).toMatchObject({ callback: { index: 3 } })
  })

  it('expects what the interface accepts where the merchant was refused, and says what was recorded', async () => {
    const { t, scenario } = sandbox()
    await t.call('POST', '/api/v1/session', sessionBody({ order: { number: 'bad-1' }, hash: '0'.repeat(40) }))
    await t.call('POST', '/api/v1/session', sessionBody({ order: { number: 'bad-1' } }))
    const { body } = await scenario('bad-1')
    const steps = stepsOf(body)
    expect(steps.map((s) => s.step)).toEqual([
      'merchant.start',
      'expect.merchant_request',
      'merchant.start',
      'expect.merchant_request',
    ])
    expect(steps[1]).toMatchObject({ signature: 'valid' })
    expect(steps[1]?.accepted).toBeUndefined()
    expect(String(steps[1]?.description)).toMatch(/HTTP 400 .*The gateway refused it then; this step expects/)
    // The second start keeps the order number the kit made for the first.
    expect(steps[2]).toMatchObject({ order: { number: `\${order_number}` } })
    expect(steps[3]).toMatchObject({ accepted: true })
  })

  it('answers 404 for an order it never saw and asks for the merchant when two have that number', async () => {
    const { t, scenario } = sandbox()
    expect((await scenario('nobody-ordered')).status).toBe(404)
    await t.call('POST', '/api/v1/session', sessionBody({ order: { number: 'shared-1' } }))
    await t.call(
      'POST',
      '/api/v1/session',
      sessionBody(
        { order: { number: 'shared-1' } },
        { key: 'second-merchant', password: 'second-password-0123456789' },
      ),
    )
    const both = await scenario('shared-1')
    expect(both.status).toBe(400)
    expect(JSON.stringify(both.body)).toContain('Several merchants have an order with this number')
    const one = await scenario('shared-1', 'second-merchant')
    expect(one.status).toBe(200)
    expect(String(one.body.title)).toContain('second-merchant')
    expect((await scenario('shared-1', 'made-up')).status).toBe(404)
  })

  it('rebuilds the start from the store when the request log does not hold it', async () => {
    const config = demoConfig()
    config.limits = { ...(config.limits ?? {}), request_log: 0 }
    const t = createTestGateway(DEFAULT_MODULES, config)
    await t.call('POST', '/post', qs.stringify(saleForm({ order_id: 'old-1', order_amount: '7.50' })))
    const answer = await t.call('GET', '/sandbox/orders/old-1/scenario')
    expect(answer.status).toBe(200)
    const steps = stepsOf(answer.body as unknown as Record<string, unknown>)
    expect(steps[0]).toMatchObject({
      step: 'merchant.start',
      api: 's2s-card',
      outcome: 'success',
      order: { amount: '7.50' },
    })
    expect(String(steps[0]?.description)).toContain('rebuilt from the payment')
    expect(steps.at(-1)).toMatchObject({ fields: { '$.state': 'paid', '$.amount_paid': '7.50' } })
    // A session nobody paid is not filed by its order number outside the log: nothing to export.
    await t.call('POST', '/api/v1/session', sessionBody({ order: { number: 'never-paid' } }))
    expect((await t.call('GET', '/sandbox/orders/never-paid/scenario')).status).toBe(404)
  })

  it("plays a Hosted Payment Fields order as the merchant start with its outcome: the card frame's collect is the payer's, not a merchant request (docs/rules.md#hosted-payment-fields)", async () => {
    const { t, scenario } = sandbox()
    const token = await t.call('POST', '/api/v1/session/token', tokenBody({ order: { number: 'hpf-9' } }))
    expect(token.status).toBe(200)
    const tok = String(token.body.token)
    const collected = await t.call('POST', `/sdk/hosted-fields/${tok}/collect`, {
      card_number: '4111111111111111',
      card_exp_month: '02',
      card_exp_year: '2030',
      card_cvv2: '123',
    })
    expect(collected.status).toBe(200)
    const paid = await t.call(
      'POST',
      '/api/v1/processing/purchase/card',
      { with_hosted_fields: true, name: 'Jane Doe' },
      { Token: tok },
    )
    expect(paid.body.result).toBe('decline')
    const { status, body } = await scenario('hpf-9')
    expect(status).toBe(200)
    expect(validate('sandbox/scenario', body).valid).toBe(true)
    const steps = stepsOf(body)
    expect(steps[0]).toMatchObject({
      step: 'merchant.start',
      api: 'checkout',
      hosted_fields: true,
      outcome: 'decline',
    })
    const asked = steps
      .filter((s) => s.step === 'expect.merchant_request')
      .map((s) => (s.endpoint as { path?: string } | undefined)?.path)
    expect(asked).not.toContain(`/sdk/hosted-fields/${tok}/collect`)
    expect(asked.some((path) => path?.includes('/collect'))).toBe(false)
    expect(asked).toContain('/api/v1/processing/purchase/card')
  })
})
