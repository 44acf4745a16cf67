import { describe, expect, it } from 'vitest'
import {
  acceptedLanguage,
  LANGUAGES,
  listedLanguage,
  MESSAGES,
  pageLanguage,
  translator,
} from '../../src/pages/i18n.js'
import { en } from '../../src/pages/locales/en.js'
import { attr, openSession, pagesGateway } from './helpers.js'

const htmlLang = (html: string) => /<html lang="([^"]+)"/.exec(html)?.[1]

// 2.1.3 language: "Case-insensitive; not validated; an unlisted value falls back to English.
// Values: en, sp, ar, az, fr, nb, zh, zh-TW, kk, de, it, hr, cs, hu, pl, pt, ro, ja, nl, bg, ru.
// When omitted: Protocol Mapping default language, then the payer's browser language."
describe('page language rules', () => {
  it('lists exactly the 21 codes of the interface, matched without case', () => {
    expect(LANGUAGES).toHaveLength(21)
    expect(listedLanguage('ZH-tw')).toBe('zh-TW')
    expect(listedLanguage('Sp')).toBe('sp')
    expect(listedLanguage('es')).toBeUndefined()
  })

  it('falls back to English for an unlisted value, whatever the mapping or the browser say', () => {
    expect(pageLanguage({ requested: 'xx', mappingDefault: 'de', acceptLanguage: 'fr' })).toBe('en')
  })

  it('uses the mapping default when omitted, then the browser, then English', () => {
    expect(pageLanguage({ mappingDefault: 'de', acceptLanguage: 'fr' })).toBe('de')
    expect(pageLanguage({ mappingDefault: null, acceptLanguage: 'fr-CH, fr;q=0.9' })).toBe('fr')
    expect(pageLanguage({ acceptLanguage: 'tlh' })).toBe('en')
    expect(pageLanguage({})).toBe('en')
  })

  it('reads browser tags as the listed codes: es is sp, zh-Hant is zh-TW, no is nb, by preference', () => {
    expect(acceptedLanguage('es-MX')).toBe('sp')
    expect(acceptedLanguage('zh-Hant-HK')).toBe('zh-TW')
    expect(acceptedLanguage('zh-CN')).toBe('zh')
    expect(acceptedLanguage('nn-NO')).toBe('nb')
    expect(acceptedLanguage('xx, de;q=0.5, ja;q=0.8')).toBe('ja')
    expect(acceptedLanguage('*')).toBeUndefined()
  })

  it("lets the payer's own choice on the page win (sandbox)", () => {
    expect(pageLanguage({ chosen: 'pl', requested: 'fr' })).toBe('pl')
  })

  it('translates every string in all 21 languages (the locales are typed against the English keys)', () => {
    expect(Object.keys(MESSAGES).sort()).toEqual([...LANGUAGES].sort())
    const keys = Object.keys(en).sort()
    for (const lang of LANGUAGES) {
      expect(Object.keys(MESSAGES[lang]).sort(), lang).toEqual(keys)
      for (const key of keys)
        expect(MESSAGES[lang][key as keyof typeof en].trim(), `${lang}.${key}`).not.toBe('')
      if (lang !== 'en') expect(translator(lang)('cardNumber'), lang).not.toBe(en.cardNumber)
    }
    expect(translator('cs')('cardNumber')).toBe('Číslo karty')
    expect(translator('cs')('acsIntro')).not.toBe(en.acsIntro)
    expect(translator('fr')('pay', { amount: '12,50 €' })).toBe('Payer 12,50 €')
  })

  it('isolates the values put into an Arabic sentence, so an amount or a card number keeps its order', () => {
    expect(translator('ar')('pay', { amount: '25.00 €' })).toBe('ادفع \u206825.00 €\u2069')
    expect(translator('fr')('pay', { amount: '25,00 €' })).not.toContain('\u2068')
  })
})

describe('the hosted page in the payer language', () => {
  it('follows billing_address.language, case-insensitive', async () => {
    const t = pagesGateway()
    const html = (
      await t.call('GET', `/auth/${await openSession(t, { billing_address: { language: 'FR' } })}`)
    ).raw
    expect(htmlLang(html)).toBe('fr')
    expect(html).toContain('Numéro de carte')
    expect(html).toContain('Payer 12,50')
  })

  it('renders every listed language with its own lang attribute (sp as es), right to left for ar', async () => {
    const t = pagesGateway()
    for (const lang of LANGUAGES) {
      const html = (
        await t.call('GET', `/auth/${await openSession(t, { billing_address: { language: lang } })}`)
      ).raw
      expect(htmlLang(html), lang).toBe(lang === 'sp' ? 'es' : lang)
    }
    const ar = (await t.call('GET', `/auth/${await openSession(t, { billing_address: { language: 'ar' } })}`))
      .raw
    expect(ar).toContain('dir="rtl"')
  })

  it('shows English for an unlisted language even when the browser asks for German', async () => {
    const t = pagesGateway()
    const token = await openSession(t, { billing_address: { language: 'klingon' } })
    const html = (await t.call('GET', `/auth/${token}`, undefined, { 'Accept-Language': 'de' })).raw
    expect(htmlLang(html)).toBe('en')
  })

  it('uses the Protocol Mapping default, then the browser language', async () => {
    const mapped = pagesGateway({ protocol_mapping: { default_language: 'it' } })
    const token = await openSession(mapped)
    expect(
      htmlLang((await mapped.call('GET', `/auth/${token}`, undefined, { 'Accept-Language': 'de' })).raw),
    ).toBe('it')
    const plain = pagesGateway()
    const other = await openSession(plain)
    expect(
      htmlLang((await plain.call('GET', `/auth/${other}`, undefined, { 'Accept-Language': 'es-AR' })).raw),
    ).toBe('es')
  })

  it('offers a language picker that keeps the choice through the forms', async () => {
    const t = pagesGateway()
    const token = await openSession(t)
    const html = (await t.call('GET', `/auth/${token}?lang=ja`)).raw
    expect(htmlLang(html)).toBe('ja')
    expect(html).toContain('<input type="hidden" name="lang" value="ja"/>')
    expect(attr(/<select[^>]*id="lang"[^>]*>/.exec(html)?.[0], 'name')).toBe('lang')
    const r = await t.call('POST', `/auth/${token}/pay`, 'lang=ja&card_exp=05%2F30')
    expect(htmlLang(r.raw)).toBe('ja')
  })
})
