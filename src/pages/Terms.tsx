import type { Translate } from './i18n.js'

/**
 * Events: the Terms & Conditions checkbox, "not ticked by default; the pay button stays inactive
 * until ticked; link to the merchant's own terms URL when set, otherwise the platform's general
 * terms". Without script the browser's `required` keeps the form from being sent unticked.
 */
export function Terms({ t, url, error }: { t: Translate; url: string; error?: string }) {
  const [before = '', after = ''] = t('termsAccept').split('{terms}')
  return (
    <div className="field">
      <div className="terms">
        <input
          type="checkbox"
          id="terms"
          name="terms"
          value="on"
          required
          aria-describedby="terms-hint terms-error"
          aria-invalid={error ? true : undefined}
          data-terms=""
        />
        <label htmlFor="terms">
          {before}
          <a href={url} target="_blank" rel="noopener">
            {t('termsLink')}
            <span className="sr-only"> ({t('opensNewWindow')})</span>
          </a>
          {after}
        </label>
      </div>
      <span className="hint" id="terms-hint">
        {t('termsHint')}
      </span>
      <p className="field-error" id="terms-error">
        {error ?? ''}
      </p>
    </div>
  )
}
