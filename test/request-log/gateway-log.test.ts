import qs from 'qs'
import { describe, expect, it } from 'vitest'
import { DEFAULT_MODULES } from '../../src/assembly.js'
import { jsonResponse } from '../../src/core/engine/http.js'
import type { EngineModule } from '../../src/core/engine/modules.js'
import { none } from '../../src/core/engine/pipeline.js'
import { requestLogOf } from '../../src/core/request-log/index.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { createTestGateway, demoConfig } from '../helpers/engine.js'
import { saleForm } from '../s2s-card/helpers.js'
import { sessionBody } from '../checkout/session-helpers.js'

/**
 * docs/rules.md#request-log: every request that passes the gateway's door is recorded once, with
 * what it concerns (merchant, order, payment), what it carried (masked) and what it was answered.
 */

const PASSWORD = 'demo-password-0123456789abcdef'

function gateway(config = demoConfig()) {
  const t = createTestGateway(DEFAULT_MODULES, config)
  const log = requestLogOf(t.gateway.ctx)
  return { t, log }
}

describe('the request log (docs/rules.md#request-log)', () => {
  it('records a session request once, with its merchant, order and answer, and the payment its page made', async () => {
    const { t, log } = gateway()
    const session = await t.call('POST', '/api/v1/session', sessionBody({ order: { number: 'ord-7' } }))
    expect(session.status).toBe(200)
    const [record] = log.query({ merchant: 'demo-merchant', order_id: 'ord-7' }).records
    expect(record).toMatchObject({
      method: 'POST',
      path: '/api/v1/session',
      route: '/api/v1/session',
      api: 'checkout',
      merchant: 'demo-merchant',
      order_id: 'ord-7',
      response: { status: 200 },
    })
    expect(log.stats().recorded).toBe(1)
    // The answer's redirect_url holds the page token: it is removed before the record is kept.
    const token = String(new URL(String(session.body.redirect_url)).pathname.split('/').pop())
    expect(record?.response.body).not.toContain(token)
    expect(record?.response.body).toContain('/auth/[removed]')

    // The payer's card form: the page's token is taken out of the path, the card masked, the CVV gone.
    const paid = await t.call(
      'POST',
      `/auth/${token}/pay`,
      qs.stringify({
        card_number: '4111 1111 1111 1111',
        card_exp: '01/30',
        card_cvv2: '987',
        card_holder: 'A B',
      }),
    )
    expect(paid.status).toBeLessThan(500)
    const page = log.query({ merchant: 'demo-merchant', order_id: 'ord-7', order: 'asc' }).records
    expect(page.map((r) => r.route)).toEqual(['/api/v1/session', '/auth/:token/pay'])
    const pay = page[1]
    expect(pay?.path).toBe('/auth/[removed]/pay')
    expect(JSON.stringify(pay)).not.toContain('4111111111111111')
    expect(JSON.stringify(pay)).not.toContain('4111 1111 1111 1111')
    expect(JSON.stringify(pay)).not.toContain('987')
    expect(JSON.stringify(pay)).not.toContain(token)
    expect((pay?.request.body ?? {}) as Record<string, unknown>).toMatchObject({
      card_number: '411111******1111',
    })
    expect(((pay?.request.body ?? {}) as Record<string, unknown>).card_number).toBe('411111******1111')
    const payment = t.store.findBy('payments', 'order_id', 'ord-7')[0]
    expect(payment).toBeDefined()
    expect(pay?.payment_id).toBe(payment?.id)
    expect(log.query({ payment_id: payment?.id }).records.map((r) => r.id)).toEqual([pay?.id])
  })

  it('records a refusal with its answer and no state, under the merchant named', async () => {
    const { t, log } = gateway()
    const bad = sessionBody({ order: { number: 'ord-8' }, hash: 'f'.repeat(40) })
    const answer = await t.call('POST', '/api/v1/session', bad)
    expect(answer.status).toBe(400)
    const [record] = log.query({ merchant: 'demo-merchant', order_id: 'ord-8' }).records
    expect(record?.response.status).toBe(400)
    expect(record?.response.body).toBe(answer.raw)
    expect(record?.payment_ids).toEqual([])
  })

  it('records an S2S SALE with its action, the trans_id it made and the card masked', async () => {
    const { t, log } = gateway()
    const sale = await t.call('POST', '/post', qs.stringify(saleForm({ order_id: 's2s-1' })))
    expect(sale.status).toBe(200)
    const [record] = log.query({ merchant: 'demo-merchant', order_id: 's2s-1' }).records
    expect(record).toMatchObject({ api: 's2s-card', action: 'SALE', payment_id: sale.body.trans_id })
    const body = record?.request.body as Record<string, unknown>
    expect(body.card_number).toBe('411111******1111')
    expect(body.card_cvv2).toBeUndefined()
    // A follow-up that names the payment only by trans_id is filed under its order too.
    const status = await t.call(
      'POST',
      '/post',
      qs.stringify({
        action: 'GET_TRANS_STATUS',
        client_key: 'demo-merchant',
        trans_id: sale.body.trans_id,
        hash: 'wrong',
      }),
    )
    expect(status.status).toBeGreaterThanOrEqual(200)
    const order = log.query({ merchant: 'demo-merchant', order_id: 's2s-1', order: 'asc' }).records
    expect(order.map((r) => r.action)).toEqual(['SALE', 'GET_TRANS_STATUS'])
  })

  it('files an unknown merchant key and an unknown path under nobody: no merchant can be made up', async () => {
    const { t, log } = gateway()
    const other = sessionBody({}, { key: 'made-up-key', password: 'x'.repeat(20) })
    await t.call('POST', '/api/v1/session', other)
    await t.call('POST', '/api/v1/sessionz', { merchant_key: 'demo-merchant' })
    expect(log.query({ merchant: 'made-up-key' }).total).toBe(0)
    const nobody = log.query({ unattributed: true, order: 'asc' }).records
    expect(nobody.map((r) => [r.path, r.response.status, r.api])).toEqual([
      ['/api/v1/session', 400, 'checkout'],
      ['/api/v1/sessionz', 404, 'none'],
    ])
  })

  it("keeps each merchant's requests within its own bound: another merchant's traffic pushes none out", async () => {
    const config = demoConfig()
    config.limits = { ...(config.limits ?? {}), request_log: 3 }
    config.merchants.push({ ...config.merchants[0], key: 'busy-merchant', password: PASSWORD })
    const { t, log } = gateway(config)
    await t.call('POST', '/api/v1/session', sessionBody({ order: { number: 'quiet-1' } }))
    for (let i = 0; i < 10; i++)
      await t.call(
        'POST',
        '/api/v1/session',
        sessionBody({ order: { number: `busy-${i}` } }, { key: 'busy-merchant', password: PASSWORD }),
      )
    expect(log.query({ merchant: 'demo-merchant' }).records.map((r) => r.order_id)).toEqual(['quiet-1'])
    expect(log.query({ merchant: 'busy-merchant' }).records.map((r) => r.order_id)).toEqual([
      'busy-9',
      'busy-8',
      'busy-7',
    ])
    // Forgotten records leave the indexes too.
    expect(log.query({ merchant: 'busy-merchant', order_id: 'busy-0' }).total).toBe(0)
    expect(log.stats()).toMatchObject({ per_merchant: 3, kept: 4, recorded: 11, forgotten: 7 })
  })

  it('is off with request_log 0: nothing is recorded', async () => {
    const config = demoConfig()
    config.limits = { ...(config.limits ?? {}), request_log: 0 }
    const { t, log } = gateway(config)
    await t.call('POST', '/api/v1/session', sessionBody())
    expect(log.stats()).toMatchObject({ per_merchant: 0, kept: 0, recorded: 0 })
  })

  it('skips the reads that would drown an order: control API reads and static assets', async () => {
    const { t, log } = gateway()
    await t.call('GET', '/sandbox/payments')
    await t.call('GET', '/assets/hosted.js')
    await t.call('POST', '/sandbox/clock/advance', { seconds: 60 })
    const all = log.query({ order: 'asc' }).records
    expect(all.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /sandbox/clock/advance'])
  })

  it('records the refusal record and the warnings the answer carried', async () => {
    const refusing: EngineModule = {
      name: 'refusing',
      routes: () => [
        {
          method: 'POST',
          path: '/api/v1/refusing',
          api: 'checkout',
          declared: none('a stand-in route that refuses'),
          handler: () => ({
            ...jsonResponse(400, { error_code: 0, error_message: 'Request data is invalid.' }),
            refusal: { rule: 'checkout-signatures', fields: ['hash'], formula: 'checkout.session' },
            warnings: ['docs/rules.md#amounts: order.amount "10"'],
          }),
        },
      ],
    }
    const t = createTestGateway([...DEFAULT_MODULES, refusing], demoConfig(), { checkResponses: false })
    await t.call('POST', '/api/v1/refusing', {
      merchant_key: 'demo-merchant',
      order_id: 'o-1',
      hash: checkoutSignatures.statusByOrder('o-1', PASSWORD),
    })
    const [record] = requestLogOf(t.gateway.ctx).query({ merchant: 'demo-merchant' }).records
    expect(record?.refusal).toEqual({
      rule: 'checkout-signatures',
      fields: ['hash'],
      formula: 'checkout.session',
    })
    expect(record?.warnings).toEqual(['docs/rules.md#amounts: order.amount "10"'])
  })

  it('is emptied by a reset, with the rest of the records', async () => {
    const { t, log } = gateway()
    await t.call('POST', '/api/v1/session', sessionBody())
    await t.call('POST', '/sandbox/reset', {})
    expect(log.query({ merchant: 'demo-merchant' }).total).toBe(0)
  })
})

describe('GET /sandbox/requests (docs/rules.md#request-log)', () => {
  it('lists by merchant and order, answers one by id, and refuses what it cannot read', async () => {
    const { t } = gateway()
    await t.call('POST', '/api/v1/session', sessionBody({ order: { number: 'ord-9' } }))
    await t.call('POST', '/api/v1/session', sessionBody({ order: { number: 'ord-10' } }))
    const list = await t.call('GET', '/sandbox/requests?merchant=demo-merchant&order_id=ord-9')
    expect(list.status).toBe(200)
    expect(list.body.total).toBe(1)
    const [first] = list.body.requests as unknown as { id: string; order_id: string }[]
    expect(first?.order_id).toBe('ord-9')
    expect((list.body.log as Record<string, number>).recorded).toBe(2)
    const one = await t.call('GET', `/sandbox/requests/${first?.id}`)
    expect(one.status).toBe(200)
    expect(one.body.order_id).toBe('ord-9')
    const missing = await t.call('GET', '/sandbox/requests/req-999')
    expect(missing.status).toBe(404)
    expect(missing.body.error_message).toBe('Request not found.')
    const bad = await t.call('GET', '/sandbox/requests?limit=0')
    expect(bad.status).toBe(400)
    const newest = await t.call('GET', '/sandbox/requests?limit=1')
    expect((newest.body.requests as unknown as { order_id: string }[]).map((r) => r.order_id)).toEqual([
      'ord-10',
    ])
  })
})
