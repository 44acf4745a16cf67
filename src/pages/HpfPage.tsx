import { BrowserInfoFields, CardFields } from './CardFields.js'
import { clientMessages } from './client-data.js'
import { Document } from './Document.js'
import { ErrorSummary, type PageError } from './ErrorSummary.js'
import type { Lang, Translate } from './i18n.js'

export interface HpfPageProps {
  t: Translate
  lang: Lang
  base: string
  chosen?: Lang
  token: string
  operation: 'purchase' | 'debit'
  amountText: string
  cvvOptional: boolean
  errors: PageError[]
  values: Record<string, string>
  declineReason?: string
}

/**
 * Hosted Payment Fields (`/hpf/<session token>`): the card inputs alone, made to sit in an iframe
 * on the merchant's checkout. With script, the form posts JSON to
 * `/api/v1/processing/<operation>/card` with the `Token` header (docs/rules.md#beyond-the-interface) and tells the
 * parent page the result (postMessage); without, it posts to the sandbox like the hosted page.
 * No Terms & Conditions box here (Events: "not shown for ... Hosted Payment Fields").
 */
export function HpfPage(props: HpfPageProps) {
  const { t, lang, base, chosen, token, operation } = props
  const errors: PageError[] =
    props.declineReason !== undefined && !props.errors.length
      ? [{ message: `${t('declinedNotice')} ${t('declineReason', { reason: props.declineReason })}` }]
      : props.errors
  const byField = Object.fromEntries(errors.filter((e) => e.field).map((e) => [e.field, e.message]))
  return (
    <Document
      lang={lang}
      title={t('hpfTitle')}
      base={base}
      className="hpf"
      scripts={['hpf.js']}
      data={{
        page: 'hpf',
        endpoint: `${base}/api/v1/processing/${operation}/card`,
        token,
        messages: clientMessages(t),
      }}
    >
      <main className="wrap">
        <div className="card">
          <ErrorSummary errors={errors} t={t} />
          <div id="hpf-result" className="status" role="status" hidden>
            <div className="icon icon-success" aria-hidden="true" />
            <h1>{t('statusSuccess')}</h1>
            <p>{t('statusSuccessText')}</p>
          </div>
          <form
            method="post"
            action={`${base}/hpf/${encodeURIComponent(token)}/pay`}
            id="pay-form"
            data-form="hpf"
          >
            {chosen ? <input type="hidden" name="lang" value={chosen} /> : null}
            <h1 className="sr-only">{t('hpfTitle')}</h1>
            <CardFields t={t} errors={byField} values={props.values} cvvOptional={props.cvvOptional} />
            <BrowserInfoFields />
            <button type="submit" className="btn" id="pay-button">
              {t('pay', { amount: props.amountText })}
            </button>
          </form>
          <p className="note">{t('sandboxBanner')}</p>
        </div>
      </main>
    </Document>
  )
}
