import type { ReactNode } from 'react'
import { LANGUAGE_NAMES, LANGUAGES, type Lang, type Translate } from './i18n.js'

export interface LanguagePickerProps {
  lang: Lang
  t: Translate
  /** The page's own address (the picker reloads it with `?lang=`). */
  action: string
  /** Query values to keep (the selected method). */
  keep?: Record<string, string | undefined>
}

/** The visual frame of every page: the sandbox ribbon, the centred card(s), the footer. */
export function Shell({
  t,
  children,
  picker,
  wide,
}: {
  t: Translate
  children: ReactNode
  picker?: LanguagePickerProps
  /** A developer page (the Hosted Payment Fields demo) with code to read. */
  wide?: boolean
}) {
  return (
    <>
      <header className="banner">{t('sandboxBanner')}</header>
      <main className={wide ? 'wrap wrap-wide' : 'wrap'}>
        {children}
        <footer>
          <span>paysandbox</span>
          {picker ? <LanguagePicker {...picker} /> : null}
        </footer>
      </main>
    </>
  )
}

/**
 * A plain GET form: choosing a language and pressing the button reloads the page in it. It does
 * not switch on selection alone, so keyboard users can move through the list freely.
 */
export function LanguagePicker({ lang, t, action, keep = {} }: LanguagePickerProps) {
  return (
    <form method="get" action={action} className="lang-picker">
      {Object.entries(keep).map(([k, v]) => (v ? <input key={k} type="hidden" name={k} value={v} /> : null))}
      <label htmlFor="lang">{t('language')}</label>
      <select id="lang" name="lang" defaultValue={lang}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l === 'sp' ? 'es' : l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
      <button type="submit" className="btn btn-quiet">
        {t('change')}
      </button>
    </form>
  )
}
