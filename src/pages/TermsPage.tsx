import { Document } from './Document.js'
import type { Lang, Translate } from './i18n.js'
import { Shell } from './Shell.js'

/** The platform's general terms, linked by the checkbox when the merchant set no terms URL of its own (Events). */
export function TermsPage({ t, lang, base }: { t: Translate; lang: Lang; base: string }) {
  return (
    <Document lang={lang} title={t('termsPageTitle')} base={base}>
      <Shell t={t}>
        <div className="card">
          <h1>{t('termsPageTitle')}</h1>
          <p>{t('termsPageText')}</p>
        </div>
      </Shell>
    </Document>
  )
}
