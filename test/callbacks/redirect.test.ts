import { describe, expect, it } from 'vitest'
import { appendQuery, effectiveUrlTarget, redirectFor } from '../../src/core/callbacks/index.js'
import type { SandboxMerchant } from '../../src/core/engine/context.js'
import type { Payment, Session } from '../../src/core/engine/model.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { expectValid } from '../helpers/schema.js'
import { config, harness, PASSWORD, payment, START, transaction } from './harness.js'

const URLS = {
  success_url: 'https://shop.test/ok?lang=en#top',
  cancel_url: 'https://shop.test/cancel',
  error_url: 'https://shop.test/error?',
  expiry_url: 'https://shop.test/expired?a=1&',
}

function setup(
  options: {
    mapping?: SandboxMerchant['protocol_mapping']
    request?: Record<string, unknown>
    p?: Partial<Payment>
  } = {},
) {
  const h = harness({ config: config({ mapping: options.mapping ?? {} }) })
  const p = payment({ session_id: 'sess-r', ...options.p })
  const session: Session = {
    id: 'sess-r',
    token: 'tok-r',
    page_token: 'page-r',
    merchant_key: p.merchant_key,
    operation: 'purchase',
    methods: ['card'],
    request: { ...URLS, ...options.request },
    hosted_fields: false,
    created_at: START,
    expires_at: START + 3_600_000,
    status: 'paid',
    payment_id: p.id,
  }
  h.store.put('sessions', session)
  h.store.put('payments', p)
  const tx = transaction(p, 'sale')
  h.store.put('transactions', tx)
  return { h, p, tx }
}

const query = (url: string) => Object.fromEntries(new URL(url).searchParams)

describe('redirect URLs', () => {
  // Events: "`success_url` and `cancel_url` always receive `payment_id`, `trans_id`, `order_id`, `hash` as query
  // parameters, for 3DS and non-3DS payments alike."
  it.each(['success', 'cancel', 'error', 'expiry'] as const)(
    '%s URL receives payment_id, trans_id, order_id, hash',
    (outcome) => {
      const { h, p, tx } = setup()
      const redirect = redirectFor(h.ctx, p, outcome)
      const params = query(redirect?.url ?? '')
      expect(params).toMatchObject({
        payment_id: p.id,
        trans_id: tx.id,
        order_id: 'ORDER-1001',
        hash: checkoutSignatures.notification(p.id, p.order, PASSWORD),
      })
      expectValid('callbacks/redirect-query', params)
      expect(params).not.toHaveProperty('payment_method')
    },
  )

  it('keeps the merchant’s own query and fragment and joins with the right separator', () => {
    const { h, p } = setup()
    expect(redirectFor(h.ctx, p, 'success')?.url).toMatch(
      /^https:\/\/shop\.test\/ok\?lang=en&payment_id=[^#]+#top$/,
    )
    expect(redirectFor(h.ctx, p, 'cancel')?.url).toMatch(/^https:\/\/shop\.test\/cancel\?payment_id=/)
    expect(redirectFor(h.ctx, p, 'error')?.url).toMatch(/^https:\/\/shop\.test\/error\?payment_id=/)
    expect(redirectFor(h.ctx, p, 'expiry')?.url).toMatch(/^https:\/\/shop\.test\/expired\?a=1&payment_id=/)
    expect(appendQuery('https://x.test/p?q=a b', { k: 'v&w' })).toBe('https://x.test/p?q=a b&k=v%26w')
  })

  it('gives a 3DS payment the same parameters, naming the transaction asked for', () => {
    const { h, p } = setup({ p: { three_ds: { required: true, outcome: 'pass', attributes: {} } } })
    const redirect = redirectFor(h.ctx, p, 'success', { transactionId: 'tx-3ds-step' })
    expect(query(redirect?.url ?? '')).toMatchObject({ payment_id: p.id, trans_id: 'tx-3ds-step' })
  })

  // Events: "The Protocol Mapping block Return additional parameters (empty by default; available: payment method)
  // appends further parameters, for example `payment_method` and `brand`."
  it('appends payment_method and brand when the merchant’s mapping enables them', () => {
    const { h, p } = setup({ mapping: { return_additional_parameters: ['payment_method', 'brand'] } })
    const params = query(redirectFor(h.ctx, p, 'success')?.url ?? '')
    expect(params).toMatchObject({ payment_method: 'card', brand: 'visa' })
    expectValid('callbacks/redirect-query', params)
    const only = setup({ mapping: { return_additional_parameters: ['payment_method'] } })
    expect(query(redirectFor(only.h.ctx, only.p, 'success')?.url ?? '')).not.toHaveProperty('brand')
  })

  it('answers undefined when the session gave no URL for the outcome', () => {
    const { h, p } = setup({ request: { error_url: undefined } })
    expect(redirectFor(h.ctx, p, 'error')).toBeUndefined()
  })

  // 2.1 url_target: "An administrator-set MID attribute Override Link Target (same four values) wins over the
  // merchant value; when it is unset the merchant value is used."
  it('uses the MID Override Link Target when set, else the session url_target', () => {
    const own = setup({ request: { url_target: '_self' } })
    expect(redirectFor(own.h.ctx, own.p, 'success')?.target).toBe('_self')
    const overridden = setup({
      request: { url_target: '_self' },
      p: { merchant_key: 'other-merchant', mid_id: 'other-mid' },
    })
    expect(redirectFor(overridden.h.ctx, overridden.p, 'success')?.target).toBe('_blank')
    expect(effectiveUrlTarget({ override_link_target: null }, { request: { url_target: '_top' } })).toBe(
      '_top',
    )
    expect(effectiveUrlTarget({ override_link_target: '_parent' }, { request: {} })).toBe('_parent')
    expect(effectiveUrlTarget(undefined, { request: {} })).toBeUndefined()
  })
})
