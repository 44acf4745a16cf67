import qs from 'qs'
import { describe, expect, it } from 'vitest'
import { createMemoryStore, createSeededIds, createVirtualClock } from '../../src/adapters/index.js'
import { type CallbackDelivery, callbacksModule, callbacksOf } from '../../src/core/callbacks/index.js'
import { createGateway } from '../../src/core/engine/gateway.js'
import { type Collections, STORE_INDEXES } from '../../src/core/engine/model.js'
import { completeThreeDs } from '../../src/core/payments/payer.js'
import { silentLogger } from '../../src/core/ports/logger.js'
import type { OutboundRequest } from '../../src/core/ports/transport.js'
import { s2sCardModule } from '../../src/core/s2s-card/module.js'
import { saleForm, s2sConfig } from '../s2s-card/helpers.js'

/**
 * Issue 14, as a merchant saw it: "A merchant whose S2S endpoint answers `201` + JSON to a 3DS
 * callback never sees the final `SETTLED` callback: it waits `queued` behind the retrying 3DS
 * one". Through the S2S CARD API, the payer's 3DS step and the callback queue together.
 */
describe('S2S CARD 3DS payment whose merchant never answers OK', () => {
  it('gets the final SETTLED callback at once, and every due retry of both when the clock jumps a day', async () => {
    const clock = createVirtualClock(Date.UTC(2026, 10, 2, 10, 0, 0))
    const sent: OutboundRequest[] = []
    const gateway = createGateway(
      {
        store: createMemoryStore<Collections>(STORE_INDEXES),
        clock,
        ids: createSeededIds('s2s-flow'),
        // docs/rules.md#acknowledgement: "S2S: the body `OK`. Anything else … is a failed attempt."
        transport: {
          send: async (request) => {
            sent.push(request)
            return { status: 201, body: '{"received":true}' }
          },
        },
        logger: silentLogger,
        config: s2sConfig(),
        baseUrl: 'http://sandbox.test',
      },
      [s2sCardModule, callbacksModule],
    )
    const response = await gateway.handle({
      method: 'POST',
      path: '/post',
      query: {},
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new TextEncoder().encode(qs.stringify(saleForm({ card_exp_month: '05' }))),
    })
    const id = JSON.parse(response.body).trans_id as string
    await callbacksOf(gateway.ctx).idle()
    completeThreeDs(gateway.ctx, id, 'pass')
    await callbacksOf(gateway.ctx).idle()

    const bodies = sent.map((r) => qs.parse(r.body) as Record<string, unknown>)
    expect(bodies.map((b) => [b.result, b.status])).toEqual([
      ['REDIRECT', '3DS'],
      ['SUCCESS', 'SETTLED'],
    ])
    // docs/rules.md#s2s-callback-fields: "`redirect_url`, `redirect_params`, `redirect_method` on 3DS and redirect callbacks"; "`card`,
    // `card_expiration_date` … when they apply".
    expect(bodies[0]).toMatchObject({
      redirect_url: `http://sandbox.test/acs/${id}`,
      redirect_method: 'POST',
      redirect_params: { MD: id },
    })
    expect(bodies[1]).toMatchObject({ card: '411111******1111', card_expiration_date: expect.any(String) })

    const deliveries = () =>
      (gateway.ctx.store.findBy('deliveries', 'payment_id', id) as CallbackDelivery[]).sort(
        (a, b) => a.seq - b.seq,
      )
    expect(deliveries().map((d) => d.state)).toEqual(['retrying', 'retrying'])

    // docs/rules.md#retries: "Advancing the clock runs every attempt that falls due, not one per callback."
    await clock.advance(2 * 86_400_000)
    await callbacksOf(gateway.ctx).idle()
    expect(deliveries().map((d) => [d.state, d.attempts.length])).toEqual([
      ['failed', 7],
      ['failed', 7],
    ])
    gateway.stop()
  })
})
