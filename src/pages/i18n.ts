import { ar } from './locales/ar.js'
import { az } from './locales/az.js'
import { bg } from './locales/bg.js'
import { cs } from './locales/cs.js'
import { de } from './locales/de.js'
import { en, type MessageKey, type Messages } from './locales/en.js'
import { fr } from './locales/fr.js'
import { hr } from './locales/hr.js'
import { hu } from './locales/hu.js'
import { it } from './locales/it.js'
import { ja } from './locales/ja.js'
import { kk } from './locales/kk.js'
import { nb } from './locales/nb.js'
import { nl } from './locales/nl.js'
import { pl } from './locales/pl.js'
import { pt } from './locales/pt.js'
import { ro } from './locales/ro.js'
import { ru } from './locales/ru.js'
import { sp } from './locales/sp.js'
import { zh } from './locales/zh.js'
import { zhTW } from './locales/zh-TW.js'

export type { MessageKey }

/** 2.1.3 `billing_address.language`: the listed values, spelled as the interface spells them. */
export const LANGUAGES = [
  'en',
  'sp',
  'ar',
  'az',
  'fr',
  'nb',
  'zh',
  'zh-TW',
  'kk',
  'de',
  'it',
  'hr',
  'cs',
  'hu',
  'pl',
  'pt',
  'ro',
  'ja',
  'nl',
  'bg',
  'ru',
] as const
export type Lang = (typeof LANGUAGES)[number]

/**
 * Every listed language has every string: each locale is typed `Messages` (the English keys), so
 * a missing or misspelt key fails the type check.
 */
export const MESSAGES: Record<Lang, Messages> = {
  en,
  sp,
  ar,
  az,
  fr,
  nb,
  zh,
  'zh-TW': zhTW,
  kk,
  de,
  it,
  hr,
  cs,
  hu,
  pl,
  pt,
  ro,
  ja,
  nl,
  bg,
  ru,
}

/** Each language by its own name, for the picker. */
export const LANGUAGE_NAMES: Record<Lang, string> = {
  en: 'English',
  sp: 'Español',
  ar: 'العربية',
  az: 'Azərbaycanca',
  fr: 'Français',
  nb: 'Norsk bokmål',
  zh: '简体中文',
  'zh-TW': '繁體中文',
  kk: 'Қазақша',
  de: 'Deutsch',
  it: 'Italiano',
  hr: 'Hrvatski',
  cs: 'Čeština',
  hu: 'Magyar',
  pl: 'Polski',
  pt: 'Português',
  ro: 'Română',
  ja: '日本語',
  nl: 'Nederlands',
  bg: 'Български',
  ru: 'Русский',
}

const BY_LOWER = new Map<string, Lang>(LANGUAGES.map((l) => [l.toLowerCase(), l]))

/** "Case-insensitive": `FR`, `Fr` and `fr` are French; anything unlisted is undefined. */
export function listedLanguage(value: unknown): Lang | undefined {
  return typeof value === 'string' ? BY_LOWER.get(value.trim().toLowerCase()) : undefined
}

/**
 * A browser language tag (`es-MX`, `zh-Hant-TW`, `no`) as a listed code. Browsers speak BCP 47,
 * where Spanish is `es` (listed as `sp`) and Norwegian may be `no` or `nn` (listed as `nb`).
 */
export function browserLanguage(tag: string): Lang | undefined {
  const lower = tag.trim().toLowerCase()
  const exact = BY_LOWER.get(lower)
  if (exact) return exact
  const [primary = ''] = lower.split('-')
  if (primary === 'zh') return /-(tw|hk|mo|hant)\b/.test(lower) ? 'zh-TW' : 'zh'
  if (primary === 'es') return 'sp'
  if (primary === 'no' || primary === 'nn') return 'nb'
  return BY_LOWER.get(primary)
}

/** `Accept-Language: fr-CH, fr;q=0.9, en;q=0.8`: the first listed language by preference. */
export function acceptedLanguage(header: string | undefined): Lang | undefined {
  if (!header) return undefined
  const ranked = header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1, index }
    })
    .filter((r) => r.tag && r.tag !== '*' && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const r of ranked) {
    const lang = browserLanguage(r.tag)
    if (lang) return lang
  }
  return undefined
}

export interface LanguageInputs {
  /** The payer's own choice on the page (the language picker, `?lang=`). */
  chosen?: unknown
  /** `billing_address.language` of the session. */
  requested?: unknown
  /** Protocol Mapping `default_language`. */
  mappingDefault?: string | null
  acceptLanguage?: string
}

/**
 * 2.1.3: "Case-insensitive; not validated; an unlisted value falls back to English ... When
 * omitted: Protocol Mapping default language, then the payer's browser language." A language
 * the payer picks on the page wins over all of these (sandbox).
 */
export function pageLanguage(inputs: LanguageInputs): Lang {
  const chosen = listedLanguage(inputs.chosen)
  if (chosen) return chosen
  if (typeof inputs.requested === 'string' && inputs.requested.trim() !== '') {
    return listedLanguage(inputs.requested) ?? 'en'
  }
  return listedLanguage(inputs.mappingDefault) ?? acceptedLanguage(inputs.acceptLanguage) ?? 'en'
}

export type Translate = (key: MessageKey, values?: Record<string, string>) => string

/** First-strong isolate … pop directional isolate (Unicode bidi): a value keeps its own direction. */
const FSI = '\u2068'
const PDI = '\u2069'

/**
 * The strings of a language; `{name}` placeholders filled from `values`. In a right-to-left
 * language each value is isolated (FSI … PDI), so an amount, a card number or a Latin brand name
 * inside an Arabic sentence keeps its own order.
 */
export function translator(lang: Lang): Translate {
  const own = MESSAGES[lang]
  const isolate = textDirection(lang) === 'rtl'
  return (key, values = {}) =>
    own[key].replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = values[name]
      if (value === undefined) return whole
      return isolate ? `${FSI}${value}${PDI}` : value
    })
}

/** The HTML `lang` attribute: BCP 47, so `sp` is `es`. */
export const htmlLang = (lang: Lang): string => (lang === 'sp' ? 'es' : lang)

export const textDirection = (lang: Lang): 'rtl' | 'ltr' => (lang === 'ar' ? 'rtl' : 'ltr')
