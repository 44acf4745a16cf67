import { describe, expect, it } from 'vitest'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { pagesGateway } from './helpers.js'

/**
 * docs/rules.md#page-guard (issue 32 point 1): a hosted page that changes state refuses a
 * cross-site request by the control guard's rule, in gateway.handle (every adapter); the demo
 * page shows the status of the demo merchant's payments only.
 */
describe('hosted page guard', () => {
  it('a cross-site form post to /hpf/demo is refused 403 with its rule and creates nothing', async () => {
    const t = pagesGateway()
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.test', host: 'sandbox.test' },
      { 'sec-fetch-site': 'cross-site', host: 'sandbox.test' },
      { 'sec-fetch-site': 'same-site', host: 'sandbox.test' },
    ]) {
      const r = await t.call('POST', '/hpf/demo', '', headers)
      expect(r.status).toBe(403)
      expect(r.headers['sandbox-rule']).toBe('docs/rules.md#page-guard')
      expect(r.raw).toContain('Cross-site requests to the sandbox&#39;s pages are refused.')
    }
    expect(t.store.count('sessions')).toBe(0)
    // Same origin still works.
    const ok = await t.call('POST', '/hpf/demo', '', { origin: 'http://sandbox.test', host: 'sandbox.test' })
    expect(ok.status).toBe(303)
    expect(t.store.count('sessions')).toBe(1)
  })

  it('a cross-site post to the ACS page is an arrival: 303 to the page, nothing completed', async () => {
    const t = pagesGateway()
    const r = await t.call('POST', '/acs/some-payment', 'result=pass', { 'sec-fetch-site': 'cross-site' })
    expect(r.status).toBe(303)
    expect(r.headers.location).toBe('/acs/some-payment')
  })

  it("GET /hpf/demo?payment_id= does not show another merchant's payment status", async () => {
    const t = pagesGateway()
    const order = { number: 'other-1', amount: '10.00', currency: 'EUR', description: 'x' }
    const made = await t.call('POST', '/api/v1/session', {
      merchant_key: 'demo-merchant',
      operation: 'purchase',
      methods: ['card'],
      order,
      success_url: 'https://shop.test/s',
      hash: checkoutSignatures.session(order, 'demo-password-0123456789abcdef'),
    })
    expect(made.status).toBe(200)
    const payment = {
      ...({} as Record<string, unknown>),
      id: 'foreign-payment',
      merchant_key: 'another-merchant',
      status: 'settled',
    }
    t.store.put('payments', payment as never)
    const page = await t.call('GET', '/hpf/demo?payment_id=foreign-payment')
    expect(page.status).toBe(200)
    expect(page.raw).not.toContain('settled')
    expect(page.raw).toContain('unknown')
  })
})
