import { Document } from './Document.js'
import type { Lang, Translate } from './i18n.js'
import { Shell } from './Shell.js'

export interface PayerStepPageProps {
  t: Translate
  lang: Lang
  base: string
  chosen?: Lang
  kind: 'acs' | 'redirect'
  merchant: string
  amount: string
  card?: string
  /** Where the form posts (the step's own address). */
  action: string
}

/**
 * The pages a payment in status 3ds or redirect sends its payer to: the sandbox's ACS (the payer
 * picks pass or fail, 2.4 / docs/rules.md#test-data) and the provider page of a redirect (the payer comes
 * back). Both answer with a POST to themselves.
 */
export function PayerStepPage({
  t,
  lang,
  base,
  chosen,
  kind,
  merchant,
  amount,
  card,
  action,
}: PayerStepPageProps) {
  const acs = kind === 'acs'
  return (
    <Document lang={lang} title={acs ? t('acsTitle') : t('redirectTitle')} base={base} data={{ page: kind }}>
      <Shell t={t}>
        <div className="card">
          <h1>{acs ? t('acsTitle') : t('redirectTitle')}</h1>
          <p>{acs ? t('acsIntro') : t('redirectIntro')}</p>
          <dl className="facts">
            <dt>{t('acsMerchant')}</dt>
            <dd>{merchant}</dd>
            <dt>{t('acsAmount')}</dt>
            <dd>
              <bdi>{amount}</bdi>
            </dd>
            {card ? (
              <>
                <dt>{t('acsCard')}</dt>
                <dd>
                  <bdi dir="ltr">{card}</bdi>
                </dd>
              </>
            ) : null}
          </dl>
          <form method="post" action={action} className="actions" data-form="step">
            {chosen ? <input type="hidden" name="lang" value={chosen} /> : null}
            {acs ? (
              <>
                <button type="submit" name="result" value="pass" className="btn" id="acs-pass">
                  {t('acsPass')}
                </button>
                <button type="submit" name="result" value="fail" className="btn btn-danger" id="acs-fail">
                  {t('acsFail')}
                </button>
              </>
            ) : (
              <button type="submit" name="result" value="return" className="btn" id="redirect-return">
                {t('redirectReturn')}
              </button>
            )}
          </form>
          <p className="note">{acs ? t('acsNote') : t('redirectNote')}</p>
        </div>
      </Shell>
    </Document>
  )
}
