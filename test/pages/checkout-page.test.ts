import { describe, expect, it } from 'vitest'
import { attr, controlIds, labelText, openSession, pagesGateway, tag } from './helpers.js'

const page = async (t: ReturnType<typeof pagesGateway>, token: string, query = '') =>
  (await t.call('GET', `/auth/${token}${query}`)).raw

describe('hosted page /auth/<token>: what it asks for', () => {
  it('labels every control, ties hints and errors to it, and offers the session methods', async () => {
    const t = pagesGateway()
    const token = await openSession(t, { methods: ['card', 'walletTR'], billing_address: { country: 'US' } })
    const r = await t.call('GET', `/auth/${token}`)
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8')
    for (const id of controlIds(r.raw)) expect(labelText(r.raw, id), `label for ${id}`).toBeTruthy()
    expect(attr(tag(r.raw, 'card_number'), 'autocomplete')).toBe('cc-number')
    expect(attr(tag(r.raw, 'card_number'), 'aria-describedby')).toBe('card_number-hint card_number-error')
    // The error summary is a live region from the start, so a later error is announced.
    expect(attr(tag(r.raw, 'error-summary'), 'role')).toBe('alert')
    // The method choice is a real radio group: native radios in a GET form to the page itself.
    expect(attr(tag(r.raw, 'method-card'), 'type')).toBe('radio')
    expect(attr(tag(r.raw, 'method-card'), 'checked')).toBe('')
    expect(attr(tag(r.raw, 'method-walletTR'), 'name')).toBe('method')
    expect(attr(tag(r.raw, 'method-choice'), 'action')).toBe(`/auth/${token}`)
    expect(labelText(r.raw, 'method-walletTR')).toBe('E-wallet')
  })

  // session-request schema: "`methods` may be omitted (the hosted page then offers every method enabled for the merchant)".
  it('offers the methods the MIDs list when the session names none; a MID listing none gives the card form', async () => {
    const listed = pagesGateway({}, { methods: ['card', 'walletTR'] })
    const html = await page(listed, await openSession(listed, { methods: undefined }))
    expect(html).toContain('data-method="walletTR"')
    const open = pagesGateway()
    const plain = await page(open, await openSession(open, { methods: undefined }))
    expect(plain).not.toContain('data-method=')
    expect(tag(plain, 'card_number')).toBeDefined()
  })

  // 2.1.3 state: "Collected from the payer only when country is CA, US, JP, AU or IN; for other
  // countries the field is hidden and not validated."
  it.each(['US', 'CA', 'JP', 'AU', 'IN'])(
    'asks for the state when the billing country is %s',
    async (country) => {
      const t = pagesGateway()
      const token = await openSession(t, { billing_address: { country } })
      expect(tag(await page(t, token), 'billing_state')).toContain('required')
    },
  )

  it.each([['FR'], ['GB'], ['BR']])('hides the state field for %s', async (country) => {
    const t = pagesGateway()
    expect(
      tag(await page(t, await openSession(t, { billing_address: { country } })), 'billing_state'),
    ).toBeUndefined()
  })

  it('does not ask again for a state the merchant sent, nor for a country it did not send', async () => {
    const t = pagesGateway()
    const sent = await openSession(t, { billing_address: { country: 'US', state: 'OR' } })
    expect(tag(await page(t, sent), 'billing_state')).toBeUndefined()
    expect(tag(await page(t, await openSession(t)), 'billing_state')).toBeUndefined()
  })

  // 2.1.3 phone_country_code: "When omitted, the hosted page collects it in a separate field next to the phone."
  it('collects the phone country code next to the phone when omitted', async () => {
    const t = pagesGateway()
    const html = await page(t, await openSession(t, { billing_address: { phone: '5035550123' } }))
    expect(tag(html, 'phone_country_code')).toContain('required')
    expect(attr(tag(html, 'phone'), 'value')).toBe('5035550123')
    const given = await page(t, await openSession(t, { billing_address: { phone_country_code: '1' } }))
    expect(tag(given, 'phone_country_code')).toBeUndefined()
  })

  it('makes the security code optional on a MOTO session (2.5: "the card security code is optional")', async () => {
    const t = pagesGateway({}, { moto: true })
    const html = await page(t, await openSession(t, { moto_type: 'phone_moto' }))
    expect(tag(html, 'card_cvv2')).not.toContain('required')
    expect(tag(await page(t, await openSession(t)), 'card_cvv2')).toContain('required')
  })
})

describe('Terms & Conditions checkbox (Events)', () => {
  const withTerms = (url?: string) =>
    pagesGateway({ protocol_mapping: { terms_and_conditions: { enabled: true, ...(url ? { url } : {}) } } })

  // "not ticked by default; the pay button stays inactive until ticked; link to the merchant's own
  // terms URL when set, otherwise the platform's general terms"
  it('shows an unticked, required box linking to the merchant terms, and marks the pay button', async () => {
    const t = withTerms('https://shop.test/terms')
    const html = await page(t, await openSession(t))
    const box = tag(html, 'terms') ?? ''
    expect(box).toContain('type="checkbox"')
    expect(box).not.toContain('checked')
    expect(box).toContain('required')
    expect(html).toContain('href="https://shop.test/terms"')
    expect(tag(html, 'pay-button')).toContain('data-requires-terms')
  })

  it('links to the general terms without a merchant URL, and serves them', async () => {
    const t = withTerms()
    expect(await page(t, await openSession(t))).toContain('href="/terms"')
    const terms = await t.call('GET', '/terms')
    expect(terms.status).toBe(200)
    expect(terms.raw).toContain('General Terms &amp; Conditions')
  })

  it('is absent when the mapping leaves it off (the default)', async () => {
    const t = pagesGateway()
    const html = await page(t, await openSession(t))
    expect(tag(html, 'terms')).toBeUndefined()
    expect(tag(html, 'pay-button')).not.toContain('data-requires-terms')
  })

  // "It is not shown for one-click wallet buttons, crypto, ... and methods with their own form."
  it.each(['wallet1', 'awcc', 'crypto-btg', 'helio'])('is not shown for %s', async (method) => {
    const t = withTerms()
    const token = await openSession(t, {
      methods: ['card', method],
      ...(method === 'awcc' ? { parameters: { awcc: { crypto_type: 'BTC' } } } : {}),
    })
    expect(tag(await page(t, token, `?method=${method}`), 'terms')).toBeUndefined()
    expect(tag(await page(t, token, '?method=card'), 'terms')).toBeDefined()
  })

  it('refuses an unticked form on the server too, creating no payment', async () => {
    const t = withTerms()
    const token = await openSession(t)
    const r = await t.call(
      'POST',
      `/auth/${token}/pay`,
      'card_number=4111111111111111&card_exp=01%2F30&card_cvv2=123',
    )
    expect(r.status).toBe(422)
    expect(r.raw).toContain('Accept the Terms &amp; Conditions to continue.')
    expect(tag(r.raw, 'terms')).toContain('aria-invalid="true"')
    expect(t.store.count('payments')).toBe(0)
  })
})

describe('extra fields of non-card methods (2.2.2 "collected on the page when absent")', () => {
  it('asks walletTR for memberId, unless the merchant sent it', async () => {
    const t = pagesGateway()
    const asked = await page(t, await openSession(t, { methods: ['walletTR'] }))
    expect(labelText(asked, 'f-memberId')).toBe('Member ID')
    const sent = await page(
      t,
      await openSession(t, { methods: ['walletTR'], parameters: { walletTR: { memberId: 'M-1' } } }),
    )
    expect(tag(sent, 'f-memberId')).toBeUndefined()
  })

  it('asks a phone in international format (om-wallet), a voucher PIN (axxi-pin), a UPI address (vpayapp_upi)', async () => {
    const t = pagesGateway()
    const token = await openSession(t, { methods: ['om-wallet', 'axxi-pin', 'vpayapp_upi'] })
    expect(attr(tag(await page(t, token), 'f-billing_address-phone'), 'pattern')).toBe('\\+?[0-9]{6,15}')
    expect(labelText(await page(t, token, '?method=axxi-pin'), 'f-voucher_pin')).toBe('Voucher PIN')
    expect(labelText(await page(t, token, '?method=vpayapp_upi'), 'f-upi_address')).toBe('UPI address')
  })

  // procB: "not required for Guatemala, Panama, Costa Rica"
  it('makes procB documents optional in Guatemala only', async () => {
    const t = pagesGateway()
    const gt = await page(t, await openSession(t, { methods: ['procB'], billing_address: { country: 'GT' } }))
    expect(tag(gt, 'f-document_number')).not.toContain('required')
    const mx = await page(t, await openSession(t, { methods: ['procB'], billing_address: { country: 'MX' } }))
    expect(tag(mx, 'f-document_number')).toContain('required')
  })

  it('refuses a missing required field with an announced error and changes nothing', async () => {
    const t = pagesGateway()
    const token = await openSession(t, { methods: ['walletTR'] })
    const before = JSON.stringify(t.store.findBy('sessions', 'page_token', token)[0])
    const r = await t.call('POST', `/auth/${token}/method/walletTR`, '')
    expect(r.status).toBe(422)
    expect(r.raw).toContain('Member ID: Fill in this field.')
    expect(tag(r.raw, 'f-memberId')).toContain('aria-invalid="true"')
    expect(JSON.stringify(t.store.findBy('sessions', 'page_token', token)[0])).toBe(before)
  })
})
