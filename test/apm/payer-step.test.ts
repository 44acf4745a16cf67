import { describe, expect, it } from 'vitest'
import { crc16 } from '../../src/core/apm/emv-qr.js'
import { type PayerStep, payerStepOf } from '../../src/core/apm/payer-step.js'
import { payoutForm, sale, setup } from '../s2s-apm/helpers.js'

/** The simulator page's data for a fresh SALE (or DEBIT2VIRTUAL) of `brand`. */
async function stepFor(brand: string, extra: Record<string, unknown> = {}, form?: typeof payoutForm) {
  const t = setup()
  const r = await sale(t, { brand, identifier: 'payer-account-1', ...extra }, form)
  expect(r.result, brand).toBe('REDIRECT')
  return payerStepOf(t.gateway.ctx, r.trans_id)
}

const view = <K extends PayerStep['view']['kind']>(step: PayerStep, kind: K) => {
  expect(step.view.kind).toBe(kind)
  return step.view as Extract<PayerStep['view'], { kind: K }>
}

// 2.2.2 Behaviour groups: one method of each, as the catalogue (schemas/catalogue/methods.json) groups it.
describe('payerStep: what each behaviour group shows', () => {
  it('common part: order, method, group, return_url, language, allowed outcomes', async () => {
    const step = await stepFor('sepa', { payer_language: 'de' })
    expect(step).toMatchObject({
      method: 'sepa',
      method_title: 'SEPA',
      group: 'redirect',
      status: 'redirect',
      order_id: 'APM-2001',
      description: 'Gift card',
      amount: '15.00',
      currency: 'USD',
      language: 'de',
      return_url: 'https://merchant.example.com/return',
      outcomes: ['approve', 'decline', 'pending', 'expire'],
      collect: [],
    })
    expect(view(step, 'redirect').message).toContain('SEPA')
  })

  it('"Redirect to a widget page" (helio), "Device wallet" (wallet1), no behaviour described (ppro-ideal)', async () => {
    view(await stepFor('helio'), 'widget')
    view(await stepFor('wallet1'), 'wallet')
    const none = await stepFor('ppro-ideal')
    expect(none.group).toBe('none_described')
    view(none, 'redirect')
  })

  it('"Redirect to a mobile app" (upi-2): a UPI intent link with amount and currency', async () => {
    const link = view(await stepFor('upi-2', { order_currency: 'INR' }), 'mobile_app').app_link
    expect(link).toMatch(/^upi:\/\/pay\?pa=paysandbox@upi&pn=PAYSANDBOX&tr=[0-9a-f]{20}&am=15\.00&cu=INR$/)
  })

  it('"QR code shown" (pix): an EMV payload with the PIX key template and a valid CRC; the document field', async () => {
    const step = await stepFor('pix', { order_currency: 'BRL' })
    const payload = view(step, 'qr').qr_payload
    expect(payload.startsWith('000201010212')).toBe(true)
    expect(payload).toContain('0014br.gov.bcb.pix')
    expect(payload).toContain('5303986') // BRL
    expect(payload).toContain('540515.00')
    expect(payload.slice(-8, -4)).toBe('6304')
    expect(payload.slice(-4)).toBe(crc16(payload.slice(0, -4)))
    // 2.2.2: pix "a document-number field is also shown"; not when the merchant sent it.
    expect(step.collect).toEqual([{ name: 'document_number', label: 'Document number', required: true }])
    expect((await stepFor('pix', { parameters: { document_number: '123' } })).collect).toEqual([])
  })

  it('"Payment details shown to the payer" (hayvn): beneficiary, account, reference, amount; the crypto choice first', async () => {
    const step = await stepFor('hayvn')
    const details = view(step, 'payment_details').details
    expect(details.map((d) => d.label)).toEqual([
      'Beneficiary',
      'Provider',
      'Account number',
      'Reference',
      'Amount',
    ])
    expect(details.find((d) => d.label === 'Reference')?.value).toMatch(/^PSB[0-9]{11}$/)
    expect(details.find((d) => d.label === 'Amount')?.value).toBe('15.00 USD')
    expect(step.collect.map((f) => f.name)).toEqual(['crypto currency choice'])
  })

  it('"Confirmation in a mobile app" (pyk-pix): a prompt and the Brazilian phone form', async () => {
    const step = await stepFor('pyk-pix', { payer_phone: '(11) 91234-5678' })
    const confirmation = view(step, 'app_confirmation')
    expect(confirmation.prompt).toContain('15.00 USD')
    expect(confirmation.phone).toEqual({
      format: {
        country: 'BR',
        calling_code: '+55',
        pattern: '^\\+55[1-9]{2}9[0-9]{8}$',
        example: '+55 11 91234 5678',
      },
      value: '+5511912345678',
    })
  })

  // 2.2.2: "moov-money and mtn-mobile-money (Benin numbers), moov-togo and togocom (Togo numbers)".
  it('"Mobile-device confirmation": Benin numbers for moov-money, Togo numbers for togocom', async () => {
    const benin = view(await stepFor('moov-money', { payer_phone: '01 97 12 34 56' }), 'device_confirmation')
    expect(benin.phone.format).toMatchObject({
      country: 'BJ',
      calling_code: '+229',
      example: '+229 01 97 12 34 56',
    })
    expect(benin.phone.value).toBe('+2290197123456')
    expect(new RegExp(benin.phone.format.pattern).test('+2290197123456')).toBe(true)
    expect(new RegExp(benin.phone.format.pattern).test('+22997123456')).toBe(false) // the pre-2024 eight digits
    const togo = view(await stepFor('togocom', { payer_phone: '+229 01 97 12 34 56' }), 'device_confirmation')
    expect(togo.phone.format.country).toBe('TG')
    // A Benin number does not fit Togo's plan: the page asks for one.
    expect(togo.phone.value).toBeUndefined()
  })

  // Other method notes: kora-type "the response carries `auth_method` (value `STK_PROMPT`) and `message`".
  it('kora mobile money: STK_PROMPT, and the payer country when the method names none', async () => {
    const kora = view(await stepFor('kora-mobile-money', { payer_country: 'KE' }), 'device_confirmation')
    expect(kora.auth_method).toBe('STK_PROMPT')
    expect(kora.phone.format.calling_code).toBe('+254')
  })

  it('"Extra fields on the hosted page": what is not sent yet, optional where the interface says so', async () => {
    const dl = await stepFor('dl')
    expect(dl.collect).toEqual([{ name: 'document_number', label: 'Document number', required: true }])
    expect((await stepFor('dl', { parameters: { document_number: 'X1' } })).collect).toEqual([])
    // 2.2.2 beeline: "payer phone and optional receiver phone; OTP sent to payer".
    const beeline = await stepFor('beeline', { payer_phone: '+447700900123' })
    // The one-time code is asked on the simulator page once it has been sent (test/pages/apm-extras.test.ts).
    expect(beeline.collect).toEqual([{ name: 'receiver_phone', label: 'Receiver phone', required: false }])
    expect(view(beeline, 'extra_page_fields').phone?.format).toBeDefined()
  })

  it('"Message with payment link": SMS to the payer phone, e-mail to the payer e-mail; never the answer', async () => {
    const sms = view(
      await stepFor('ptn-sms', { payer_country: 'GB', payer_phone: '07700 900123' }),
      'message_link',
    )
    expect(sms).toMatchObject({ channel: 'sms', recipient: '+447700900123' })
    expect(sms.link).toMatch(/^http:\/\/sandbox\.test\/apm\//)
    const parameters = { SecurityQuestion: 'First pet?', SecurityQuestionAnswer: 'Rex123' }
    const email = await stepFor('ptn-email', { payer_email: 'jane@example.com', parameters })
    expect(view(email, 'message_link')).toMatchObject({
      channel: 'email',
      recipient: 'jane@example.com',
      security_question: 'First pet?',
    })
    expect(JSON.stringify(email)).not.toContain('Rex123')
  })
})

// 2.2.2 awcc: "network_type ... for USDT: `eth` (default) or `tron`"; "bech32 ... true returns a segwit-style
// address for BTC or a cash address for BCH"; crypto-btg: "generates and displays a crypto wallet address, no fixed amount".
describe('payerStep: crypto addresses', () => {
  const address = async (parameters: Record<string, unknown>, brand = 'awcc') =>
    view(await stepFor(brand, { parameters }), 'crypto_address')

  it.each([
    [{ crypto_type: 'BTC' }, 'bitcoin', 'base58check', /^1[1-9A-HJ-NP-Za-km-z]{25,34}$/],
    [{ crypto_type: 'BTC', bech32: 'true' }, 'bitcoin', 'bech32', /^bc1q[02-9ac-hj-np-z]{38}$/],
    [{ crypto_type: 'BCH', bech32: '1' }, 'bitcoin-cash', 'cashaddr', /^bitcoincash:q[02-9ac-hj-np-z]{41}$/],
    [{ crypto_type: 'BCH' }, 'bitcoin-cash', 'base58check', /^1/],
    [{ crypto_type: 'USDT' }, 'ethereum', 'hex', /^0x[0-9a-f]{40}$/],
    [{ crypto_type: 'USDT', network_type: 'tron' }, 'tron', 'base58check', /^T[1-9A-HJ-NP-Za-km-z]{33}$/],
    [{ crypto_type: 'ltc', bech32: true }, 'litecoin', 'bech32', /^ltc1q/],
  ])('%j gives a %s %s address', async (parameters, network, format, shape) => {
    const found = await address(parameters)
    expect(found).toMatchObject({ network, format, amount: '15.00', currency: 'USD' })
    expect(found.address).toMatch(shape)
  })

  it('crypto-btg shows an address with no fixed amount', async () => {
    const found = await address({}, 'crypto-btg')
    expect(found).toMatchObject({ crypto_type: 'BTC', amount: null, currency: null })
  })

  it('is the same address for the same payment, another for another', async () => {
    const t = setup()
    const one = await sale(t, { brand: 'crypto-btg', identifier: 'x' })
    const two = await sale(t, { brand: 'crypto-btg', identifier: 'x', order_id: 'other' })
    const of = (id: string) => view(payerStepOf(t.gateway.ctx, id), 'crypto_address').address
    expect(of(one.trans_id)).toBe(of(one.trans_id))
    expect(of(one.trans_id)).not.toBe(of(two.trans_id))
  })
})

describe('payerStep of a payout', () => {
  // docs/rules.md#s2s-apm-actions: CREDIT2VIRTUAL is the payout (DEBIT2VIRTUAL is now a debit from the payer).
  it('works for CREDIT2VIRTUAL to a payout method (smlpz-out-india: no behaviour described)', async () => {
    const t = setup()
    const params = { paymentMethod: 'IMPS', cashAccount: '1', ifscCode: 'HDFC0000001' }
    const r = await sale(
      t,
      { brand: 'smlpz-out-india', identifier: 'payer-account-1', parameters: params },
      payoutForm,
    )
    // (sandbox) A payout waits on its simulator page without sending anyone there: UNDEFINED / PENDING.
    expect(r).toMatchObject({ result: 'UNDEFINED', status: 'PENDING' })
    expect(r.redirect_url).toBeUndefined()
    expect(payerStepOf(t.gateway.ctx, r.trans_id)).toMatchObject({
      group: 'none_described',
      outcomes: ['approve', 'decline', 'pending', 'expire'],
    })
  })
})
