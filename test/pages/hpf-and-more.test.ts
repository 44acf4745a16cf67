import { describe, expect, it } from 'vitest'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { saleForm } from '../s2s-card/helpers.js'
import { CARD, form, openSession, PASSWORD, pagesGateway, SHOP, tag, textOf } from './helpers.js'

type T = ReturnType<typeof pagesGateway>
const dataOf = (html: string) =>
  JSON.parse(/<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(html)?.[1] ?? '{}')

async function hpfToken(t: T, overrides: Record<string, unknown> = {}): Promise<string> {
  const order = { number: 'hpf-1', amount: '5.00', currency: 'USD', description: 'Mug' }
  const r = await t.call('POST', '/api/v1/session/token', {
    merchant_key: 'demo-merchant',
    operation: 'purchase',
    order,
    success_url: `${SHOP}/success`,
    // docs/rules.md#hosted-payment-fields: the session-token request requires return_url
    return_url: `${SHOP}/return`,
    hash: checkoutSignatures.session(order, PASSWORD),
    ...overrides,
  })
  return String(r.body.token)
}

describe('Hosted Payment Fields (/hpf/<session token>)', () => {
  it('renders the card fields posting to the processing endpoint of the session operation with its Token', async () => {
    const t = pagesGateway({ protocol_mapping: { terms_and_conditions: { enabled: true } } })
    const token = await hpfToken(t)
    const r = await t.call('GET', `/hpf/${token}`)
    expect(r.status).toBe(200)
    expect(dataOf(r.raw)).toMatchObject({ page: 'hpf', endpoint: '/api/v1/processing/purchase/card', token })
    expect(tag(r.raw, 'card_number')).toBeDefined()
    // Events: the checkbox "is not shown for ... Hosted Payment Fields".
    expect(tag(r.raw, 'terms')).toBeUndefined()
    const debit = await t.call('GET', `/hpf/${await hpfToken(t, { operation: 'debit' })}`)
    expect(dataOf(debit.raw).endpoint).toBe('/api/v1/processing/debit/card')
  })

  it('works without script too: the form post pays, or sends the payer to the ACS page', async () => {
    const t = pagesGateway()
    const token = await hpfToken(t)
    const bad = await t.call('POST', `/hpf/${token}/pay`, form({ card_number: '1' }))
    expect(bad.status).toBe(422)
    expect(textOf(bad.raw, 'card_number-error')).toBe('Enter a valid card number.')
    const challenged = await t.call('POST', `/hpf/${token}/pay`, form({ ...CARD, card_exp: '05/30' }))
    expect(challenged.headers.location).toMatch(/^\/acs\//)
    const passed = await t.call('POST', challenged.headers.location ?? '', 'result=pass')
    // docs/rules.md#hosted-payment-fields: after 3DS the payer of Hosted Payment Fields comes back to return_url
    expect(passed.headers.location).toMatch(/^https:\/\/shop\.test\/return\?payment_id=/)
    const after = await t.call('GET', `/hpf/${token}`)
    expect(after.raw).toContain('Payment successful')
    expect(dataOf(after.raw).hpfResult).toMatchObject({ type: 'result', status: 'settled' })
  })

  // docs/rules.md#hosted-payment-fields: the demo is a merchant page built only on /sdk/hosted-fields.js
  it('serves a copyable demo page built on the HostedFields script, and makes a demo session token', async () => {
    const t = pagesGateway()
    const demo = await t.call('GET', '/hpf/demo')
    expect(demo.status).toBe(200)
    expect(demo.raw).toContain('{base_url}/api/v1/session/token')
    expect(demo.raw).toContain('hostedFields.collectIframesData()')
    expect(demo.raw).toContain('<script src="/sdk/hosted-fields.js" defer=""></script>')
    const made = await t.call('POST', '/hpf/demo', '', { host: '127.0.0.1:4321' })
    expect(made.headers.location).toMatch(/^\/hpf\/demo\?token=[0-9a-f]+$/)
    const token = new URL(`http://x${made.headers.location}`).searchParams.get('token') as string
    const page = await t.call('GET', made.headers.location ?? '')
    expect(dataOf(page.raw)).toMatchObject({
      page: 'hpf-demo',
      token,
      endpoint: '/api/v1/processing/purchase/card',
    })
    expect(tag(page.raw, 'card-number')).toBeDefined()
    // The demo's return_url follows the host the browser used (localhost and 127.0.0.1 alike).
    const session = t.store.findBy('sessions', 'token', token)[0]
    expect(session?.request.return_url).toBe('http://127.0.0.1:4321/hpf/demo')
    expect(session?.request.success_url).toBeUndefined()
  })
})

describe('the rest of the pages', () => {
  it('serves the client script', async () => {
    const r = await pagesGateway().call('GET', '/assets/hosted.js')
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(r.raw).toContain("source: 'paysandbox-hpf'")
  })

  it('answers unknown tokens and payments with a page, never the API envelope', async () => {
    const t = pagesGateway()
    for (const path of [
      '/auth/nope',
      '/hpf/nope',
      '/acs/nope',
      '/redirect-sim/nope',
      `/auth/${'x'.repeat(5000)}`,
    ]) {
      const r = await t.call('GET', path)
      expect(r.status, path).toBe(404)
      expect(r.raw).toContain('Payment page not found')
    }
  })

  it('never fails on odd posts: JSON bodies, arrays, unknown methods, repeated fields', async () => {
    const t = pagesGateway()
    const token = await openSession(t, { methods: ['card', 'walletTR'] })
    const posts: [string, string | Record<string, unknown>][] = [
      [`/auth/${token}/pay`, { card_number: ['4111'], card_exp: { a: 1 } }],
      [`/auth/${token}/pay`, 'card_number=4111111111111111&card_number=1&card_exp[x]=1'],
      [`/auth/${token}/method/nope`, ''],
      [`/auth/${token}/method/card`, ''],
      [`/auth/${token}/method/walletTR`, 'memberId[]=1'],
      [`/acs/${token}`, 'result=pass'],
      ['/hpf/nope/pay', ''],
    ]
    for (const [path, body] of posts) {
      const r = await t.call('POST', path, body)
      expect(r.status, path).toBeLessThan(500)
    }
    expect(t.store.count('payments')).toBe(0)
  })

  it('shows a payout session as nothing to pay (credit pays out to a saved card)', async () => {
    const t = pagesGateway()
    const r = await t.call('GET', `/auth/${await openSession(t, { operation: 'credit' })}`)
    expect(r.raw).toContain('Payout')
  })
})

describe('non-card methods hand over to the simulated APM connector', () => {
  // docs/rules.md#apm-test-brand: "identifier or e-mail `success@gmail.com` succeeds, `fail@gmail.com` declines".
  it('vcard answers at once by the payer e-mail', async () => {
    const t = pagesGateway()
    const ok = await openSession(t, { methods: ['vcard'], customer: { email: 'success@gmail.com' } })
    expect((await t.call('POST', `/auth/${ok}/method/vcard`, '')).headers.location).toMatch(
      /^https:\/\/shop\.test\/success\?/,
    )
    const no = await openSession(t, { methods: ['vcard'], customer: { email: 'fail@gmail.com' } })
    expect((await t.call('POST', `/auth/${no}/method/vcard`, '')).headers.location).toMatch(
      /^https:\/\/shop\.test\/error\?/,
    )
  })

  it('keeps the collected fields with the payment and sends the payer to the method page', async () => {
    const t = pagesGateway()
    const token = await openSession(t, { methods: ['walletTR'] })
    const r = await t.call('POST', `/auth/${token}/method/walletTR`, 'memberId=M-77')
    expect(r.headers.location).toMatch(/^\/apm\/[0-9a-f-]+$/)
    const payment = t.store.get('payments', r.headers.location?.split('/').pop() ?? '') as unknown as {
      status: string
      apm: { parameters: Record<string, string> }
    }
    expect(payment.status).toBe('redirect')
    expect(payment.apm.parameters).toEqual({ memberId: 'M-77' })
    // Back on the hosted page, the payer is sent on to the method page while it waits.
    expect((await t.call('GET', `/auth/${token}`)).headers.location).toBe(r.headers.location)
  })
})

describe('the ACS page for an S2S CARD payment (no session)', () => {
  it("takes the merchant's auto-posted PaReq form, then sends the payer back to term_url_3ds", async () => {
    const t = pagesGateway()
    const sale = await t.call(
      'POST',
      '/post',
      form(
        Object.fromEntries(
          Object.entries(saleForm({ card_exp_month: '05', term_url_3ds: `${SHOP}/3ds-back` })).map(
            ([k, v]) => [k, String(v)],
          ),
        ),
      ),
    )
    const acs = new URL(String(sale.body.redirect_url)).pathname
    const params = sale.body.redirect_params as Record<string, string>
    const posted = await t.call('POST', acs, form(params))
    expect(posted.headers.location).toBe(acs)
    expect((await t.call('GET', acs)).raw).toContain('id="acs-pass"')
    const done = await t.call('POST', acs, 'result=pass')
    expect(done.headers.location).toBe(`${SHOP}/3ds-back`)
    expect(t.store.get('payments', String(sale.body.trans_id))?.status).toBe('settled')
  })
})
