import { describe, expect, it } from 'vitest'
import { LANGUAGE_NAMES, LANGUAGES, type Lang, MESSAGES } from '../../src/pages/i18n.js'
import { en, type MessageKey } from '../../src/pages/locales/en.js'
import type { TestGateway } from '../helpers/engine.js'
import { payWith } from './apm-helpers.js'
import { CARD, form, openSession, pagesGateway } from './helpers.js'

// Issue 17, point 2 (2.1.3 `billing_address.language`, the 21 listed values): every page a payer
// meets (checkout, ACS, redirect, status, each simulator group) is complete in every language.
// How: each page is rendered in English and in the language; a text of the English page that the
// other page shows unchanged is an untranslated string, unless it is data (the order, the
// merchant, a brand, a code) or a word the language writes as English does (listed below).

/** Keys a language may write exactly as English does (codes, brands, international words). */
const SAME_AS_ENGLISH = new Set<MessageKey>([
  'expiryPlaceholder',
  'optional',
  'kind_upi',
  'kind_mobile_money',
  'kind_voucher',
  'kind_e_wallet',
  'kind_card',
  'acsCard',
  'channelSms',
  'channelEmail',
  'detailUpiId',
  'detailReference',
  'detailProvider',
  'apmLink',
  'field_bank',
])

/** The page's texts: text nodes, `alt`, `aria-label` and `<title>`, markup and `<code>` left out. */
function texts(html: string): Set<string> {
  const body = html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<code[\s\S]*?<\/code>/g, ' ')
    // Numbers, codes, addresses and links the page isolates left to right are data, not words.
    // The merchant's order number and description are isolated as they are (<bdi>): data too.
    .replace(/<bdi(?: dir="ltr")?>[\s\S]*?<\/bdi>/g, ' ')
  const decode = (s: string) =>
    s
      .replace(/&#x27;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/[\u2066-\u2069\u200e\u200f]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  const found = new Set<string>()
  for (const m of body.matchAll(/>([^<]+)</g)) found.add(decode(m[1] ?? ''))
  for (const m of body.matchAll(/\b(?:alt|aria-label|placeholder)="([^"]*)"/g)) found.add(decode(m[1] ?? ''))
  found.delete('')
  return found
}

/** Data on the pages, the same in every language: the order, the merchant, brands, language names. */
const DATA = new Set<string>([
  'Teapot',
  'paysandbox',
  'Demo merchant',
  'Paysandbox Test Beneficiary',
  'PhonePe',
  'Moov Money',
  'Pix',
  'SEPA',
  'PayCash',
  'Airtel Money',
  'Beeline',
  'Benin',
  'Phone wallet',
  ...Object.values(LANGUAGE_NAMES),
])

interface Rendered {
  name: string
  html: string
}

/** Every page type, rendered in `lang` (the payer's pick, `lang=`, which wins over everything). */
async function pagesIn(t: TestGateway, lang: Lang, fixture: Fixture): Promise<Rendered[]> {
  const q = `?lang=${encodeURIComponent(lang)}`
  const get = async (name: string, path: string, extra = '') => ({
    name,
    html: (await t.call('GET', `${path}${q}${extra}`)).raw,
  })
  const pages = [
    await get('checkout', `/auth/${fixture.checkout}`),
    await get('checkout (method fields)', `/auth/${fixture.checkout}`, '&method=walletTR'),
    await get('ACS', fixture.acs),
    await get('redirect', fixture.redirect),
    await get('not found', '/auth/nope'),
    await get('expired', `/auth/${fixture.expired}`),
    ...(await Promise.all(fixture.simulators.map(([name, path]) => get(`simulator ${name}`, path)))),
  ]
  // Status pages answer a form post: the language rides along in the form.
  const errors = await t.call('POST', `/auth/${fixture.checkout}/pay`, form({ lang, card_exp: '13/99' }))
  pages.push({ name: 'checkout with errors', html: errors.raw })
  const done = await openSession(t, { url_target: '_blank' })
  pages.push({
    name: 'status success',
    html: (await t.call('POST', `/auth/${done}/pay`, form({ ...CARD, lang }))).raw,
  })
  const cancelled = await openSession(t, { cancel_url: undefined })
  pages.push({
    name: 'status cancelled',
    html: (await t.call('POST', `/auth/${cancelled}/cancel`, form({ lang }))).raw,
  })
  return pages
}

interface Fixture {
  checkout: string
  acs: string
  redirect: string
  expired: string
  simulators: [string, string][]
}

async function fixture(t: TestGateway): Promise<Fixture> {
  const checkout = await openSession(t, {
    methods: ['card', 'walletTR', 'pix'],
    billing_address: { country: 'US' },
  })
  const step = async (exp: string) =>
    (await t.call('POST', `/auth/${await openSession(t)}/pay`, form({ ...CARD, card_exp: exp }))).headers
      .location ?? ''
  const expired = await openSession(t, { session_expiry: 1, expiry_url: undefined })
  const groups: [string, string, Record<string, unknown>?][] = [
    ['redirect', 'sepa'],
    ['widget', 'helio'],
    ['mobile app', 'upi-2'],
    ['qr', 'pix', { parameters: { pix: { document_number: '12345678909' } } }],
    ['payment details', 'paycash-mexico'],
    [
      'app confirmation',
      'phone-pe',
      { billing_address: { country: 'IN', state: 'MH', phone: '9876543210', phone_country_code: '91' } },
    ],
    [
      'device confirmation',
      'moov-money',
      { billing_address: { country: 'BJ', phone: '0197123456', phone_country_code: '229' } },
    ],
    [
      'extra fields',
      'beeline',
      {
        billing_address: { phone: '7700900123', phone_country_code: '44' },
        parameters: { beeline: { receiver_phone: '+447700900124' } },
      },
    ],
    ['extra fields (ticket)', 'axxi-cash', { parameters: { 'axxi-cash': { id_document: 'AB123456' } } }],
    ['message link', 'ptn-email', { customer: { email: 'payer@example.com' } }],
    ['crypto address', 'awcc', { parameters: { awcc: { crypto_type: 'BTC', bech32: true } } }],
    ['wallet', 'wallet1'],
    ['no behaviour described', 'airtel'],
  ]
  const simulators: [string, string][] = []
  for (const [name, method, overrides] of groups)
    simulators.push([name, (await payWith(t, method, overrides)).path])
  const acs = await step('05/30')
  const redirect = await step('12/30')
  await t.clock.advance(60_000)
  return { checkout, acs, redirect, expired, simulators }
}

describe('every page in every listed language', () => {
  it('lets a language write a string as English does only for the listed codes and international words', () => {
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      for (const key of Object.keys(en) as MessageKey[]) {
        if (MESSAGES[lang][key] === en[key]) expect(SAME_AS_ENGLISH, `${lang}.${key}`).toContain(key)
      }
    }
  })

  it('shows no untranslated string on the checkout, ACS, redirect, status and simulator pages', async () => {
    const t = pagesGateway()
    const made = await fixture(t)
    const english = await pagesIn(t, 'en', made)
    for (const page of english) expect(page.html, page.name).toMatch(/^<!DOCTYPE html><html lang="en"/)
    const englishTexts = english.map((p) => texts(p.html))
    const leftovers: Record<string, string[]> = {}
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      const allowed = new Set([
        ...DATA,
        ...(Object.keys(en) as MessageKey[]).filter((k) => MESSAGES[lang][k] === en[k]).map((k) => en[k]),
      ])
      const pages = await pagesIn(t, lang, made)
      pages.forEach((page, i) => {
        const html = page.html
        expect(html, `${lang} ${page.name}`).toContain(`lang="${lang === 'sp' ? 'es' : lang}"`)
        const same = [...texts(html)].filter(
          (s) =>
            englishTexts[i]?.has(s) && /[A-Za-z]{3,}/.test(s) && !allowed.has(s.replace(/^\((.*)\)$/, '$1')),
        )
        if (same.length) leftovers[`${lang} ${page.name}`] = same
      })
    }
    expect(leftovers, 'English left on the pages').toEqual({})
  }, 120_000)
})
