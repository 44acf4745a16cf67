import { describe, expect, it } from 'vitest'
import { payWith, text } from './apm-helpers.js'
import { checkoutSignatures } from '../../src/core/signatures/index.js'
import { labelText, openSession, PASSWORD, pagesGateway } from './helpers.js'

// Issue 25 item 8: what a payer reads on the hosted and simulator pages.

describe('the method list names every choice differently', () => {
  it('"Card" once, and methods sharing a name (vcard, txn, hayvn) told apart by their identifier', async () => {
    const t = pagesGateway()
    const token = await openSession(t, { methods: ['card', 'vcard', 'txn', 'hayvn', 'pix'] })
    const html = (await t.call('GET', `/auth/${token}`)).raw
    const names = ['card', 'vcard', 'txn', 'hayvn', 'pix'].map((id) =>
      labelText(html, `method-${id}`)?.replace(/\s+/g, ' '),
    )
    expect(names).toEqual([
      'Card',
      'Card (vcard)',
      'Cryptocurrency (txn)',
      'Cryptocurrency (hayvn)',
      'PixInstant payment',
    ])
    expect(new Set(names).size).toBe(names.length)
    expect(html).not.toContain('>Pay by card</span>')
  })
})

describe("right-to-left pages isolate the merchant's order number and description", () => {
  it('in Arabic, a long Latin order number and the description are each in their own <bdi>', async () => {
    const t = pagesGateway()
    const number = `ORDER-${'7'.repeat(30)}-X`
    const order = { number, amount: '12.50', currency: 'EUR', description: 'Blue teapot' }
    const signed = await openSession(t, {
      order,
      billing_address: { language: 'ar' },
      hash: checkoutSignatures.session(order, PASSWORD),
    })
    const html = (await t.call('GET', `/auth/${signed}`)).raw
    expect(html).toContain('dir="rtl"')
    const line = /<p class="order">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? ''
    expect(line).toBe(`الطلب <bdi>${number}</bdi> · <bdi>Blue teapot</bdi>`)
  })
})

describe('simulator pages', () => {
  it('crypto address: the order amount, also where the address has no fixed amount (crypto-btg)', async () => {
    const t = pagesGateway()
    const btg = text((await t.call('GET', (await payWith(t, 'crypto-btg')).path)).raw)
    expect(btg).toContain('Amount €12.50')
    expect(btg).not.toContain('Any amount')
    const awcc = text(
      (await t.call('GET', (await payWith(t, 'awcc', { parameters: { awcc: { crypto_type: 'BTC' } } })).path))
        .raw,
    )
    expect(awcc).toContain('Amount €12.50')
  })

  it.each([
    ['fr', 'Pays Bénin'],
    ['ru', 'Бенин'],
    ['ja', 'ベナン'],
    ['zh-TW', '貝南'],
  ])('device confirmation in %s names the country in that language', async (language, expected) => {
    const t = pagesGateway()
    const { path } = await payWith(t, 'moov-money', {
      billing_address: { language, country: 'BJ', phone: '0197123456', phone_country_code: '229' },
    })
    const page = text((await t.call('GET', path)).raw)
    expect(page).toContain(expected)
    expect(page).not.toContain('Benin')
  })

  it('the country follows the language the payer picks on the page', async () => {
    const t = pagesGateway()
    const { path } = await payWith(t, 'moov-money', {
      billing_address: { language: 'fr', country: 'BJ', phone: '0197123456', phone_country_code: '229' },
    })
    expect(text((await t.call('GET', `${path}?lang=ja`)).raw)).toContain('ベナン')
  })
})
