import { describe, expect, it } from 'vitest'
import type { ApmPayment } from '../../src/core/apm/types.js'
import { attr, tag } from './helpers.js'
import { form, pagesGateway, payWith, text } from './apm-helpers.js'

/**
 * One simulator page per behaviour group of the catalogue (2.2.2 "Behaviour groups"), reached as a
 * payer reaches it: the hosted page, the method, then `/apm/<payment_id>`. docs/rules.md#test-data
 * (sandbox): "Every other method's simulated connector lets the payer (or a scenario) choose the
 * outcome on the simulator page it shows: approve, decline, leave pending, or let it expire."
 */
describe('APM simulator pages, one per behaviour group', () => {
  it('redirect (sepa): the four outcomes, approve lands on the success URL with the redirect parameters', async () => {
    const t = pagesGateway()
    const { path, paymentId } = await payWith(t, 'sepa')
    const page = await t.call('GET', path)
    expect(page.status).toBe(200)
    for (const o of ['approve', 'decline', 'pending', 'expire'])
      expect(tag(page.raw, `apm-${o}`)).toBeDefined()
    expect(attr(tag(page.raw, 'apm-outcome'), 'action')).toBe(`${path}/outcome`)
    const done = await t.call('POST', `${path}/outcome`, form({ outcome: 'approve' }))
    expect(done.status).toBe(303)
    // Events: "success_url ... always receive payment_id, trans_id, order_id, hash".
    const url = new URL(String(done.headers.location))
    expect(url.origin + url.pathname).toBe('https://shop.test/success')
    expect(url.searchParams.get('payment_id')).toBe(paymentId)
    expect(t.store.get('payments', paymentId)?.status).toBe('settled')
    // Left: the page now sends the payer on instead of offering outcomes again.
    expect((await t.call('GET', path)).status).toBe(303)
  })

  it('decline goes to the error URL; expire declines with "Payment expired"', async () => {
    const t = pagesGateway()
    const a = await payWith(t, 'sepa')
    const declined = await t.call('POST', `${a.path}/outcome`, form({ outcome: 'decline' }))
    expect(String(declined.headers.location)).toMatch(/^https:\/\/shop\.test\/error\?/)
    const b = await payWith(t, 'helio')
    expect(text((await t.call('GET', b.path)).raw)).toContain(
      'The Cryptocurrency payment window would open here.',
    )
    await t.call('POST', `${b.path}/outcome`, form({ outcome: 'expire' }))
    expect(t.store.get('payments', b.paymentId)).toMatchObject({
      status: 'decline',
      decline_reason: 'Payment expired',
    })
  })

  it('an outcome that is not one of the four is refused on the page and changes nothing', async () => {
    const t = pagesGateway()
    const { path, paymentId } = await payWith(t, 'sepa')
    const r = await t.call('POST', `${path}/outcome`, form({ outcome: 'refund' }))
    expect(r.status).toBe(422)
    expect(tag(r.raw, 'apm-error')).toBeDefined()
    expect(t.store.get('payments', paymentId)?.status).toBe('redirect')
  })

  it('mobile app (upi-2): the app link a phone opens', async () => {
    const t = pagesGateway()
    const { path } = await payWith(t, 'upi-2')
    expect(attr(tag((await t.call('GET', path)).raw, 'apm-app-link'), 'href')).toMatch(/^upi:\/\/pay\?/)
  })

  it('QR (pix): a real SVG code of the EMVCo payload, and the page polls its state', async () => {
    const t = pagesGateway()
    const { path } = await payWith(t, 'pix', { parameters: { pix: { document_number: '12345678909' } } })
    const html = (await t.call('GET', path)).raw
    const src = attr(tag(html, 'apm-qr') ?? /<img[^>]*id="apm-qr"[^>]*>/.exec(html)?.[0], 'src') ?? ''
    const svg = Buffer.from(src.replace('data:image/svg+xml;base64,', ''), 'base64').toString()
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    expect(svg).toContain('<path')
    // EMVCo: payload format indicator first, the PIX account template, the CRC tag last.
    expect(text(html)).toMatch(/000201010212\S*br\.gov\.bcb\.pix\S*6304[0-9A-F]{4}/)
    expect(html).toContain('/assets/apm.js')
    expect((await t.call('GET', '/assets/apm.js')).raw).toContain('setTimeout(tick, 2000)')
  })

  it('payment details (sofortuber): beneficiary, account and reference', async () => {
    const t = pagesGateway()
    const { path } = await payWith(t, 'sofortuber')
    const shown = text((await t.call('GET', path)).raw)
    expect(shown).toMatch(/Account number \d{16}/)
    expect(shown).toMatch(/Reference PSB\d{11}/)
  })

  it('app confirmation (phone-pe): waits, and moves on by itself once the control API approves', async () => {
    const t = pagesGateway()
    const { path, paymentId } = await payWith(t, 'phone-pe', {
      billing_address: { country: 'IN', state: 'MH', phone: '9876543210', phone_country_code: '91' },
    })
    const html = (await t.call('GET', path)).raw
    expect(text(html)).toContain('Confirm the payment of €12.50 in the PhonePe app.')
    expect(text(html)).toContain('+919876543210')
    expect((await t.call('GET', `${path}/state`)).body).toMatchObject({ status: 'redirect', waiting: true })
    await t.call('POST', `/sandbox/payments/${paymentId}/apm`, { outcome: 'approve' })
    expect((await t.call('GET', `${path}/state`)).body).toMatchObject({ status: 'settled', waiting: false })
    // The script's reload: the page now sends the payer to the shop.
    expect(String((await t.call('GET', path)).headers.location)).toMatch(/^https:\/\/shop\.test\/success\?/)
  })

  it('device confirmation (moov-money): Benin numbers; togocom: Togo numbers', async () => {
    const t = pagesGateway()
    const benin = await payWith(t, 'moov-money', {
      billing_address: { country: 'BJ', phone: '0197123456', phone_country_code: '229' },
    })
    const bj = text((await t.call('GET', benin.path)).raw)
    expect(bj).toContain('+2290197123456')
    expect(bj).toContain('Country Benin')
    // The payer's number is shown; the number form only when the merchant sent none.
    expect(bj).not.toContain('Number format')
    const togo = await payWith(t, 'togocom')
    expect(text((await t.call('GET', togo.path)).raw)).toContain('Number format +228 90 12 34 56')
    // A number that does not fit the plan is still the payer's phone: shown as sent.
    const other = await payWith(t, 'mtn-mobile-money', {
      billing_address: { country: 'BJ', phone: '5550123', phone_country_code: '44' },
    })
    expect(text((await t.call('GET', other.path)).raw)).toContain('Phone +44 5550123')
  })

  it('message link (ptn-email): the message is in GET /sandbox/messages and its link opens the page', async () => {
    const t = pagesGateway()
    const { path, paymentId } = await payWith(t, 'ptn-email', { customer: { email: 'payer@example.com' } })
    const { messages } = (await t.call('GET', `/sandbox/messages?payment_id=${paymentId}`))
      .body as unknown as {
      messages: { kind: string; channel: string; to: string; link: string }[]
    }
    expect(messages).toHaveLength(1)
    expect(messages[0]).toMatchObject({ kind: 'payment_link', channel: 'email', to: 'payer@example.com' })
    expect(new URL(messages[0]?.link ?? '').pathname).toBe(path)
    expect(text((await t.call('GET', path)).raw)).toContain('payer@example.com')
    const sms = await payWith(t, 'ptn-sms')
    const all = (await t.call('GET', '/sandbox/messages')).body as unknown as {
      messages: { channel: string; payment_id: string }[]
    }
    expect(all.messages.find((m) => m.payment_id === sms.paymentId)?.channel).toBe('sms')
  })

  it('crypto (awcc): the address in the form crypto_type, network_type and bech32 ask for', async () => {
    const t = pagesGateway()
    const addressOf = async (parameters: Record<string, unknown>, method = 'awcc') => {
      const { path } = await payWith(t, method, { parameters: { [method]: parameters } })
      return /id="apm-address"[^>]*>([^<]+)</.exec((await t.call('GET', path)).raw)?.[1]
    }
    expect(await addressOf({ crypto_type: 'BTC', bech32: true })).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/)
    expect(await addressOf({ crypto_type: 'BTC' })).toMatch(/^1[1-9A-HJ-NP-Za-km-z]{25,34}$/)
    expect(await addressOf({ crypto_type: 'BCH', bech32: true })).toMatch(/^bitcoincash:q/)
    expect(await addressOf({ crypto_type: 'USDT', network_type: 'tron' })).toMatch(/^T/)
    expect(await addressOf({ crypto_type: 'USDT' })).toMatch(/^0x[0-9a-f]{40}$/)
    const btg = await payWith(t, 'crypto-btg')
    // crypto-btg: "no fixed amount"; the order still is €12.50, which the page says.
    const btgText = text((await t.call('GET', btg.path)).raw)
    expect(btgText).toContain('Amount €12.50')
    expect(btgText).toContain('This address has no fixed amount: send the equivalent of €12.50.')
  })

  it('GET /apm/:id/state of an unknown payment answers the catalogue row, never a page or a 500', async () => {
    const t = pagesGateway()
    const r = await t.call('GET', '/apm/nope/state')
    expect(r.status).toBe(404)
    expect((await t.call('GET', '/apm/nope')).status).toBe(404)
    const p = (await payWith(t, 'sepa')).paymentId
    expect((t.store.get('payments', p) as ApmPayment).apm.group).toBe('redirect')
  })

  // Issue 17: each group's page shows what the method asks of the payer, and nothing that does not apply.
  it('app confirmation without a phone (pyk-pix) shows no phone rows; the amount is formatted for the language', async () => {
    const t = pagesGateway()
    const { path } = await payWith(t, 'pyk-pix', { billing_address: { language: 'fr' } })
    const shown = text((await t.call('GET', path)).raw)
    expect(shown).toContain('Confirmez le paiement de 12,50 € dans l’application Pix.')
    expect(shown).not.toContain('Format du numéro')
    expect(shown).not.toContain('12.50 EUR')
    expect((await t.call('GET', path)).raw).not.toContain('id="apm-phone"')
  })

  it('payment details and the QR payload are worded in the payer language, with the amount as the header shows it', async () => {
    const t = pagesGateway()
    const details = await payWith(t, 'paycash-mexico', { billing_address: { language: 'de' } })
    const shown = text((await t.call('GET', details.path)).raw)
    expect(shown).toContain('Zahlen Sie 12,50 € mit diesen Angaben.')
    expect(shown).toMatch(
      /Empfänger Paysandbox Test Beneficiary Anbieter PayCash Kontonummer \d{16} Referenz PSB\d{11} Betrag 12,50 €/,
    )
    const qr = await payWith(t, 'pix', {
      billing_address: { language: 'ja' },
      parameters: { pix: { document_number: '12345678909' } },
    })
    const qrText = text((await t.call('GET', qr.path)).raw)
    expect(qrText).toContain('Pix アプリでコードを読み取り、€12.50 を支払ってください。')
    expect(qrText).toMatch(/000201010212\S*br\.gov\.bcb\.pix/)
  })
})
