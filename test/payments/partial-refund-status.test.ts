import qs from 'qs'
import { describe, expect, it } from 'vitest'
import { apmControlModule } from '../../src/core/apm/control.js'
import { callbacksModule, callbacksOf } from '../../src/core/callbacks/index.js'
import { checkoutOperationsModule } from '../../src/core/checkout/operations/module.js'
import type { SandboxConfig, SandboxMerchant } from '../../src/core/engine/context.js'
import { s2sApmModule } from '../../src/core/s2s-apm/module.js'
import { s2sCardModule } from '../../src/core/s2s-card/module.js'
import { createTestGateway, type TestGateway } from '../helpers/engine.js'
import { bodies, MERCHANT, putPayment, sign, twoMerchantConfig } from '../helpers/payments.js'
import { followUp as apmFollowUp, apmConfig, saleForm as apmSaleForm } from '../s2s-apm/helpers.js'
import { followUp as cardFollowUp, saleForm as cardSaleForm, s2sConfig } from '../s2s-card/helpers.js'

/**
 * docs/rules.md#partial-refunds: the merchant's `partial_refund_status` chooses what a partly
 * refunded payment reports, in status answers and callbacks of all three APIs. `refund` (default)
 * is the interface's state table ("SETTLED | CREDITVOID / Checkout refund | Full or partial amount
 * | REFUND"); `settled` is the platform's documents (Checkout 6.6.2 refund callback
 * `order_status=settled`; S2S CARD 5.6.2 and S2S APM 3.6.2 CREDITVOID callback "SETTLED - for
 * partial refund"): `settled` until the whole amount is refunded, then `refund`.
 */

type Choice = SandboxMerchant['partial_refund_status']

function withChoice(config: SandboxConfig, choice: Choice): SandboxConfig {
  const [demo] = config.merchants as [SandboxMerchant]
  if (choice !== undefined) demo.partial_refund_status = choice
  return config
}

const delivered = async (t: TestGateway) => {
  await callbacksOf(t.gateway.ctx).idle()
  return t.sent.map((s) => qs.parse(s.body) as Record<string, string>)
}

describe('Checkout (docs/rules.md#partial-refunds)', () => {
  const setup = (choice: Choice) =>
    createTestGateway([checkoutOperationsModule, callbacksModule], withChoice(twoMerchantConfig(), choice))
  const status = async (t: TestGateway, id: string) =>
    (
      await t.call('POST', '/api/v1/payment/status', {
        merchant_key: MERCHANT,
        payment_id: id,
        hash: sign.payment(id),
      })
    ).body.status
  const refundCallbacks = async (t: TestGateway, id: string) =>
    (await delivered(t)).filter((c) => c.id === id && c.type === 'refund').map((c) => c.order_status)

  it.each([
    [undefined, 'refund'],
    ['refund' as const, 'refund'],
    ['settled' as const, 'settled'],
  ])(
    'partial_refund_status %s: a partial refund reports %s; the full refund reports refund',
    async (choice, partly) => {
      const t = setup(choice)
      const p = putPayment(t)
      expect((await t.call('POST', '/api/v1/payment/refund', bodies.refund(p.id, '4.00'))).body.result).toBe(
        'accepted',
      )
      // The payment itself follows the interface's table whatever is reported.
      expect(t.store.get('payments', p.id)?.status).toBe('refund')
      expect(await status(t, p.id)).toBe(partly)
      expect(await refundCallbacks(t, p.id)).toEqual([partly])
      // Further refunds are allowed up to what is left, either way; the last one reports refund.
      expect((await t.call('POST', '/api/v1/payment/refund', bodies.refund(p.id, '6.00'))).body.result).toBe(
        'accepted',
      )
      expect(await status(t, p.id)).toBe('refund')
      expect(await refundCallbacks(t, p.id)).toEqual([partly, 'refund'])
    },
  )

  it('applies to the status by order_id too', async () => {
    const t = setup('settled')
    const p = putPayment(t, { order_id: 'order-pr' })
    await t.call('POST', '/api/v1/payment/refund', bodies.refund(p.id, '1.00'))
    const byOrder = await t.call('POST', '/api/v1/payment/status', {
      merchant_key: MERCHANT,
      order_id: p.order_id,
      hash: sign.order(p.order_id),
    })
    expect(byOrder.body.status).toBe('settled')
  })
})

// The same on both S2S APIs: a partial CREDITVOID, then the rest.
const S2S_APIS = [
  {
    api: 'S2S CARD',
    modules: [s2sCardModule, callbacksModule],
    config: s2sConfig,
    path: '/post',
    sale: cardSaleForm,
    followUp: cardFollowUp,
    partial: 3,
  },
  {
    api: 'S2S APM',
    modules: [s2sApmModule, s2sCardModule, apmControlModule, callbacksModule],
    config: apmConfig,
    path: '/post-va',
    sale: apmSaleForm,
    followUp: apmFollowUp,
    partial: 1,
  },
]

describe.each(S2S_APIS)(
  '$api (docs/rules.md#partial-refunds)',
  ({ modules, config, path, sale: saleForm, followUp, partial }) => {
    const setup = (choice: Choice) => {
      const t = createTestGateway(modules, withChoice(config(), choice))
      return { t, post: (fields: Record<string, unknown>) => t.call('POST', path, qs.stringify(fields)) }
    }

    it.each([
      [undefined, 'REFUND'],
      ['settled' as const, 'SETTLED'],
    ])(
      'partial_refund_status %s: CREDITVOID callback and GET_TRANS_STATUS report %s, the full refund REFUND',
      async (choice, partly) => {
        const { t, post } = setup(choice)
        const sale = (await post(saleForm())).body
        const id = String(sale.trans_id)
        expect(sale.status).toBe('SETTLED')
        expect((await post(followUp('CREDITVOID', id, { amount: partial.toFixed(2) }))).body.result).toBe(
          'ACCEPTED',
        )
        expect((await post(followUp('GET_TRANS_STATUS', id))).body.status).toBe(partly)
        const creditvoids = async () =>
          (await delivered(t))
            .filter((c) => c.trans_id === id && c.action === 'CREDITVOID')
            .map((c) => c.status)
        expect(await creditvoids()).toEqual([partly])
        const rest = (Number(sale.amount) - partial).toFixed(2)
        expect((await post(followUp('CREDITVOID', id, { amount: rest }))).body.result).toBe('ACCEPTED')
        expect((await post(followUp('GET_TRANS_STATUS', id))).body.status).toBe('REFUND')
        expect(await creditvoids()).toEqual([partly, 'REFUND'])
      },
    )
  },
)
