import qs from 'qs'
import { describe, expect, it } from 'vitest'
import { beelineOtp } from '../../src/core/apm/messages.js'
import { saleForm } from '../s2s-apm/helpers.js'
import { attr, tag } from './helpers.js'
import { form, pagesGateway, payWith, text } from './apm-helpers.js'

/** 2.2.2 "Extra fields on the hosted page" group: the methods whose page does more than ask. */
describe('extra page fields on the simulator page', () => {
  it('axxi-cash: "the payer then gets a PDF ticket", a valid PDF with the order on it', async () => {
    const t = pagesGateway()
    const { path } = await payWith(t, 'axxi-cash', {
      parameters: { 'axxi-cash': { id_document: 'AB123456' } },
    })
    const href = attr(tag((await t.call('GET', path)).raw, 'apm-ticket'), 'href')
    expect(href).toBe(`${path}/ticket.pdf`)
    const pdf = await t.call('GET', href ?? '')
    expect(pdf.headers['content-type']).toBe('application/pdf')
    expect(pdf.raw.startsWith('%PDF-1.4\n')).toBe(true)
    expect(pdf.raw.trimEnd().endsWith('%%EOF')).toBe(true)
    expect(pdf.raw).toContain('(Order: order-7) Tj')
    expect(pdf.raw).toContain('ID document: AB123456')
    // The cross-reference table points at each object exactly.
    const xref = Number(/startxref\n(\d+)/.exec(pdf.raw)?.[1])
    expect(pdf.raw.slice(xref, xref + 4)).toBe('xref')
    const offsets = [...pdf.raw.matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]))
    expect(offsets.map((o) => pdf.raw.slice(o, o + 7))).toEqual([
      '1 0 obj',
      '2 0 obj',
      '3 0 obj',
      '4 0 obj',
      '5 0 obj',
    ])
    // Another method has no ticket.
    const sepa = await payWith(t, 'sepa')
    expect((await t.call('GET', `${sepa.path}/ticket.pdf`)).status).toBe(404)
  })

  it('one-collection: "details shown after Pay"', async () => {
    const t = pagesGateway()
    const bank = {
      bank_name: 'Banco Sandbox',
      bank_code: '001',
      branch_name: 'Centro',
      branch_code: '0420',
      account_number: '12345678',
    }
    const { path } = await payWith(t, 'one-collection', {}, form(bank))
    const shown = text((await t.call('GET', path)).raw)
    expect(shown).toContain('Bank name Banco Sandbox')
    expect(shown).toContain('Account number 12345678')
    expect(shown).toMatch(/Reference [0-9A-F]{16}/)
  })

  it('fairpay: the personal identification number is required for Brazil (S2S payer without it)', async () => {
    const t = pagesGateway()
    const sale = await t.call(
      'POST',
      '/post-va',
      qs.stringify(saleForm({ brand: 'fairpay', payer_country: 'BR' })),
    )
    const path = new URL(String(sale.body.redirect_url)).pathname
    const input = /<input[^>]*id="apm-field-personal_identification_number"[^>]*>/.exec(
      (await t.call('GET', path)).raw,
    )?.[0]
    expect(input).toContain('required=""')
    const refused = await t.call('POST', `${path}/outcome`, form({ outcome: 'approve' }))
    expect(refused.status).toBe(422)
    expect(text(refused.raw)).toContain('Personal identification number: Fill in this field.')
    const id = String(sale.body.trans_id)
    expect(t.store.get('payments', id)?.status).toBe('redirect')
    await t.call(
      'POST',
      `${path}/outcome`,
      form({ outcome: 'approve', 'field[personal_identification_number]': '12345678909' }),
    )
    const paid = t.store.get('payments', id)
    expect(paid?.status).toBe('settled')
    expect(paid?.apm?.parameters?.personal_identification_number).toBe('12345678909')
  })

  it('beeline: the OTP is sent (logged in /sandbox/messages) and the page asks for it', async () => {
    const t = pagesGateway()
    const { path, paymentId } = await payWith(
      t,
      'beeline',
      { billing_address: { country: 'GB', phone: '7700900123', phone_country_code: '44' } },
      form({ receiver_phone: '', otp: '0' }),
    )
    const { messages } = (await t.call('GET', `/sandbox/messages?payment_id=${paymentId}`))
      .body as unknown as {
      messages: { kind: string; to: string; text: string }[]
    }
    expect(messages[0]).toMatchObject({ kind: 'otp', to: '+44 7700900123' })
    expect(messages[0]?.text).toContain(beelineOtp(paymentId))
    const html = (await t.call('GET', path)).raw
    expect(text(html)).toContain('A one-time code was sent by SMS to +44 7700900123')
    const wrong = await t.call(
      'POST',
      `${path}/outcome`,
      form({ outcome: 'approve', otp_code: '000000' === beelineOtp(paymentId) ? '111111' : '000000' }),
    )
    expect(wrong.status).toBe(422)
    expect(t.store.get('payments', paymentId)?.status).toBe('redirect')
    const ok = await t.call(
      'POST',
      `${path}/outcome`,
      form({ outcome: 'approve', otp_code: beelineOtp(paymentId) }),
    )
    expect(String(ok.headers.location)).toMatch(/^https:\/\/shop\.test\/success\?/)
  })

  // Issue 17: the extra-fields page shows the fields the method needs and those the payer already gave.
  it('walletTR: the member ID entered on the hosted page is shown back; nothing more is asked', async () => {
    const t = pagesGateway()
    const { path } = await payWith(t, 'walletTR', {}, form({ memberId: 'M-778899' }))
    const html = (await t.call('GET', path)).raw
    const shown = text(html)
    expect(shown).toContain('Nothing more is needed: approve the payment.')
    expect(shown).toContain('The details you gave Member ID M-778899')
    expect(html).not.toContain('name="field[memberId]"')
  })

  it('walletTR without the member ID (S2S) asks for it on the simulator page and keeps it once approved', async () => {
    const t = pagesGateway()
    const sale = await t.call('POST', '/post-va', qs.stringify(saleForm({ brand: 'walletTR' })))
    const path = new URL(String(sale.body.redirect_url)).pathname
    const html = (await t.call('GET', path)).raw
    expect(text(html)).toContain('E-wallet needs these details to take the payment.')
    expect(html).toContain('name="field[memberId]"')
    const ok = await t.call(
      'POST',
      `${path}/outcome`,
      qs.stringify({ outcome: 'approve', field: { memberId: 'M-1' } }),
    )
    expect(ok.status).not.toBe(422)
    const payment = t.store.get('payments', String(sale.body.trans_id)) as {
      apm: { parameters?: Record<string, unknown> }
    }
    expect(payment.apm.parameters).toMatchObject({ memberId: 'M-1' })
  })
})
